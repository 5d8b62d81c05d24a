/**
 * No key in a file others can read, and no install that breaks a config, through the built bin:
 * installs of every client and transport into 0644 files in 0755 folders leave no key where the
 * group or others can read it and say when a mode was narrowed (the dry run says it first); a
 * client on PATH that never ran gets its folder and file made as it makes them (a file holding a
 * key 0600); Claude Code is found on PATH; a stdio install over an http entry, and an http one over
 * an http entry, revoke the old key only once the new entry is written (never when the write
 * fails), and Claude Code's asks for stdio, not http, and leaves its old key for the person to
 * revoke; an http reinstall into a read-only file touches no key; a config linked into a git repository gets none; Codex's
 * inline `mcp_servers` table is refused with the file unchanged.
 */
import { chmod, mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { binEnv, runBin } from '../../harness/mcp-bin.ts';
import { removeDir, tempDir } from '../../harness/temp-dir.ts';

let home: string;
/** Where the fake client programs are: the PATH of every run. */
let bin: string;

beforeEach(async () => {
  home = await tempDir('roam-key-privacy-');
  bin = path.join(home, 'bin');
  await mkdir(bin);
});
afterEach(() => removeDir(home));

const roamMcp = (...args: string[]) =>
  runBin(args, {
    env: binEnv(home, { ROAM_COMPANION_DATA_DIR: path.join(home, 'data'), PATH: bin }),
    cwd: home,
  });

/** A client installed from npm: its command on PATH, as an executable script. */
async function onPath(program: string): Promise<void> {
  const file = path.join(bin, program);
  await writeFile(file, '#!/bin/sh\nexit 0\n');
  await chmod(file, 0o755);
}

/** Each client's config on Linux, and how another server looks in it. */
const CLIENT_FILES = {
  'claude-desktop': {
    file: '.config/Claude/claude_desktop_config.json',
    other: '{ "mcpServers": { "other": { "command": "x" } } }\n',
  },
  cursor: { file: '.cursor/mcp.json', other: '{ "mcpServers": { "other": { "command": "x" } } }\n' },
  vscode: {
    file: '.config/Code/User/mcp.json',
    other: '// mine\n{ "servers": { "other": { "command": "x" } } }\n',
  },
  'gemini-cli': {
    file: '.gemini/settings.json',
    other: '{ "mcpServers": { "other": { "command": "x" } } }\n',
  },
  codex: { file: '.codex/config.toml', other: '[mcp_servers.other]\ncommand = "x"\n' },
} as const;
type FileClient = keyof typeof CLIENT_FILES;

/** A config others can read, in a folder others can list: as many people's are. */
async function worldReadable(client: FileClient): Promise<string> {
  const file = path.join(home, CLIENT_FILES[client].file);
  await mkdir(path.dirname(file), { recursive: true, mode: 0o755 });
  await chmod(path.dirname(file), 0o755);
  await writeFile(file, CLIENT_FILES[client].other);
  await chmod(file, 0o644);
  return file;
}

/** Every file under the home holding one of our keys, with its mode. */
async function filesWithKeys(): Promise<Array<{ file: string; mode: number }>> {
  const found: Array<{ file: string; mode: number }> = [];
  for (const name of await readdir(home, { recursive: true })) {
    const file = path.join(home, name);
    const info = await stat(file);
    if (!info.isFile()) continue;
    if (/roam-mcp-key-[A-Za-z0-9_-]{20,}/.test(await readFile(file, 'utf8')))
      found.push({ file, mode: info.mode & 0o777 });
  }
  return found;
}

const modeOf = async (file: string) => (await stat(file)).mode & 0o777;

it('every client and transport into a 0644 file: no key anywhere the group or others can read, and a narrowing is said', async () => {
  const clients = Object.keys(CLIENT_FILES) as FileClient[];
  for (const client of clients) {
    for (const transport of client === 'claude-desktop' ? ['stdio'] : ['http', 'stdio', 'http']) {
      const file = await worldReadable(client);
      const run = await roamMcp('install', client, '--transport', transport);
      expect(run.code, `${client} ${transport}: ${run.stderr}`).toBe(0);
      if (transport === 'http') {
        expect(await modeOf(file)).toBe(0o600);
        expect(run.stderr).toContain(
          'The file holds its key now, so it is mode 600 (it was 644, which let others on this computer read it).',
        );
      } else {
        // No key in it: the person's mode stays.
        expect(await modeOf(file)).toBe(0o644);
        expect(run.stderr).not.toContain('mode 600');
      }
      expect(`${run.stdout}${run.stderr}`).not.toMatch(/roam-mcp-key-[A-Za-z0-9_-]{20,}/);
      const wide = (await filesWithKeys()).filter(({ mode }) => mode & 0o077);
      expect(wide, `${client} ${transport}`).toEqual([]);
    }
  }
  // Each http install's key was written somewhere (the backups hold older ones): all of them 0600.
  const holding = await filesWithKeys();
  expect(holding.length).toBeGreaterThanOrEqual(4);
  expect(holding.every(({ mode }) => mode === 0o600)).toBe(true);
});

it('the dry run says the mode it would narrow, writes nothing; a new file shows + lines and no stray ...', async () => {
  const file = await worldReadable('cursor');
  const before = await readFile(file, 'utf8');
  const dry = await roamMcp('install', 'cursor', '--transport', 'http', '--dry-run');
  expect(dry.code).toBe(0);
  expect(dry.stderr).toContain(
    'Dry run: the file will hold a key, so install would make it mode 600 (it was 644, which let others on this computer read it).',
  );
  expect(await readFile(file, 'utf8')).toBe(before);
  expect(await modeOf(file)).toBe(0o644);

  await mkdir(path.join(home, '.codex'));
  const fresh = await roamMcp('install', 'codex', '--transport', 'stdio', '--dry-run');
  const diff = fresh.stdout.split('\n').slice(2).filter(Boolean);
  expect(diff[0]).toBe('+ [mcp_servers.roam-companion]');
  expect(diff.every((line) => line.startsWith('+ '))).toBe(true);
  expect(fresh.stdout).not.toMatch(/\.\.\.|…/);
});

/** The mode a folder gets when a program makes it without asking for one (as Gemini CLI and Codex do). */
async function umaskDirMode(): Promise<number> {
  const probe = path.join(home, 'probe-dir');
  await mkdir(probe);
  return modeOf(probe);
}

it('Gemini CLI on PATH but never opened: its folder and file made as Gemini makes them, the file 0600 once it holds a key', async () => {
  const refused = await roamMcp('install', 'gemini-cli', '--transport', 'http');
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain(".gemini doesn't exist and `gemini` is not on PATH");
  expect((await roamMcp('key', 'list')).stdout).toMatch(/^No keys\./);

  await onPath('gemini');
  expect((await roamMcp('status')).stdout).toMatch(/^Gemini CLI +not-installed /m);
  const dirMode = await umaskDirMode();
  const dir = path.join(home, '.gemini');
  const settings = path.join(dir, 'settings.json');
  // Over stdio: Gemini's own 0666 less the umask (0644 under umask 022), in a folder the umask decides.
  const stdio = await roamMcp('install', 'gemini-cli', '--transport', 'stdio');
  expect(stdio.code, stdio.stderr).toBe(0);
  expect(await modeOf(dir)).toBe(dirMode);
  expect(await modeOf(settings)).toBe(0o666 & dirMode);
  expect(stdio.stderr).toContain(
    `Made ${dir} (mode ${dirMode.toString(8)}), as Gemini CLI makes it when it first runs.`,
  );
  expect(JSON.parse(await readFile(settings, 'utf8')).mcpServers['roam-companion'].command).toBe(
    process.execPath,
  );

  await removeDir(dir);
  const run = await roamMcp('install', 'gemini-cli', '--transport', 'http');
  expect(run.code, run.stderr).toBe(0);
  expect(await modeOf(dir)).toBe(dirMode);
  expect(await modeOf(settings)).toBe(0o600);
  expect(JSON.parse(await readFile(settings, 'utf8')).mcpServers['roam-companion'].httpUrl).toMatch(
    /^http:\/\/127\.0\.0\.1:\d+\/mcp$/,
  );
});

it('Codex on PATH but never opened: its folder by the umask, its config.toml 0600, as Codex makes them', async () => {
  await onPath('codex');
  const dirMode = await umaskDirMode();
  const run = await roamMcp('install', 'codex', '--transport', 'stdio');
  expect(run.code, run.stderr).toBe(0);
  expect(await modeOf(path.join(home, '.codex'))).toBe(dirMode);
  expect(await modeOf(path.join(home, '.codex', 'config.toml'))).toBe(0o600);
});

it('Claude Code on PATH without ~/.claude.json is found: the command to run, not "not found"', async () => {
  expect((await roamMcp('status')).stdout).toMatch(/^Claude Code +unavailable /m);
  // Not found: an http install makes no key for it.
  const missing = await roamMcp('install', 'claude-code', '--transport', 'http');
  expect(missing.code).toBe(1);
  expect(missing.stderr).toContain('`claude` is not on PATH), so no key was made for it.');
  expect((await roamMcp('key', 'list')).stdout).toMatch(/^No keys\./);
  await onPath('claude');
  expect((await roamMcp('status')).stdout).toMatch(/^Claude Code +not-installed /m);
  const run = await roamMcp('install', 'claude-code', '--transport', 'stdio');
  expect(run.code).toBe(0);
  expect(run.stdout).toMatch(/^claude mcp add --scope user roam-companion -- /);
  expect(run.stderr).not.toContain('not found');
});

it('Claude Code over an http entry, asked for stdio: the stdio command, and the old key works until the person revokes it', async () => {
  const key = (await roamMcp('key', 'create', 'claude-code')).stdout.trim();
  await writeFile(
    path.join(home, '.claude.json'),
    JSON.stringify({
      mcpServers: {
        'roam-companion': {
          type: 'http',
          url: 'http://127.0.0.1:39017/mcp',
          headers: { Authorization: `Bearer ${key}` },
        },
      },
    }),
    { mode: 0o600 },
  );
  const run = await roamMcp('install', 'claude-code', '--transport', 'stdio');
  expect(run.code).toBe(0);
  const [remove, add] = run.stdout.trim().split('\n');
  expect(remove).toBe('claude mcp remove --scope user roam-companion');
  expect(add).toMatch(/^claude mcp add --scope user roam-companion -- /);
  expect(run.stdout).not.toContain('--transport http');
  expect(run.stderr).toContain('an HTTP entry');
  expect(run.stderr).toContain('roam-mcp key revoke claude-code');
  expect((await roamMcp('key', 'list')).stdout).toMatch(/^claude-code\t/m);
});

it('a stdio install over an http entry revokes its key after the write; a write that fails revokes nothing', async () => {
  const file = await worldReadable('cursor');
  expect((await roamMcp('install', 'cursor', '--transport', 'http')).code).toBe(0);
  expect((await roamMcp('key', 'list')).stdout).toMatch(/^cursor\t/m);

  await chmod(file, 0o400);
  const failed = await roamMcp('install', 'cursor', '--transport', 'stdio');
  expect(failed.code).toBe(1);
  expect(failed.stderr).toContain('is read-only');
  // Cursor still holds the http entry, and its key still works.
  expect((await roamMcp('key', 'list')).stdout).toMatch(/^cursor\t/m);

  await chmod(file, 0o600);
  const done = await roamMcp('install', 'cursor', '--transport', 'stdio');
  expect(done.code, done.stderr).toBe(0);
  expect(JSON.parse(await readFile(file, 'utf8')).mcpServers['roam-companion'].command).toBe(
    process.execPath,
  );
  expect((await roamMcp('key', 'list')).stdout).not.toMatch(/^cursor\t/m);
});

it('Codex with mcp_servers as one inline table (the issue’s file): refused with what to change, the file byte for byte', async () => {
  await mkdir(path.join(home, '.codex'));
  const file = path.join(home, '.codex', 'config.toml');
  const text = 'model = "o3"\nmcp_servers = { other = { command = "x" } }\n';
  await writeFile(file, text);
  for (const transport of ['stdio', 'http']) {
    const run = await roamMcp('install', 'codex', '--transport', transport);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      'writes all its servers as one inline table ("mcp_servers = { ... }", line 2)',
    );
    expect(run.stderr).toContain('a line [mcp_servers.other] with its keys on the lines below');
    expect(run.stderr).toContain('The file was left as it was.');
    expect(await readFile(file, 'utf8')).toBe(text);
  }
  // Refused before any key was made.
  expect((await roamMcp('key', 'list')).stdout).toMatch(/^No keys\./);
  // Written as tables, the same servers take ours.
  await writeFile(file, 'model = "o3"\n[mcp_servers.other]\ncommand = "x"\n');
  expect((await roamMcp('install', 'codex', '--transport', 'stdio')).code).toBe(0);
});

