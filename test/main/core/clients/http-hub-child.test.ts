// The tray runs the HTTP server every HTTP client connects to, with nothing faked: the tray core
// starts the real `roam-mcp serve --http` as its child with the store's graphs over IPC; installing
// Cursor writes the server's URL and a key of Cursor's own into Cursor's config (never into what
// the renderer sees); a real SDK client with that key uses the tray's graph; revoking the key in
// the tray stops it at its next request; closing the tray stops the server.
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { restartDelayMs } from '../../../../src-main/core/clients/http-hub-child.ts';
import type { TrayCore } from '../../../../src-main/core/tray-core.ts';
import { readUrlFile } from '../../../../src-mcp/data-folder/index.ts';
import { readAtLoginFile } from '../../../../src-mcp/data-folder/url-file.ts';
import { startEmulator, type Emulator } from '../../../emulator/index.ts';
import { nextEvent, servingUrl, startCore, tempDirs, waitFor } from '../../helpers.ts';

let dirs: Awaited<ReturnType<typeof tempDirs>>;
let emulator: Emulator;
let core: TrayCore;
let events: Array<{ event: string; payload: unknown }>;
let dataDir: string;

const KEY = /roam-mcp-key-[A-Za-z0-9_-]{20,}/;
const served = () => readUrlFile({ env: { ROAM_COMPANION_DATA_DIR: dataDir } });
const atLogin = () => readAtLoginFile({ env: { ROAM_COMPANION_DATA_DIR: dataDir } });

beforeAll(async () => {
  dirs = await tempDirs();
  dataDir = path.join(dirs.home, 'data');
  emulator = await startEmulator({ home: dirs.home, graphs: [{ name: 'hub-graph', content: 'demo' }] });
  emulator.autoDecide({ kind: 'approve' });
  ({ core, events } = startCore(dirs, { httpHub: { port: 0 }, dataDir, env: {} }));
  await core.handlers['graphs:add']({ name: 'hub-graph', nickname: 'Hub', accessLevel: 'full' });
  await mkdir(path.join(dirs.home, '.cursor'), { recursive: true });
}, 60_000);

afterAll(async () => {
  await core?.close();
  await emulator?.close();
  await dirs?.cleanup();
});

function cursorKey(config: string): string {
  const entry = JSON.parse(config).mcpServers['roam-companion'];
  return /^Bearer (\S+)$/.exec(entry.headers.Authorization)![1]!;
}

async function connect(url: string, key: string): Promise<Client> {
  const client = new Client({ name: 'tray-http', version: '0.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    }),
  );
  return client;
}

it('installing Cursor points it at the tray’s server with its own key; the key serves the tray’s graph until revoked', async () => {
  const { url } = await waitFor(served);
  const view = await core.handlers['clients:install']({ id: 'cursor' });
  expect(view.client.state).toBe('installed');
  const entry = JSON.parse(await readFile(path.join(dirs.home, '.cursor', 'mcp.json'), 'utf8')).mcpServers[
    'roam-companion'
  ];
  expect(entry.url).toBe(url);
  const key = cursorKey(JSON.stringify({ mcpServers: { 'roam-companion': entry } }));
  expect(key).toMatch(KEY);

  const client = await connect(url, key);
  const graphs = await client.callTool({ name: 'list_graphs', arguments: {} });
  expect(JSON.stringify(graphs)).toContain('Hub');
  expect(
    (await client.callTool({ name: 'select_graph', arguments: { graph: 'Hub' } })).isError ?? false,
  ).toBe(false);

  expect((await core.handlers['keys:list'](undefined)).map((k) => k.name)).toEqual(['cursor']);
  expect(await core.handlers['keys:revoke']({ name: 'cursor' })).toEqual([]);
  await expect(client.callTool({ name: 'list_graphs', arguments: {} })).rejects.toThrow(/401|not valid/);
  await client.close().catch(() => {});

  // Nothing the renderer received holds a key.
  expect(JSON.stringify(view)).not.toMatch(KEY);
  expect(JSON.stringify(events)).not.toMatch(KEY);
  expect(JSON.stringify(await core.handlers['clients:list'](undefined))).not.toMatch(KEY);
  const preview = await core.handlers['clients:preview']({ id: 'vscode', action: 'install' }).catch(
    (e: Error) => e,
  );
  expect(JSON.stringify(preview)).not.toMatch(KEY);
});

it('revoking a key that is not there says so', async () => {
  await expect(core.handlers['keys:revoke']({ name: 'nobody' })).rejects.toThrow(/no key named 'nobody'/);
});

it('a server killed under the tray comes back at the same URL, and the status says so on the way', async () => {
  const before = (await waitFor(served))!;
  const serving = { state: 'serving', url: before.url };
  await waitFor(async () =>
    (await core.handlers['status:get'](undefined)).http?.state === 'serving' ? true : undefined,
  );
  expect((await core.handlers['status:get'](undefined)).http).toEqual(serving);
  await core.handlers['clients:install']({ id: 'cursor' });
  const key = cursorKey(await readFile(path.join(dirs.home, '.cursor', 'mcp.json'), 'utf8'));

  const restarting = nextEvent(core, 'status:changed', (s) => s.http?.state === 'restarting');
  const back = nextEvent(core, 'status:changed', (s) => s.http?.state === 'serving', 20_000);
  process.kill(before.pid, 'SIGKILL');
  await restarting;
  expect((await back).http).toEqual(serving);

  const after = (await served())!;
  expect(after.pid).not.toBe(before.pid);
  expect(after.url).toBe(before.url);
  const client = await connect(after.url, key);
  expect(JSON.stringify(await client.callTool({ name: 'list_graphs', arguments: {} }))).toContain('Hub');
  await client.close();
}, 30_000);

it('while the tray opens at login, its address stays noted for installs made while it is closed', async () => {
  // Noted once the tray knows it serves (its status), not merely once the child wrote its URL file.
  const url = await servingUrl(core);
  expect(await atLogin()).toBeUndefined();
  await core.handlers['settings:set']({ launchAtLogin: true });
  expect(await atLogin()).toBe(url);
  await core.handlers['settings:set']({ launchAtLogin: false });
  expect(await atLogin()).toBeUndefined();
  await core.handlers['settings:set']({ launchAtLogin: true });
  expect(await atLogin()).toBe(url);
});

it('closing the tray stops its server, and nothing restarts it', async () => {
  const { pid, url } = (await served())!;
  const states: Array<string | undefined> = [];
  core.on('status:changed', (s) => states.push(s.http?.state));
  await core.close();
  expect(await served()).toBeUndefined();
  // It opens at login: an install made now still points the client at it.
  expect(await atLogin()).toBe(url);
  expect(() => process.kill(pid, 0)).toThrow();
  await waitFor(() => (states.includes('stopped') ? true : undefined));
  expect(states).not.toContain('restarting');
});

it('waits longer after each crash in a row, never more than 30 s', () => {
  expect([0, 1, 2, 5, 6, 60].map(restartDelayMs)).toEqual([500, 1000, 2000, 16_000, 30_000, 30_000]);
});
