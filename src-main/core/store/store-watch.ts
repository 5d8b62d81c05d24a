/**
 * Calls back when the store file is replaced by any process (conf writes by rename, so the
 * directory is watched, not the file's inode). Events are coalesced over a short window.
 */
import { watch } from 'node:fs';
import path from 'node:path';

export function watchStoreFile(storeFile: string, onChange: () => void, debounceMs = 25): () => void {
  const base = path.basename(storeFile);
  let timer: NodeJS.Timeout | undefined;
  const watcher = watch(path.dirname(storeFile), { persistent: false }, (_event, name) => {
    if (name !== null && name !== base) return;
    clearTimeout(timer);
    timer = setTimeout(onChange, debounceMs);
  });
  watcher.on('error', () => {}); // The dir vanished (tests' temp dirs): nothing left to watch.
  return () => {
    clearTimeout(timer);
    watcher.close();
  };
}
