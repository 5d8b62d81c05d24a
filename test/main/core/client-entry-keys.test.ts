// The key behind a client's entry, as the tray sees and takes it back: the key the entry carries
// (matched by its hash), or for Codex, whose key lives in the person's environment, the one its
// entry stands for at our server. Keys are made by whoever the person used (the built bin's
// `install --transport http` and `key create`), the tray core runs its real `serve --http` child on
// real files, and whether a key still works is asked of that server. No key reaches an answer or event.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TrayCore } from '../../../src-main/core/tray-core.ts';
import type { ClientView } from '../../../src-shared/ipc-contract.ts';
import { binEnv, ROOT, runBin } from '../../harness/mcp-bin.ts';
import { servingUrl, startCore, tempDirs } from '../helpers.ts';

const KEY = /roam-mcp-key-[A-Za-z0-9_-]{20,}/;

let dirs: Awaited<ReturnType<typeof tempDirs>>;
let core: TrayCore;
let events: Array<{ event: string; payload: unknown }>;
let dataDir: string;
let url: string;
/** Every answer the renderer got, to search for keys. */
const answers: unknown[] = [];

beforeAll(async () => {
  dirs = await tempDirs();
  dataDir = path.join(dirs.home, 'data');
  await mkdir(path.join(dirs.home, '.codex'), { recursive: true });
  await mkdir(path.join(dirs.home, '.cursor'), { recursive: true });
  ({ core, events } = startCore(dirs, {
    httpHub: { port: 0 },
    dataDir,
    env: {},
    writeClipboard: () => {},
  }));
  await core.handlers['settings:set']({ confirm: 'never' });
  url = await servingUrl(core);
}, 30_000);

afterAll(async () => {
  await core?.close();
  await dirs?.cleanup();
});

/** The built bin, as the person runs it, on the tray's data folder. */
async function roamMcp(...args: string[]): Promise<string> {
  const run = await runBin(args, {
    env: binEnv(dirs.home, { ROAM_COMPANION_DATA_DIR: dataDir }),
    cwd: ROOT,
  });
  expect(run.code, run.stderr).toBe(0);
  return run.stdout;
}
const newKey = async (name: string, tools?: string) =>
  KEY.exec(await roamMcp('key', 'create', name, ...(tools ? ['--tools', tools] : [])))![0];

/** Whether the tray's server still takes `key`: a chat with it lists its tools. */
async function works(key: string): Promise<boolean> {
  const client = new Client({ name: 'probe', version: '0.0.0' });
  try {
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { Authorization: `Bearer ${key}` } },
      }),
    );
    await client.listTools();
    return true;
  } catch (error) {
    expect(String(error)).toMatch(/401|not valid|Unauthorized/i);
    return false;
  } finally {
    await client.close().catch(() => {});
  }
}

async function row(id: string): Promise<ClientView> {
  const list = await core.handlers['clients:list'](undefined);
  answers.push(list);
  return list.find((c) => c.id === id)!;
}
async function uninstall(id: 'codex' | 'cursor' | 'claude-code') {
  const done = await core.handlers['clients:uninstall']({ id });
  answers.push(done);
  return done;
}
const keyNames = async () => (await core.handlers['keys:list'](undefined)).map((k) => k.name).sort();

it('uninstalling Codex in the tray revokes the key `roam-mcp install codex --transport http` made for it', async () => {
  await roamMcp('install', 'codex', '--transport', 'http');
  const config = path.join(dirs.home, '.codex', 'config.toml');
  // The key is in Codex's own config (http_headers), not printed.
  const key = KEY.exec(await readFile(config, 'utf8'))![0];
  expect(await readFile(config, 'utf8')).toContain(`url = "${url}"`);
  expect(await works(key)).toBe(true);
  expect(await row('codex')).toMatchObject({ state: 'installed', transport: 'http' });
  // Its toolsets are its key's: the key its entry stands for at this server.
  await core.handlers['clients:set-toolsets']({ id: 'codex', toolsets: ['core'] });
  expect(await roamMcp('key', 'list')).toMatch(/^codex\t.*\ttools core$/m);

  await uninstall('codex');
  expect(await readFile(config, 'utf8')).not.toContain('roam-companion');
  expect(await works(key)).toBe(false);
  expect(await keyNames()).not.toContain('codex');
}, 30_000);

