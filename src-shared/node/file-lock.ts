/**
 * A lock beside the data it guards, so that processes never interleave a read-modify-write of
 * the same file: the tray and its `--mcp` launchers on the store; roam-mcp servers storing tokens
 * and `roam-mcp connect` on `~/.roam-tools.json`. It is proper-lockfile's `<file>.lock`
 * directory (atomic mkdir), refreshed by its live holder, broken once older than STALE_MS (a
 * holder killed with SIGKILL). Every writer passes the path it locks already resolved (symlinks
 * followed, see config-write.ts), so proper-lockfile's own realpath is off: it would fail on a
 * file that does not exist yet. Rules and figures: docs/reliability.md.
 */
import fs from 'node:fs';

/** A lock whose holder stopped refreshing it this long ago is broken. */
export const STALE_MS = 5_000;
/** A live holder refreshes its lock this often: a slow holder is never taken for a dead one. */
const UPDATE_MS = 1_000;
/**
 * Bounded wait (about 20 s): a dead holder's lock (STALE_MS) plus a queue of live writers. The
 * first retries come soon (5–10 ms): a graph's write lock is held for a few milliseconds, and a
 * first sleep of 20–40 ms doubled a waiting create_block's time.
 */
const RETRIES = { retries: 157, factor: 1.2, minTimeout: 5, maxTimeout: 150, randomize: true };

/**
 * proper-lockfile breaks a stale lock with stat-then-rmdir, so two waiters can both see it
 * stale, and the later rmdir removes the lock the first one has just made: both then write.
 * Breaking is serialized here instead: only the holder of `<lock>.breaking` may remove the
 * lock, and only if it is still stale once that is held. The breaker's own lock is released at
 * once; if its holder dies in those few system calls, it is broken after 2 × the stale time.
 */
function breakStaleLock(
  staleMs: number,
  lock: string,
  callback: (error: NodeJS.ErrnoException | null) => void,
): void {
  const breaker = `${lock}.breaking`;
  fs.mkdir(breaker, (error) => {
    if (error) {
      if (error.code !== 'EEXIST') return callback(error);
      // Another process is breaking it: let proper-lockfile retry, after clearing a dead breaker.
      return fs.stat(breaker, (_statError, info) => {
        if (info && info.mtimeMs < Date.now() - 2 * staleMs) fs.rmdir(breaker, () => callback(null));
        else callback(null);
      });
    }
    fs.stat(lock, (statError, info) => {
      const stillStale = !statError && info.mtimeMs < Date.now() - staleMs;
      const done = () => fs.rmdir(breaker, () => callback(null));
      if (stillStale) fs.rmdir(lock, done);
      else done(); // Broken and taken by someone else meanwhile: proper-lockfile sees it held.
    });
  });
}

/**
 * The fs of one lock call: its rmdir is this call's release once `releasing` says so, and before
 * that can only be breaking a stale lock. Per call, not per process: with one record for the
 * process, a holder's release could be taken for a break (its lock left in place until stale) and a
 * waiter's break for a release (a live lock removed) while another caller held the lock.
 */
const lockFsOf = (staleMs: number, releasing: () => boolean) => ({
  ...fs,
  rmdir: (lock: string, callback: (error: NodeJS.ErrnoException | null) => void) =>
    releasing() ? fs.rmdir(lock, callback) : breakStaleLock(staleMs, lock, callback),
});

/**
 * Runs `fn` while holding `<file>.lock` (or `lockPath`). `busyMessage` is the error when live
 * holders keep the lock past the bounded wait: it should say what is locked and what to do.
 * `staleMs` lets a test prove the stale-time rules without waiting STALE_MS (proper-lockfile takes
 * no less than 2 s).
 */
export async function withFileLock<T>(
  file: string,
  busyMessage: string,
  fn: () => Promise<T> | T,
  lockPath = `${file}.lock`,
  { staleMs = STALE_MS }: { staleMs?: number } = {},
): Promise<T> {
  let release: () => Promise<void>;
  let releasing = false;
  // Loaded at the first lock, not before the MCP server's first answer (it brings graceful-fs,
  // which patches fs and loads node:assert).
  const { default: lockfile } = await import('proper-lockfile');
  try {
    release = await lockfile.lock(file, {
      lockfilePath: lockPath,
      realpath: false,
      stale: staleMs,
      update: UPDATE_MS,
      retries: RETRIES,
      fs: lockFsOf(staleMs, () => releasing),
      // The default throws from a timer (a crash). A lock is compromised only when its holder
      // could not refresh it for the stale time; the write is atomic either way.
      onCompromised: () => {},
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOCKED') throw new Error(busyMessage, { cause: error });
    throw error;
  }
  try {
    return await fn();
  } finally {
    releasing = true;
    await release().catch(() => {});
  }
}