it('a config linked into a git repository (dotfiles) gets no key: refused before a key is made; stdio still goes in', async () => {
  const dotfiles = path.join(home, 'dotfiles');
  await mkdir(path.join(dotfiles, '.git'), { recursive: true });
  const tracked = path.join(dotfiles, 'cursor-mcp.json');
  const text = '{ "mcpServers": { "other": { "command": "x" } } }\n';
  await writeFile(tracked, text);
  await mkdir(path.join(home, '.cursor'));
  await symlink(tracked, path.join(home, '.cursor', 'mcp.json'));
  const refused = await roamMcp('install', 'cursor', '--transport', 'http');
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain(
    `(it links to ${tracked}) is inside the git repository ${dotfiles}, where a key would be committed`,
  );
  expect(refused.stderr).toContain('roam-mcp install cursor --transport stdio');
  expect(await readFile(tracked, 'utf8')).toBe(text);
  expect((await roamMcp('key', 'list')).stdout).toMatch(/^No keys\./);
  expect((await roamMcp('install', 'cursor', '--transport', 'stdio')).code).toBe(0);
  expect(JSON.parse(await readFile(tracked, 'utf8')).mcpServers['roam-companion'].command).toBe(
    process.execPath,
  );
});

it('an http reinstall into a file that became read-only fails before its old key is revoked or a new one made', async () => {
  const file = await worldReadable('cursor');
  expect((await roamMcp('install', 'cursor', '--transport', 'http')).code).toBe(0);
  const listed = (await roamMcp('key', 'list')).stdout;
  const held = await readFile(file, 'utf8');
  await chmod(file, 0o400);
  const again = await roamMcp('install', 'cursor', '--transport', 'http');
  expect(again.code).toBe(1);
  expect(again.stderr).toContain('is read-only (mode 400)');
  expect(again.stderr).not.toContain('Made a key');
  // The same key, still stored: the client keeps working as it was.
  expect((await roamMcp('key', 'list')).stdout).toBe(listed);
  expect(await readFile(file, 'utf8')).toBe(held);
});

