/**
 * Live `--mcp` sessions, counted for the status bar: each launcher writes `sessions/<pid>` in the
 * store dir and removes it on exit; files of dead processes (a crash, a kill -9) are pruned when
 * counted.
 */
import { mkdir, readdir, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isProcessAlive } from '../../../src-shared/node/process-alive.ts';

const SESSIONS_DIR = 'sessions';

/** Registers this process as a live session; the returned function unregisters it. */
export async function registerSession(storeDir: string, pid = process.pid): Promise<() => Promise<void>> {
  const dir = path.join(storeDir, SESSIONS_DIR);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, String(pid));
  await writeFile(file, String(Date.now()), { mode: 0o600 });
  return () => unlink(file).catch(() => {});
}

/** Number of live sessions, pruning the files of dead ones. */
export async function countSessions(storeDir: string): Promise<number> {
  let names: string[];
  try {
    names = await readdir(path.join(storeDir, SESSIONS_DIR));
  } catch {
    return 0;
  }
  let live = 0;
  for (const name of names) {
    const pid = Number.parseInt(name, 10);
    if (Number.isInteger(pid) && pid > 0 && isProcessAlive(pid)) live++;
    else await unlink(path.join(storeDir, SESSIONS_DIR, name)).catch(() => {});
  }
  return live;
}
