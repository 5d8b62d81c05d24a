/** What doctor checks on this machine alone: Node, the clients' entries, the HTTP server, the journal, file modes. */
import { existsSync } from 'node:fs';
import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { configFileCandidates } from '../../src-shared/config-files.ts';
import { dataDir } from '../../src-shared/node/data-dir.ts';
import { SERVER_LOG, TRAY_LOG, logFilePath } from '../../src-shared/node/log-file.ts';
import { testLimits } from '../changes/journal/chat-quota.ts';
import { DEFAULT_MAX_BYTES, JOURNAL_DIR, isSegmentName } from '../changes/journal/journal-store.ts';
import { KEYS_FILE } from '../data-folder/key-store.ts';
import { readAtLoginFile, readUrlFile } from '../data-folder/url-file.ts';
import { dataDirOptions } from '../installers/http-entry.ts';
import { CLIENT_LIST } from '../installers/client-catalogue.ts';
import { HEADERS_FILE } from '../installers/claude-code-headers.ts';
import { clientPackage, duplicateNote } from '../installers/client-packages.ts';
import { BACKUP_SUFFIX, listClients } from '../installers/installer.ts';
import { expandHome } from '../config/load-config.ts';
import type { Check, DoctorOptions } from './check.ts';

/** One of our HTTP keys (src-mcp/data-folder/key-store.ts), in a file's text. */
const OUR_KEY = /roam-mcp-key-[A-Za-z0-9_-]/;

/** The oldest Node the package supports (package.json engines). */
const NODE_MIN = [20, 19];

export function nodeCheck(): Check {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  const ok = major > NODE_MIN[0]! || (major === NODE_MIN[0] && minor >= NODE_MIN[1]!);
  return {
    section: 'node',
    name: 'Node.js',
    status: ok ? 'ok' : 'fail',
    detail: `${process.versions.node} at ${process.execPath}`,
    ...(ok
      ? {}
      : { fix: `roam-mcp needs Node ${NODE_MIN.join('.')} or newer: install a current LTS (nodejs.org).` }),
  };
}

const folderOf = (options: DoctorOptions) => options.dataDir ?? dataDir(dataDirOptions(options));

export async function clientChecks(options: DoctorOptions): Promise<Check[]> {
  const views = await listClients({
    home: options.home,
    launcher: options.launcher,
    env: options.env,
    ...(options.platform ? { platform: options.platform } : {}),
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
  });
  const packages = await Promise.all(views.map((view) => clientPackage(view.id, options)));
  return views.map((view, index): Check => {
    const how = view.transport ? ` over ${view.transport}` : '';
    const sets = view.toolsets ? `, toolsets ${view.toolsets.join(',')}` : '';
    const base = { section: 'clients', name: view.name };
    const packaged = packages[index];
    if (packaged && (view.state === 'installed' || view.state === 'stale'))
      return {
        ...base,
        status: 'warn',
        detail: `installed${how} (${view.configPath}), and from ${packaged.what} too: two servers named roam-companion`,
        fix: duplicateNote(view.name, view.id, packaged),
      };
    if (view.state === 'installed')
      return {
        ...base,
        status: 'ok',
        // Nothing to fix: what the view adds (the server not running now, say) is part of what was found.
        detail: `installed${how}${sets} (${view.configPath})${view.message ? `. ${view.message}` : ''}`,
      };
    if (view.state === 'stale')
      return {
        ...base,
        status: 'warn',
        detail: `out of date${how}: ${view.message ?? ''}`.trim(),
        fix: `roam-mcp install ${view.id}`,
      };
    if (view.state === 'not-installed')
      return {
        ...base,
        status: 'skip',
        detail: `not set up (${view.configPath})`,
        fix: `roam-mcp install ${view.id}`,
      };
    // Unavailable: not on this computer, or its file cannot be read (the message says which).
    const unreadable = view.configPath !== undefined && existsSync(view.configPath);
    return unreadable
      ? { ...base, status: 'warn', detail: view.message ?? 'its config cannot be read' }
      : { ...base, status: 'skip', detail: `not found on this computer (${view.configPath})` };
  });
}

