/** The store's lock: the tray and `--mcp` launchers never interleave a read-modify-write of it. */
import path from 'node:path';
import { withFileLock } from '../../src-shared/node/file-lock.ts';

export const LOCK_FILE = 'store.lock';

/** Runs `fn` while holding the store lock. */
export function withStoreLock<T>(storeDir: string, fn: () => Promise<T> | T): Promise<T> {
  const file = path.join(storeDir, LOCK_FILE);
  return withFileLock(
    file,
    `The settings store is locked by another Roam Companion process (${file}). ` +
      'Wait a moment and try again; if no other instance runs, delete that file.',
    fn,
  );
}
