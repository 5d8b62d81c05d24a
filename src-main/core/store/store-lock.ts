/** The store's lock: the tray and `--mcp` launchers never interleave a read-modify-write of it. */
import path from 'node:path';
import { withFileLock } from '../../../src-shared/node/file-lock.ts';
import { LOCK_FILE, STORE_FILE } from './store-file.ts';

/** Runs `fn` while holding the store lock. */
export function withStoreLock<T>(storeDir: string, fn: () => Promise<T> | T): Promise<T> {
  const lock = path.join(storeDir, LOCK_FILE);
  return withFileLock(
    path.join(storeDir, STORE_FILE),
    `The settings store is kept locked by another Roam Companion process (${lock}) for longer than expected. ` +
      'Wait a moment and try again.',
    () => fn(),
    lock,
  );
}