/** The process behind a pid, as far as this platform tells (Linux's /proc). */
async function commandOf(pid: number): Promise<string | undefined> {
  const text = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => undefined);
  return text?.split('\0').filter(Boolean).join(' ');
}

/** Its parent's pid (Linux's /proc; the field after the command's closing parenthesis). */
async function parentOf(pid: number): Promise<number | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  const ppid = stat ? Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) : NaN;
  return Number.isInteger(ppid) ? ppid : undefined;
}

/**
 * Who started the server: Roam Companion runs the same `serve --http` as a child of its `--mcp`
 * launcher, so the parent tells them apart.
 */
async function startedBy(pid: number): Promise<string> {
  const command = await commandOf(pid);
  if (command === undefined) return `pid ${pid}`;
  const parent = await parentOf(pid);
  const parentCommand = parent === undefined ? undefined : await commandOf(parent);
  if (parentCommand && /--mcp\b|Roam Companion|electron/i.test(parentCommand))
    return `Roam Companion (pid ${pid})`;
  return /\bserve\b.*--http/.test(command) ? `roam-mcp serve --http (pid ${pid})` : `pid ${pid}`;
}

export async function httpServerChecks(options: DoctorOptions): Promise<Check[]> {
  const where = { ...dataDirOptions(options) };
  const served = await readUrlFile(where);
  const atLogin = await readAtLoginFile(where);
  const base = { section: 'http', name: 'HTTP server' };
  if (!served) {
    return [
      {
        ...base,
        status: 'skip',
        detail: atLogin
          ? `not running; Roam Companion serves ${atLogin} whenever it runs (it opens at login)`
          : 'not running (clients over stdio need none)',
        fix: 'roam-mcp serve --http, or run Roam Companion, for clients that connect over HTTP.',
      },
    ];
  }
  const by = await startedBy(served.pid);
  const answers = await fetch(served.url, { signal: AbortSignal.timeout(options.timeoutMs ?? 5000) }).then(
    () => true,
    () => false,
  );
  return [
    {
      ...base,
      status: answers ? 'ok' : 'fail',
      detail: `${answers ? 'serving' : 'not answering'} at ${served.url}, started by ${by}`,
      ...(answers ? {} : { fix: 'Stop that process and start the server again (roam-mcp serve --http).' }),
    },
  ];
}

const modeText = (mode: number) => (mode & 0o777).toString(8).padStart(3, '0');

export async function journalChecks(options: DoctorOptions): Promise<Check[]> {
  const dir = path.join(folderOf(options), JOURNAL_DIR);
  const base = { section: 'journal', name: 'change journal' };
  const names = await readdir(dir).catch(() => undefined);
  if (!names) return [{ ...base, status: 'skip', detail: `none yet (${dir})` }];
  let bytes = 0;
  for (const name of names.filter(isSegmentName)) bytes += (await stat(path.join(dir, name))).size;
  const quota = testLimits().maxBytes ?? DEFAULT_MAX_BYTES;
  const share = bytes / quota;
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
  const checks: Check[] = [
    {
      ...base,
      status: share >= 1 ? 'fail' : share >= 0.8 ? 'warn' : 'ok',
      detail: `${mb(bytes)} of ${mb(quota)} (${Math.round(share * 100)}%) in ${dir}`,
      ...(share >= 0.8
        ? {
            fix:
              'Changes older than 7 days are pruned first; if the journal stays full, undo or keep what you need ' +
              'and remove the oldest files in that folder (docs/undo.md).',
          }
        : {}),
    },
  ];
  const mode = (await stat(dir)).mode;
  if (mode & 0o077)
    checks.push({
      section: 'journal',
      name: 'journal folder',
      status: 'warn',
      detail: `${dir} is mode ${modeText(mode)}: others on this machine can read what agents changed`,
      fix: `chmod 700 '${dir}'`,
    });
  return checks;
}

async function modeCheck(file: string, wanted: number, what: string): Promise<Check | undefined> {
  const info = await stat(file).catch(() => undefined);
  if (!info) return undefined;
  const wide = (info.mode & 0o777 & ~wanted) !== 0;
  return {
    section: 'files',
    name: what,
    status: wide ? 'warn' : 'ok',
    detail: `${file} is mode ${modeText(info.mode)}`,
    ...(wide ? { fix: `chmod ${wanted.toString(8)} '${file}' (it should be readable by you alone)` } : {}),
  };
}

