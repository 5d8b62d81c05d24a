/**
 * The bin's entry (dist/roam-mcp.mjs; scripts/build.mjs). Where Node has a compile cache (22.1+)
 * it turns it on, in our data folder (0700: a shared temp folder would let another local user plant
 * compiled code), and loads the CLI as chunks, each read already compiled and the tools only after
 * the first answer (src-mcp/server/compile-cache.ts writes the cache). Without one (Node 20, an unusable
 * data folder, NODE_DISABLE_COMPILE_CACHE=1) it loads the same code as one file, which Node compiles
 * faster than many. Nothing else loads first: only modules loaded after the cache is on are read
 * from it, and each module before the CLI costs Node 20's loader time.
 */
import module from 'node:module';

/** The CLI as one file (scripts/build.mjs, MCP_WHOLE), beside this entry once built. */
const WHOLE = './roam-mcp-chunks/roam-mcp-whole.mjs';

type CacheApi = { enableCompileCache?: (dir?: string) => { status: number } | undefined };

/** Whether the cache is on: ENABLED or ALREADY_ENABLED (module.constants.compileCacheStatus). */
async function startCompileCache(): Promise<boolean> {
  const { enableCompileCache } = module as CacheApi;
  if (typeof enableCompileCache !== 'function' || process.env.NODE_DISABLE_COMPILE_CACHE) return false;
  try {
    // NODE_COMPILE_CACHE, when set, has turned it on already, in the folder it names.
    let dir: string | undefined;
    if (!process.env.NODE_COMPILE_CACHE) {
      const { ensureDataSubdir } = await import('../../src-shared/node/data-dir.ts');
      dir = await ensureDataSubdir('compile-cache');
    }
    const status = enableCompileCache(dir)?.status;
    return status === 1 || status === 2;
  } catch {
    return false;
  }
}

if (await startCompileCache()) await import('./roam-mcp.ts');
else await import(WHOLE);
