/**
 * Node's compile cache for the bin's own code (Node >= 22.1; README, Performance):
 * V8's compiled code of each chunk is kept in Node's cache folder (NODE_COMPILE_CACHE, else
 * `node-compile-cache` in the system's temp folder) and read back by the next start instead of
 * compiling again. Node checks each entry against the file's content and its own version. A cache
 * that cannot be used (an older Node, an unwritable folder, NODE_DISABLE_COMPILE_CACHE=1) leaves
 * the start as it is without one; nothing here may fail a start.
 */
import module from 'node:module';

type CacheApi = {
  enableCompileCache?: () => { status: number };
  flushCompileCache?: () => void;
};

const api = module as unknown as CacheApi;
let enabled = false;

/**
 * Before any other module of the bin loads (only modules loaded after it are cached); whether the
 * cache is on.
 */
export function startCompileCache(): boolean {
  try {
    const result = api.enableCompileCache?.();
    // ENABLED or ALREADY_ENABLED (module.constants.compileCacheStatus); FAILED and DISABLED are not.
    enabled = result !== undefined && (result.status === 1 || result.status === 2);
  } catch {
    enabled = false;
  }
  return enabled;
}

/**
 * Writes what this process compiled to the cache now (Node >= 22.10), not only at a clean exit:
 * clients often end the server with a signal, and a cache written only at exit would then never
 * be written. Called once the tools have loaded; entries read from the cache are not written again.
 */
export function saveCompileCache(): void {
  if (!enabled) return;
  try {
    api.flushCompileCache?.();
  } catch {
    // The next start compiles again.
  }
}
