// The AI clients screen's view of a client connected over the tray's HTTP server, with nothing
// faked: the real tray core, its real `roam-mcp serve --http` child and real SDK clients with the
// keys the installs wrote. An HTTP entry has no `--tools`: its toolsets are its key's, and so is
// the tool count its chats are served; a new choice changes the key and not one byte of the
// config; a revoked key is no connection; a stdio entry of ours is installed over stdio.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { toIpcError } from '../../../src-main/core/core-error.ts';
import type { TrayCore } from '../../../src-main/core/tray-core.ts';
import type { ClientView } from '../../../src-shared/ipc-contract.ts';
import { servedToolCount } from '../../../src-shared/toolsets.ts';
import { startEmulator, type Emulator } from '../../emulator/index.ts';
import { mcpBundle, servingUrl, startCore, tempDirs } from '../helpers.ts';

let dirs: Awaited<ReturnType<typeof tempDirs>>;
let emulator: Emulator;
let core: TrayCore;
let url: string;
const cursorFile = () => path.join(dirs.home, '.cursor', 'mcp.json');

beforeAll(async () => {
  dirs = await tempDirs();
  emulator = await startEmulator({ home: dirs.home, graphs: [{ name: 'hub-graph', content: 'demo' }] });
  ({ core } = startCore(dirs, { httpHub: { port: 0 }, dataDir: path.join(dirs.home, 'data'), env: {} }));
  await mkdir(path.join(dirs.home, '.cursor'), { recursive: true });
  await mkdir(path.join(dirs.home, '.config', 'Code', 'User'), { recursive: true });
  url = await servingUrl(core);
}, 60_000);

afterAll(async () => {
  await core?.close();
  await emulator?.close();
  await dirs?.cleanup();
});

const listed = async (id: string): Promise<ClientView> =>
  (await core.handlers['clients:list'](undefined)).find((c) => c.id === id)!;

/** The number of tools a new chat with Cursor's key is served. */
async function toolsServed(): Promise<number> {
  const entry = JSON.parse(await readFile(cursorFile(), 'utf8')).mcpServers['roam-companion'];
  const client = new Client({ name: 'cursor', version: '0.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(entry.url), {
      requestInit: { headers: { Authorization: entry.headers.Authorization } },
    }),
  );
  try {
    return (await client.listTools()).tools.length;
  } finally {
    await client.close();
  }
}

it('an HTTP install shows its key’s toolsets, and the count the tray shows is what its chats are served', async () => {
  const { client } = await core.handlers['clients:install']({
    id: 'cursor',
    toolsets: ['core', 'navigation'],
  });
  expect(client).toMatchObject({ state: 'installed', transport: 'http', toolsets: ['core', 'navigation'] });
  expect(await listed('cursor')).toMatchObject({ transport: 'http', toolsets: ['core', 'navigation'] });
  expect(JSON.parse(await readFile(cursorFile(), 'utf8')).mcpServers['roam-companion'].url).toBe(url);
  // Roam here offers no semantic search: the probed tool stays out, as the tray's count says.
  expect(await toolsServed()).toBe(servedToolCount(['core', 'navigation']).always);
  expect(servedToolCount(['core', 'navigation']).always).toBe(38);
});

it('a new choice changes the key’s toolsets, not the config; new chats get them', async () => {
  const before = await readFile(cursorFile(), 'utf8');
  const view = await core.handlers['clients:set-toolsets']({
    id: 'cursor',
    toolsets: ['core', 'navigation', 'ui'],
  });
  expect(view).toMatchObject({
    state: 'installed',
    transport: 'http',
    toolsets: ['core', 'navigation', 'ui'],
  });
  expect(await readFile(cursorFile(), 'utf8')).toBe(before);
  // Each key says which client uses it: the one whose entry carries it.
  expect(await core.handlers['keys:list'](undefined)).toEqual([
    expect.objectContaining({ name: 'cursor', usedBy: ['Cursor'] }),
  ]);
  expect(await toolsServed()).toBe(servedToolCount(['core', 'navigation', 'ui']).always);
});