/** The names in `key list`, one per stored key. */
const keyNames = async () =>
  (await roamMcp('key', 'list')).stdout
    .split('\n')
    .filter((line) => line.includes('\t'))
    .map((line) => line.split('\t')[0]);

const cursorKey = async () =>
  /^Bearer (\S+)$/.exec(
    JSON.parse(await readFile(path.join(home, CLIENT_FILES.cursor.file), 'utf8')).mcpServers['roam-companion']
      .headers.Authorization,
  )?.[1];

it('an http reinstall over an http entry: a write that fails keeps the old key working; one that succeeds revokes it after', async () => {
  await worldReadable('cursor');
  expect((await roamMcp('install', 'cursor', '--transport', 'http')).code).toBe(0);
  const old = await cursorKey();
  // The backup cannot be written (a folder stands where it goes): the write fails after the key is made.
  const backup = `${path.join(home, CLIENT_FILES.cursor.file)}.roam-companion-backup`;
  await removeDir(backup);
  await mkdir(path.join(backup, 'in-the-way'), { recursive: true });
  const failed = await roamMcp('install', 'cursor', '--transport', 'http');
  expect(failed.code).toBe(1);
  expect(failed.stderr).toContain('The file was left as it was.');
  expect(await cursorKey()).toBe(old);
  expect(await keyNames()).toEqual(['cursor']);
  expect((await roamMcp('status')).stdout).toMatch(/^Cursor +installed /m);

  await removeDir(backup);
  const done = await roamMcp('install', 'cursor', '--transport', 'http');
  expect(done.code, done.stderr).toBe(0);
  const now = await cursorKey();
  expect(now).not.toBe(old);
  expect(await keyNames()).toEqual(['cursor']);
  expect((await roamMcp('status')).stdout).toMatch(/^Cursor +installed /m);
  // The old key is gone: an entry still holding it reads as revoked.
  const file = path.join(home, CLIENT_FILES.cursor.file);
  await writeFile(file, (await readFile(file, 'utf8')).replace(now!, old!));
  expect((await roamMcp('status')).stdout).toMatch(/^Cursor +stale /m);
});