it('a Codex entry over stdio takes back no key, even one named codex', async () => {
  const bystander = await newKey('codex');
  // Neither the CLI's stdio install nor the tray's uninstall takes back a key the entry does not hold.
  await roamMcp('install', 'codex', '--transport', 'stdio');
  expect(await works(bystander)).toBe(true);
  await uninstall('codex');
  expect(await works(bystander)).toBe(true);
  await core.handlers['keys:revoke']({ name: 'codex' }); // The next test starts with no key.
}, 30_000);

it('an entry carrying a key made by hand shows that key’s toolsets, and uninstalling revokes that key and no other', async () => {
  const carried = await newKey('laptop-cursor', 'core');
  // A key of the client's own name that this entry does not carry (another machine's Cursor).
  const other = await newKey('cursor', 'core,navigation');
  const file = path.join(dirs.home, '.cursor', 'mcp.json');
  const entry = { url, headers: { Authorization: `Bearer ${carried}` } };
  await writeFile(file, JSON.stringify({ mcpServers: { 'roam-companion': entry, other: { command: 'x' } } }));
  expect(await row('cursor')).toMatchObject({ state: 'installed', transport: 'http', toolsets: ['core'] });

  await uninstall('cursor');
  expect(JSON.parse(await readFile(file, 'utf8')).mcpServers).toEqual({ other: { command: 'x' } });
  expect(await works(carried)).toBe(false);
  expect(await works(other)).toBe(true);
  expect(await keyNames()).toEqual(['cursor']);
  await core.handlers['keys:revoke']({ name: 'cursor' }); // The next test starts with no key.
}, 30_000);

it('Claude Code is judged by the key its entry carries, never by a key’s name', async () => {
  const config = path.join(dirs.home, '.claude.json');
  const carrying = (key: string) =>
    writeFile(
      config,
      JSON.stringify({
        mcpServers: { 'roam-companion': { type: 'http', url, headers: { Authorization: `Bearer ${key}` } } },
      }),
    );

  // A live key of another name, made by hand: it works, so Claude Code is connected, with its toolsets.
  const mine = await newKey('claude-laptop', 'core,navigation');
  await carrying(mine);
  expect(await row('claude-code')).toMatchObject({
    state: 'installed',
    transport: 'http',
    toolsets: ['core', 'navigation'],
  });

  // Revoked and made again under the same name: the entry still holds the dead key.
  await roamMcp('key', 'revoke', 'claude-laptop');
  const remade = await newKey('claude-laptop', 'core,navigation');
  expect(await works(mine)).toBe(false);
  const stale = await row('claude-code');
  expect(stale).toMatchObject({ state: 'stale', transport: 'http' });
  expect(stale.toolsets).toBeUndefined();
  expect(stale.message).toMatch(/revoked or replaced/);

  // Hand-edited to a dead key while a key named claude-code is alive: still not installed.
  const named = await newKey('claude-code', 'core');
  await carrying('roam-mcp-key-aDeadKeyNobodyMadeForThisEntryAAAAAAAAAAAA');
  const edited = await row('claude-code');
  expect(edited).toMatchObject({ state: 'stale', transport: 'http' });
  expect(edited.toolsets).toBeUndefined();

  // Its toolsets cannot be changed through a key it does not carry.
  await expect(
    core.handlers['clients:set-toolsets']({ id: 'claude-code', toolsets: ['core', 'ui'] }),
  ).rejects.toThrow(/is not connected/);
  expect(await roamMcp('key', 'list')).toMatch(/^claude-code\t.*\ttools core$/m);

  // Uninstalling takes back the key the entry carries (here the one made again) ...
  await carrying(remade);
  expect(await row('claude-code')).toMatchObject({ state: 'installed' });
  await uninstall('claude-code');
  expect(await works(remade)).toBe(false);
  // ... and the key the tray copies with its command (it made that one for Claude Code's command).
  expect(await works(named)).toBe(false);

  expect(JSON.stringify(answers)).not.toMatch(KEY);
  expect(JSON.stringify(events)).not.toMatch(KEY);
}, 60_000);
