/**
 * The bin's entry (dist/roam-mcp.mjs; scripts/build.mjs). It turns Node's compile cache on (Node
 * 22.1+; src-mcp/compile-cache.ts writes it) and then loads the CLI as chunks, each read already
 * compiled and the tools only after the first answer. Without a cache (Node 20, an unusable cache
 * folder, NODE_DISABLE_COMPILE_CACHE=1) it loads the same code as one file, which Node compiles
 * faster than many. It imports nothing else: only the modules loaded after the cache is on are read
 * from it, and each module loaded before the CLI costs Node 20's loader time.
 */
import module from 'node:module';

/** The CLI as one file (scripts/build.mjs, MCP_WHOLE), beside this entry once built. */
const WHOLE = './roam-mcp-chunks/roam-mcp-whole.mjs';

/** Whether the cache is on: ENABLED or ALREADY_ENABLED (module.constants.compileCacheStatus). */
function startCompileCache(): boolean {
  try {
    const status = (module as { enableCompileCache?: () => { status: number } }).enableCompileCache?.()
      ?.status;
    return status === 1 || status === 2;
  } catch {
    return false;
  }
}

if (startCompileCache()) await import('./cli.ts');
else await import(WHOLE);
