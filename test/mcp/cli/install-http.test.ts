/**
 * `roam-mcp install <client> --transport http` through the built bin, against a running
 * `roam-mcp serve --http`: the entry points the client at the server with a key of its own,
 * written only into its config (0600 kept) — never on stdout or stderr; the key works, a
 * reinstall replaces it (the old one is refused), uninstall revokes it; Claude Desktop stays
 * stdio; a dry run makes no key.
 */
import { execSync } from 'node:child_process';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { jsonOf } from '../../harness/mcp-bin.ts';
import { toolCount } from '../../../src-shared/toolsets.ts';
import { startHttpWorld, type HttpWorld } from '../../harness/http-world.ts';

let world: HttpWorld;
const said: string[] = [];

const cursorFile = () => path.join(world.home, '.cursor', 'mcp.json');
const vscodeFile = () => path.join(world.home, '.config', 'Code', 'User', 'mcp.json');

beforeAll(async () => {
  world = await startHttpWorld({
    keys: {},
  });
  await mkdir(path.join(world.home, '.cursor'), { recursive: true });
  await writeFile(cursorFile(), '{ "mcpServers": { "other": { "command": "other" } } }\n', { mode: 0o640 });
  await mkdir(path.dirname(vscodeFile()), { recursive: true });
}, 60_000);

afterAll(async () => {
  await world?.close();
});

async function roamMcp(...args: string[]) {
  const run = await world.bin(args);
  said.push(run.stdout, run.stderr);
  return run;
}

const keyIn = async (file: string, field = 'mcpServers') => {
  const entry = JSON.parse(await readFile(file, 'utf8'))[field]['roam-companion'];
  return { entry, key: /^Bearer (roam-mcp-key-\S+)$/.exec(entry?.headers?.Authorization ?? '')?.[1] };
};

it('a running server makes http the default: the entry has the URL and a key of its own, and the key works', async () => {
  const installed = await roamMcp('install', 'cursor');
  expect(installed.code).toBe(0);
  const { entry, key } = await keyIn(cursorFile());
  expect(entry).toEqual({ url: world.url, headers: { Authorization: `Bearer ${key}` } });
  expect(key).toBeDefined();
  // The file holds a key now: the group's read bit goes, and the install says so.
  expect((await stat(cursorFile())).mode & 0o777).toBe(0o600);
  expect(installed.stderr).toContain(
    'so it is mode 600 (it was 640, which let others on this computer read it)',
  );
  expect(JSON.parse(await readFile(cursorFile(), 'utf8')).mcpServers.other).toEqual({ command: 'other' });
  expect(`${installed.stdout}${installed.stderr}`).not.toContain(key!);
  // Cursor works poorly past about 40 tools: its key carries the toolsets that fit.
  expect(installed.stderr).toContain('its key gets the toolsets core,navigation');
  const client = await world.connect({ era: 'v1', key: key! });
  jsonOf(await client.call('list_graphs'));
  const listed = (await client.listTools()).tools.map((t) => t.name);
  // Every tool of those sets but the probed semantic_search, and none of the files set.
  expect(listed).toHaveLength(toolCount(['core', 'navigation']) - 1);
  expect(listed).not.toContain('file_upload');
  await client.close();
  expect((await roamMcp('key', 'list')).stdout).toMatch(/^cursor\t.*\ttools core,navigation$/m);
});

it('a reinstall replaces the key (the old one is refused); uninstall revokes it', async () => {
  const { key: old } = await keyIn(cursorFile());
  expect((await roamMcp('install', 'cursor', '--transport', 'http')).code).toBe(0);
  const { key: now } = await keyIn(cursorFile());
  expect(now).not.toBe(old);
  await expect(world.connect({ era: 'v1', key: old! })).rejects.toThrow(/401|not valid/);
  expect((await roamMcp('uninstall', 'cursor')).code).toBe(0);
  expect(JSON.parse(await readFile(cursorFile(), 'utf8')).mcpServers['roam-companion']).toBeUndefined();
  await expect(world.connect({ era: 'v2', key: now! })).rejects.toThrow(/401|not valid/);
});