it('a revoked key’s client is not installed, and says how to connect it again', async () => {
  await core.handlers['keys:revoke']({ name: 'cursor' });
  const cursor = await listed('cursor');
  expect(cursor).toMatchObject({ state: 'stale', transport: 'http' });
  expect(cursor.message).toBe(
    'Its key was revoked or replaced by a newer one, so Cursor is refused: update it to give it a new key.',
  );
  const refused = await core.handlers['clients:set-toolsets']({ id: 'cursor', toolsets: ['core'] }).catch(
    (e: unknown) => e,
  );
  expect(toIpcError(refused).message).toMatch(/is not connected to the tray's HTTP server/);
  // Updating gives it a new key, which serves.
  expect((await core.handlers['clients:install']({ id: 'cursor' })).client).toMatchObject({
    state: 'installed',
    transport: 'http',
  });
  expect(await toolsServed()).toBeGreaterThan(0);
});

it('a stdio entry of ours is installed over stdio, its toolsets its own, and can switch to HTTP', async () => {
  const file = path.join(dirs.home, '.config', 'Code', 'User', 'mcp.json');
  const preview = await core.handlers['clients:preview']({ id: 'vscode', action: 'install' });
  expect(preview.after).toContain(url);
  // The entry a stdio install writes for this copy (the core's launcher: node and the bundle).
  const stdio = { type: 'stdio', command: process.execPath, args: [mcpBundle, '--tools', 'core'] };
  await writeFile(file, JSON.stringify({ servers: { 'roam-companion': stdio } }));
  const vscode = await listed('vscode');
  expect(vscode).toMatchObject({
    state: 'installed',
    transport: 'stdio',
    canSwitchToHttp: true,
    toolsets: ['core'],
  });
  expect(vscode.message).toMatch(/^Connected over stdio: each chat starts its own roam-mcp\./);
  const { client } = await core.handlers['clients:install']({ id: 'vscode', toolsets: ['core'] });
  expect(client).toMatchObject({ state: 'installed', transport: 'http', toolsets: ['core'] });
  expect(client.canSwitchToHttp).toBeUndefined();
});

it('a reinstall keeps the old key working until the new entry holds the new one; a write that fails keeps it', async () => {
  await core.handlers['clients:install']({ id: 'cursor' });
  const keyOf = async () =>
    JSON.parse(await readFile(cursorFile(), 'utf8')).mcpServers['roam-companion'].headers
      .Authorization as string;
  const old = await keyOf();
  const cursorKeys = async () =>
    (await core.handlers['keys:list'](undefined)).map((k) => k.name).filter((n) => n.startsWith('cursor'));
  // The backup cannot be written (a folder stands where it goes): the write fails after the new key is made.
  const backup = `${cursorFile()}.roam-companion-backup`;
  await rm(backup, { recursive: true, force: true });
  await mkdir(path.join(backup, 'in-the-way'), { recursive: true });
  const failed = await core.handlers['clients:install']({ id: 'cursor' }).catch((e: unknown) =>
    toIpcError(e),
  );
  expect(failed).toMatchObject({ message: expect.any(String) });
  expect(await keyOf()).toBe(old);
  expect(await toolsServed()).toBeGreaterThan(0);
  expect(await cursorKeys()).toEqual(['cursor']);

  await rm(backup, { recursive: true, force: true });
  await core.handlers['clients:install']({ id: 'cursor' });
  expect(await keyOf()).not.toBe(old);
  expect(await toolsServed()).toBeGreaterThan(0);
  expect(await cursorKeys()).toEqual(['cursor']);
  // The old key is revoked now that the entry holds the new one.
  const entry = JSON.parse(await readFile(cursorFile(), 'utf8'));
  entry.mcpServers['roam-companion'].headers.Authorization = old;
  await writeFile(cursorFile(), JSON.stringify(entry));
  await expect(toolsServed()).rejects.toThrow();
});
