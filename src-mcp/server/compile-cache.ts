/**
 * Node's compile cache for the bin's own code (Node >= 22.1; docs/guide.md, Performance): the bin's entry
 * (src-mcp/cli/bin.ts) turns it on; V8's compiled code of each chunk is kept in `compile-cache/` of our
 * data folder (or NODE_COMPILE_CACHE when set) and read back by the next start instead of compiling
 * again. Node checks each entry against the file's content and its own version. Nothing here may
 * fail a start or a request.
 */
import module from 'node:module';

type CacheApi = {
  getCompileCacheDir?: () => string | undefined;
  flushCompileCache?: () => void;
};

/**
 * Writes what this process compiled to the cache now (Node >= 22.10), not only at a clean exit:
 * clients often end the server with a signal, and a cache written only at exit would then never
 * be written. Called once the tools have loaded; entries read from the cache are not written again.
 * Does nothing when the cache is off.
 */
export function saveCompileCache(): void {
  const api = module as unknown as CacheApi;
  try {
    if (api.getCompileCacheDir?.()) api.flushCompileCache?.();
  } catch {
    // The next start compiles again.
  }
}