it('uninstall revokes the key the entry holds, whoever made it, and leaves a key that only shares the client’s name', async () => {
  // Keys made by hand print once, by design: not among what the installs said.
  const mine = (await world.bin(['key', 'create', 'made-by-hand'])).stdout.trim();
  const named = (await world.bin(['key', 'create', 'cursor'])).stdout.trim();
  await writeFile(
    cursorFile(),
    JSON.stringify({
      mcpServers: { 'roam-companion': { url: world.url, headers: { Authorization: `Bearer ${mine}` } } },
    }),
  );
  expect((await roamMcp('uninstall', 'cursor')).code).toBe(0);
  await expect(world.connect({ era: 'v1', key: mine })).rejects.toThrow(/401|not valid/);
  const unrelated = await world.connect({ era: 'v1', key: named });
  jsonOf(await unrelated.call('list_graphs'));
  await unrelated.close();
  expect((await roamMcp('key', 'revoke', 'cursor')).code).toBe(0);
});

it('VS Code gets a type http entry; Claude Desktop keeps stdio and says why', async () => {
  expect((await roamMcp('install', 'vscode', '--transport', 'http')).code).toBe(0);
  const { entry, key } = await keyIn(vscodeFile(), 'servers');
  expect(entry).toEqual({ type: 'http', url: world.url, headers: { Authorization: `Bearer ${key}` } });
  await mkdir(path.join(world.home, '.config', 'Claude'), { recursive: true });
  const desktop = await roamMcp('install', 'claude-desktop', '--transport', 'http');
  expect(desktop.code).toBe(1);
  expect(desktop.stderr).toContain('keeps stdio');
});

it('--transport stdio replaces an http entry with a launcher; a dry run back to http makes no key', async () => {
  expect((await roamMcp('install', 'cursor', '--transport', 'http')).code).toBe(0);
  expect((await roamMcp('install', 'cursor', '--transport', 'stdio')).code).toBe(0);
  const { entry } = await keyIn(cursorFile());
  expect(entry.command).toBeDefined();
  expect(entry.url).toBeUndefined();
  expect(entry.headers).toBeUndefined();
  const keysBefore = (await roamMcp('key', 'list')).stdout;
  const dry = await roamMcp('install', 'cursor', '--transport', 'http', '--dry-run');
  expect(dry.code).toBe(0);
  expect(dry.stdout).toContain('"Authorization":"<hidden>"');
  expect((await roamMcp('key', 'list')).stdout).toBe(keysBefore);
  expect((await keyIn(cursorFile())).entry).toEqual(entry);
});

it('status calls an http entry with a live key installed (its transport and key’s toolsets), and a revoked key’s entry stale, saying so', async () => {
  expect((await roamMcp('install', 'cursor', '--transport', 'http')).code).toBe(0);
  const status = await roamMcp('status');
  expect(status.stdout).toMatch(/^Cursor +installed /m);
  expect(status.stdout).not.toMatch(/launches|Reinstall/);
  const views = JSON.parse((await roamMcp('status', '--json')).stdout) as Array<Record<string, unknown>>;
  expect(views.find((v) => v.id === 'cursor')).toMatchObject({
    state: 'installed',
    transport: 'http',
    toolsets: ['core', 'navigation'],
  });
  // `install` without a client lists the same.
  expect((await roamMcp('install')).stdout).toMatch(/^Cursor +installed /m);

  expect((await roamMcp('key', 'revoke', 'cursor')).code).toBe(0);
  const revoked = await roamMcp('status');
  expect(revoked.stdout).toMatch(/^Cursor +stale /m);
  expect(revoked.stdout).toContain(
    'Its key was revoked or replaced by a newer one, so the server refuses Cursor.',
  );
  expect(revoked.stdout).toContain('roam-mcp install cursor --transport http');
});

