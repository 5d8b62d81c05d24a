/**
 * The bin's entry (dist/roam-mcp.mjs; scripts/build.mjs): turns Node's compile cache on before
 * the rest of roam-mcp loads, then runs the CLI. Kept to this: only the modules loaded after the
 * cache is on are read from it.
 */
import { startCompileCache } from './compile-cache.ts';

startCompileCache();
await import('./cli.ts');
