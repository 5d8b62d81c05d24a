/**
 * A lock file in the store dir so that the tray and `--mcp` launchers never interleave a
 * read-modify-write of the store. The holder's pid is in the file; a lock whose holder is dead
 * (or that is older than STALE_MS) is broken. Waiting is bounded polling, never unbounded.
 */
import { open, readFile, stat, unlink } from 'node:fs/promises';
import path from 'node:path';

export const LOCK_FILE = 'store.lock';
const STALE_MS = 10_000;
const WAIT_MS = 5_000;
const POLL_MS = 15;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function isStale(file: string): Promise<boolean> {
  try {
    const [text, info] = await Promise.all([readFile(file, 'utf8'), stat(file)]);
    const pid = Number.parseInt(text, 10);
    if (Date.now() - info.mtimeMs > STALE_MS) return true;
    return Number.isInteger(pid) && pid > 0 && !isAlive(pid);
  } catch {
    return false; // Vanished or half-written: just try again.
  }
}

/** Runs `fn` while holding the store lock. */
export async function withStoreLock<T>(storeDir: string, fn: () => Promise<T> | T): Promise<T> {
  const file = path.join(storeDir, LOCK_FILE);
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    try {
      const handle = await open(file, 'wx', 0o600);
      await handle.writeFile(String(process.pid));
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (await isStale(file)) {
        await unlink(file).catch(() => {});
        continue;
      }
      if (Date.now() > deadline) {
        throw new Error(
          `The settings store is locked by another Roam Companion process (${file}). ` +
            'Wait a moment and try again; if no other instance runs, delete that file.',
          { cause: error },
        );
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }
  try {
    return await fn();
  } finally {
    await unlink(file).catch(() => {});
  }
}
