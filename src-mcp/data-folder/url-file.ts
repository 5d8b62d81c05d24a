/**
 * Where a running HTTP server says it is: `<data folder>/http-server.json` (0600), `{url, pid,
 * chats}`, written once it listens, again each time the number of chats it serves changes (the
 * tray's status bar counts them), and removed when it stops. The installers and the tray read it to point
 * clients at the running server; a file whose pid is gone is stale and ignored.
 *
 * Where one will be: `http-server-at-login.json` (0600), `{url}`, kept by the tray while it serves
 * and opens at login, so an install made while it is closed still points the client at it.
 */
import { readFile, unlink } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../../src-shared/node/atomic-write.ts';
import { dataDir, ensureDataSubdir, type DataDirOptions } from '../../src-shared/node/data-dir.ts';

export const URL_FILE = 'http-server.json';
const AT_LOGIN_FILE = 'http-server-at-login.json';

export interface ServedAt {
  url: string;
  pid: number;
  /** The chats it serves now (a file written before it counted them: 0). */
  chats: number;
}

export function urlFile(options: DataDirOptions = {}): string {
  return path.join(dataDir(options), URL_FILE);
}

export async function writeUrlFile(url: string, options: DataDirOptions = {}, chats = 0): Promise<string> {
  await ensureDataSubdir('.', options);
  const file = urlFile(options);
  await writeFileAtomic(file, `${JSON.stringify({ url, pid: process.pid, chats })}\n`, 0o600);
  return file;
}

/** Removes the file if it is still this process's (another server may have started since). */
export async function removeUrlFile(options: DataDirOptions = {}): Promise<void> {
  const current = await readUrlFile(options, { live: false });
  if (current?.pid === process.pid) await unlink(urlFile(options)).catch(() => {});
}

/** The running server's address, or undefined (none written, unreadable, or its process gone). */
export async function readUrlFile(
  options: DataDirOptions = {},
  { live = true }: { live?: boolean } = {},
): Promise<ServedAt | undefined> {
  try {
    const parsed = JSON.parse(await readFile(urlFile(options), 'utf8')) as Partial<ServedAt>;
    if (typeof parsed.url !== 'string' || typeof parsed.pid !== 'number') return undefined;
    if (live && !isAlive(parsed.pid)) return undefined;
    const chats =
      typeof parsed.chats === 'number' && Number.isInteger(parsed.chats) && parsed.chats > 0
        ? parsed.chats
        : 0;
    return { url: parsed.url, pid: parsed.pid, chats };
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The tray serves at `url` whenever it runs and it opens at login; undefined: it does not (any more). */
export async function writeAtLoginFile(url: string | undefined, options: DataDirOptions = {}): Promise<void> {
  const file = path.join(dataDir(options), AT_LOGIN_FILE);
  if (url === undefined) return unlink(file).catch(() => {});
  await ensureDataSubdir('.', options);
  await writeFileAtomic(file, `${JSON.stringify({ url })}\n`, 0o600);
}

/** Where the tray serves once it runs, when it opens at login; undefined otherwise. */
export async function readAtLoginFile(options: DataDirOptions = {}): Promise<string | undefined> {
  try {
    const parsed = JSON.parse(await readFile(path.join(dataDir(options), AT_LOGIN_FILE), 'utf8')) as {
      url?: unknown;
    };
    return typeof parsed.url === 'string' ? parsed.url : undefined;
  } catch {
    return undefined;
  }
}
