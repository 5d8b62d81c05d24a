/**
 * A lock beside the data it guards, so that processes never interleave a read-modify-write of
 * the same file: the tray and its `--mcp` launchers on the store; roam-mcp servers storing tokens
 * and `roam-mcp connect` on `~/.roam-tools.json`. It is proper-lockfile's `<file>.lock`
 * directory (atomic mkdir), refreshed by its live holder, broken once older than STALE_MS (a
 * holder killed with SIGKILL). Every writer passes the path it locks already resolved (symlinks
 * followed, see config-file.ts configWriteTarget), so proper-lockfile's own realpath is off: it
 * would fail on a file that does not exist yet. Rules and figures: docs/reliability.md.
 */
import { stat } from 'node:fs/promises';
import lockfile from 'proper-lockfile';

/** A lock whose holder stopped refreshing it this long ago is broken. */
export const STALE_MS = 5_000;
/** A live holder refreshes its lock this often: a slow holder is never taken for a dead one. */
const UPDATE_MS = 1_000;
/** Bounded wait: a dead holder's lock (STALE_MS) plus a queue of live writers. */
const RETRIES = { retries: 150, factor: 1.2, minTimeout: 20, maxTimeout: 150, randomize: true };
/** Attempts when our lock was broken under us before we committed (see `LockLostError`). */
const MAX_TRANSACTIONS = 5;

/** Thrown by `assertHeld` when another process broke our lock: the transaction is run again. */
class LockLostError extends Error {}

export interface HeldLock {
  /**
   * Call right before committing (the rename of an atomic write). Breaking a stale lock is a
   * stat then an rmdir, so two breakers can both believe they hold it; the later one removed
   * ours and made its own directory, which this detects: the transaction then starts over.
   */
  assertHeld(): Promise<void>;
}

/**
 * Runs `fn` while holding `<file>.lock` (or `lockPath`). `busyMessage` is the error when live
 * holders keep the lock past the bounded wait: it should say what is locked and what to do.
 */
export async function withFileLock<T>(
  file: string,
  busyMessage: string,
  fn: (held: HeldLock) => Promise<T> | T,
  lockPath = `${file}.lock`,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await runLocked(file, lockPath, busyMessage, fn);
    } catch (error) {
      if (!(error instanceof LockLostError) || attempt >= MAX_TRANSACTIONS) throw error;
    }
  }
}

async function runLocked<T>(
  file: string,
  lockPath: string,
  busyMessage: string,
  fn: (held: HeldLock) => Promise<T> | T,
): Promise<T> {
  let compromised = false;
  let lost = false;
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(file, {
      lockfilePath: lockPath,
      realpath: false,
      stale: STALE_MS,
      update: UPDATE_MS,
      retries: RETRIES,
      onCompromised: () => {
        compromised = true;
      },
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOCKED') throw new Error(busyMessage, { cause: error });
    throw error;
  }
  const ours = await stat(lockPath);
  const held: HeldLock = {
    async assertHeld() {
      const now = await stat(lockPath).catch(() => undefined);
      const same = now && now.ino === ours.ino && now.birthtimeMs === ours.birthtimeMs;
      if (compromised || !same) {
        lost = true;
        throw new LockLostError(`lost the lock ${lockPath}`);
      }
    },
  };
  try {
    return await fn(held);
  } finally {
    // A lock broken under us is no longer ours to remove.
    if (!compromised && !lost) await release().catch(() => {});
  }
}