export async function fileModeChecks(options: DoctorOptions): Promise<Check[]> {
  if ((options.platform ?? process.platform) === 'win32')
    return [
      {
        section: 'files',
        name: 'file modes',
        status: 'skip',
        detail:
          'not checked on Windows: the config, the keys and the clients’ configs are as private as your profile folder’s access rules (ACLs) make them, only you by default',
      },
    ];
  const config = options.configPath
    ? [expandHome(options.configPath, options.home)]
    : configFileCandidates(options.home);
  const folder = folderOf(options);
  const checks = await Promise.all([
    ...config.map((file) => modeCheck(file, 0o600, 'Roam config (holds tokens)')),
    modeCheck(folder, 0o700, 'data folder'),
    modeCheck(path.join(folder, KEYS_FILE), 0o600, 'HTTP keys'),
    modeCheck(path.join(folder, HEADERS_FILE), 0o600, 'Claude Code’s key (its headersHelper reads it)'),
    ...(await clientConfigFiles(options)).map((file) => keyFileCheck(file.path, file.name)),
  ]);
  return checks.filter((check): check is Check => check !== undefined);
}

/** Every client's config and the backup an install keeps beside it: where one of our keys may be. */
async function clientConfigFiles(options: DoctorOptions): Promise<Array<{ path: string; name: string }>> {
  const ctx = {
    home: options.home,
    env: options.env,
    ...(options.platform ? { platform: options.platform } : {}),
  };
  const files = await Promise.all(
    CLIENT_LIST.map(async (spec) => {
      const { configPath } = await spec.locate(ctx);
      return [
        { path: configPath, name: `${spec.name} config` },
        { path: configPath + BACKUP_SUFFIX, name: `${spec.name} config's backup` },
      ];
    }),
  );
  return files.flat();
}

/**
 * A client's config that holds one of our keys must be readable by its owner alone. Checked on
 * every run, not only at install: a client that saves its file by writing a new one and renaming
 * it resets the mode to whatever it makes new files with.
 */
async function keyFileCheck(file: string, what: string): Promise<Check | undefined> {
  const text = await readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined || !OUR_KEY.test(text)) return undefined;
  const { mode } = await stat(file);
  const wide = (mode & 0o077) !== 0;
  return {
    section: 'files',
    name: `${what} (holds a roam-mcp key)`,
    status: wide ? 'warn' : 'ok',
    detail: `${file} is mode ${modeText(mode)}${wide ? ': others on this computer can read the key in it' : ''}`,
    ...(wide ? { fix: `chmod 600 '${file}'` } : {}),
  };
}

const sizeText = (bytes: number) => (bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`);

/**
 * The server's and the tray's log files, by path and size, for a person to read or attach: their
 * lines are not in the report (an error may quote a page title or a block's text).
 */
export async function logChecks(options: DoctorOptions): Promise<Check[]> {
  const folder = folderOf(options);
  const logs = [
    { name: 'server log', file: logFilePath(folder, SERVER_LOG) },
    { name: 'tray log', file: logFilePath(folder, TRAY_LOG) },
  ];
  return Promise.all(
    logs.map(async ({ name, file }): Promise<Check> => {
      const info = await stat(file).catch(() => undefined);
      if (!info) return { section: 'logs', name, status: 'skip', detail: `none yet (${file})` };
      const older = await stat(`${file}.1`).catch(() => undefined);
      const wide = (info.mode & 0o077) !== 0;
      return {
        section: 'logs',
        name,
        status: wide ? 'warn' : 'ok',
        detail: `${file}, ${sizeText(info.size)}${older ? ` (and ${file}.1, ${sizeText(older.size)})` : ''}${wide ? `, mode ${modeText(info.mode)}` : ''}`,
        ...(wide ? { fix: `chmod 600 '${file}' (it should be readable by you alone)` } : {}),
      };
    }),
  );
}
