/** Vite's cacheDir for the checkout at `root`, one folder per checkout (scripts/vitest-cache.mjs). */
export declare function vitestCacheDir(root: string): string;