const claudeState = () => path.join(world.home, '.claude.json');
/** What `claude mcp add` writes for the command we printed (Claude Code's own file, user scope). */
async function claudeAdds(command: string): Promise<void> {
  const json = /^claude mcp add-json --scope user roam-companion '(.+)'$/.exec(command)?.[1];
  const entry = json
    ? JSON.parse(json.replace(/'\\''/g, "'"))
    : {
        type: 'stdio',
        command: process.execPath,
        args: command.split(' -- ')[1]!.split(' ').slice(1),
        env: {},
      };
  await writeFile(claudeState(), JSON.stringify({ numStartups: 1, mcpServers: { 'roam-companion': entry } }));
}

it('Claude Code: an http install over a stdio entry prints remove-then-add; over HTTP it is installed and never told to remove itself or go stdio', async () => {
  const stdio = await roamMcp('install', 'claude-code', '--transport', 'stdio');
  await claudeAdds(stdio.stdout.trim());
  expect((await roamMcp('status')).stdout).toMatch(/^Claude Code +installed /m);

  const http = await roamMcp('install', 'claude-code', '--transport', 'http');
  expect(http.code).toBe(0);
  const [remove, add, ...rest] = http.stdout.trim().split('\n');
  expect(remove).toBe('claude mcp remove --scope user roam-companion');
  expect(add).toMatch(
    /^claude mcp add-json --scope user roam-companion '\{"type":"http","url":"[^"]+","headersHelper":"cat '/,
  );
  expect(rest).toEqual([]);
  expect(http.stderr).toContain('must go first');
  // The key is in no command line, no output and not in ~/.claude.json: in a 0600 file the helper prints.
  expect(http.stdout).not.toContain('roam-mcp-key-');
  const helper = JSON.parse(/'(\{.+\})'$/.exec(add!)![1]!.replace(/'\\''/g, "'")).headersHelper as string;
  const printed = execSync(helper, { shell: '/bin/sh' }).toString('utf8');
  const headersFile = /^cat '(.+)'$/.exec(helper)![1]!;
  expect((await stat(headersFile)).mode & 0o777).toBe(0o600);
  const key = /^Bearer (roam-mcp-key-\S+)$/.exec(JSON.parse(printed).Authorization)![1]!;
  const client = await world.connect({ era: 'v1', key });
  jsonOf(await client.call('list_graphs'));
  await client.close();

  await claudeAdds(add!);
  expect(await readFile(claudeState(), 'utf8')).not.toContain('roam-mcp-key-');
  const status = await roamMcp('status');
  expect(status.stdout).toMatch(/^Claude Code +installed /m);
  const claudeLines = status.stdout.split(/\n(?=\S)/).find((block) => block.startsWith('Claude Code'))!;
  expect(claudeLines).toContain('over HTTP');
  expect(claudeLines).not.toContain(' -- '); // no stdio launcher command
  expect(claudeLines).not.toMatch(/First run/);

  expect((await roamMcp('key', 'revoke', 'claude-code')).code).toBe(0);
  const stale = (await roamMcp('status')).stdout.split(/\n(?=\S)/).find((b) => b.startsWith('Claude Code'))!;
  expect(stale).toMatch(/^Claude Code +stale /);
  expect(stale).toContain(
    'First run: claude mcp remove --scope user roam-companion, then: roam-mcp install claude-code --transport http',
  );
  expect(stale).not.toContain(' -- ');
});

it('Gemini CLI gets httpUrl with its key in a header; Codex the URL and its key in http_headers, in a 0600 file, never on stdout; both keys work', async () => {
  await mkdir(path.join(world.home, '.gemini'), { recursive: true });
  expect((await roamMcp('install', 'gemini-cli', '--transport', 'http')).code).toBe(0);
  const gemini = JSON.parse(await readFile(path.join(world.home, '.gemini', 'settings.json'), 'utf8'))
    .mcpServers['roam-companion'];
  const geminiKey = /^Bearer (\S+)$/.exec(gemini.headers.Authorization)![1]!;
  expect(gemini).toEqual({ httpUrl: world.url, headers: { Authorization: `Bearer ${geminiKey}` } });

  await mkdir(path.join(world.home, '.codex'), { recursive: true });
  const codex = await roamMcp('install', 'codex', '--transport', 'http');
  expect(codex.code).toBe(0);
  const tomlFile = path.join(world.home, '.codex', 'config.toml');
  const toml = await readFile(tomlFile, 'utf8');
  const codexKey = /^http_headers = \{ Authorization = "Bearer (roam-mcp-key-[^"]+)" \}$/m.exec(toml)?.[1];
  expect(toml).toBe(
    `[mcp_servers.roam-companion]\nurl = "${world.url}"\nhttp_headers = { Authorization = "Bearer ${codexKey}" }\n`,
  );
  expect((await stat(tomlFile)).mode & 0o777).toBe(0o600);
  // No line to put in a shell profile: the key is in no output at all.
  expect(codex.stdout).toBe('');
  expect(codex.stderr).not.toMatch(/export|profile|ROAM_MCP_KEY/);

  for (const key of [geminiKey, codexKey!]) {
    const client = await world.connect({ era: 'v1', key });
    jsonOf(await client.call('list_graphs'));
    await client.close();
  }
  const status = (await roamMcp('status')).stdout;
  expect(status).toMatch(/^Gemini CLI +installed /m);
  expect(status).toMatch(/^Codex +installed /m);
});

it('no key was ever printed', async () => {
  // Not even Claude Code's command carries its key any more.
  expect(said.join('\n')).not.toMatch(/roam-mcp-key-(?!made-on-install)[A-Za-z0-9_-]{20,}/);
  expect(world.transcript()).not.toMatch(/roam-mcp-key-[A-Za-z0-9_-]{20,}/);
});
