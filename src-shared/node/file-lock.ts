/**
 * A lock file beside the data it guards, so that processes never interleave a
 * read-modify-write of the same file (the tray and its `--mcp` launchers on the store; several
 * roam-mcp processes writing tokens back to `~/.roam-tools.json`). The holder's pid is in the
 * lock; a lock whose holder is dead, or older than STALE_MS, is broken. Waiting is bounded.
 */
import { open, readFile, stat, unlink } from 'node:fs/promises';
import { isProcessAlive } from './process-alive.ts';

const STALE_MS = 10_000;
/** A holder writes its pid right after creating the lock; an empty lock this old lost its holder. */
const EMPTY_STALE_MS = 500;
const WAIT_MS = 5_000;
const POLL_MS = 15;

async function isStale(lockFile: string): Promise<boolean> {
  try {
    const [text, info] = await Promise.all([readFile(lockFile, 'utf8'), stat(lockFile)]);
    const pid = Number.parseInt(text, 10);
    const age = Date.now() - info.mtimeMs;
    if (age > STALE_MS) return true;
    // Killed between creating the lock and writing its pid.
    if (!(Number.isInteger(pid) && pid > 0)) return age > EMPTY_STALE_MS;
    return !isProcessAlive(pid);
  } catch {
    return false; // Vanished or half-written: just try again.
  }
}

/**
 * Runs `fn` while holding `lockFile`. `busyMessage` is the error when another live process keeps
 * the lock past the bounded wait: it should say what is locked and what to do.
 */
export async function withFileLock<T>(
  lockFile: string,
  busyMessage: string,
  fn: () => Promise<T> | T,
): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    try {
      const handle = await open(lockFile, 'wx', 0o600);
      await handle.writeFile(String(process.pid));
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (await isStale(lockFile)) {
        await unlink(lockFile).catch(() => {});
        continue;
      }
      if (Date.now() > deadline) throw new Error(busyMessage, { cause: error });
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }
  try {
    return await fn();
  } finally {
    await unlink(lockFile).catch(() => {});
  }
}
