// Where vitest keeps its results (each file's last duration, which test/sequencer.ts orders by and
// scripts/test-durations.mjs records), one folder per checkout: git worktrees that share one
// node_modules must not order their runs, or record their durations, by each other's runs.
import { createHash } from 'node:crypto';
import path from 'node:path';

/** Vite's cacheDir for the checkout at `root` (vitest adds `vitest/<hash>/results.json`). */
export function vitestCacheDir(root) {
  return path.join(root, 'node_modules/.vite', createHash('sha256').update(root).digest('hex').slice(0, 12));
}
