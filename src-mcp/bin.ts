/**
 * The bin's entry (dist/roam-mcp.mjs; scripts/build.mjs). With Node's compile cache on (Node
 * 22.1+, src-mcp/compile-cache.ts) it loads the CLI as chunks, each read already compiled and the
 * tools only after the first answer; without one (Node 20, an unusable cache folder) it loads the
 * same code as one file, which Node compiles faster than many. Nothing else here: only the modules
 * loaded after the cache is on are read from it.
 */
import { startCompileCache } from './compile-cache.ts';

/** The CLI as one file (scripts/build.mjs, MCP_WHOLE), beside this entry once built. */
const WHOLE = './roam-mcp-chunks/roam-mcp-whole.mjs';

if (startCompileCache()) await import('./cli.ts');
else await import(WHOLE);