it('Claude Code over HTTP again: an entry holding its key keeps it working until the person revokes it; one reading the headers file needs nothing run', async () => {
  await onPath('claude');
  const held = (await roamMcp('key', 'create', 'claude-code')).stdout.trim();
  const claudeJson = path.join(home, '.claude.json');
  const url = 'http://127.0.0.1:39017/mcp';
  await writeFile(
    claudeJson,
    JSON.stringify({
      mcpServers: {
        'roam-companion': { type: 'http', url, headers: { Authorization: `Bearer ${held}` } },
      },
    }),
    { mode: 0o600 },
  );
  const again = await roamMcp('install', 'claude-code', '--transport', 'http');
  expect(again.code, again.stderr).toBe(0);
  expect(again.stdout.trim().split('\n')[0]).toBe('claude mcp remove --scope user roam-companion');
  expect(again.stderr).toContain('an HTTP entry');
  expect(again.stderr).toContain('roam-mcp key revoke claude-code-old');
  expect((await keyNames()).sort()).toEqual(['claude-code', 'claude-code-old']);
  // The entry still holds the old key, which still works.
  expect((await roamMcp('status')).stdout).toMatch(/^Claude Code +installed /m);

  // What the printed command adds: the helper that prints the headers file.
  const quoted = /^claude mcp add-json --scope user roam-companion '(.*)'$/m.exec(again.stdout)![1]!;
  const added = JSON.parse(quoted.replace(/'\\''/g, "'"));
  await writeFile(claudeJson, JSON.stringify({ mcpServers: { 'roam-companion': added } }), { mode: 0o600 });
  expect((await roamMcp('status')).stdout).toMatch(/^Claude Code +installed /m);
  const third = await roamMcp('install', 'claude-code', '--transport', 'http');
  expect(third.code, third.stderr).toBe(0);
  expect(third.stdout).toBe('');
  expect(third.stderr).toContain('there is nothing to run');
  // The key it sent before is revoked; the one it sends now works; the -old key nothing held goes too.
  expect(await keyNames()).toEqual(['claude-code']);
  expect((await roamMcp('status')).stdout).toMatch(/^Claude Code +installed /m);
});
