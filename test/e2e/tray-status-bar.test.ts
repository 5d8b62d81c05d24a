/**
 * The status bar counts every chat connected, HTTP ones too (docs/tray.md): the preview runs the
 * real tray core with its HTTP server against the emulator; real SDK clients connect over HTTP
 * with the key the tray gave Cursor, one of them with a change waiting for the person; an
 * `--mcp` session is a live process's file in the store's sessions folder. Debian's Chromium at
 * 420 and 1000 px, light and dark, axe-core on the way.
 */
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readUrlFile } from '../../src-mcp/data-folder/index.ts';
import { registerSession } from '../../src-main/core/clients/mcp-sessions.ts';
import { previewDataDir } from '../../src-main/preview/preview-data-dir.ts';
import { waitFor } from '../main/helpers.ts';
import { violationsEverywhere } from './axe.ts';
import { poll } from './poll.ts';
import { startTrayWorld, type TrayWorld } from './tray-world.ts';

let world: TrayWorld;
let url: string;
let key: string;
const chats: Array<{ client: Client; transport: StreamableHTTPClientTransport }> = [];

async function connect(): Promise<(typeof chats)[number]> {
  const client = new Client({ name: 'Cursor', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  const chat = { client, transport };
  chats.push(chat);
  return chat;
}

beforeAll(async () => {
  world = await startTrayWorld({
    prefix: 'tray-status-bar-',
    graphs: [
      {
        name: 'journal',
        content: [
          { title: 'Old notes', uid: 'old-notes', children: [{ string: 'a note', uid: 'old-note1' }] },
        ],
      },
    ],
    preview: { httpHub: { port: 0 }, env: {} },
  });
  world.emulator.autoDecide({ kind: 'approve' });
  const { core } = world.preview;
  await core.handlers['graphs:add']({ name: 'journal', nickname: 'Journal', accessLevel: 'full' });
  ({ url } = await waitFor(() =>
    readUrlFile({ env: { ROAM_COMPANION_DATA_DIR: previewDataDir(world.home) } }),
  ));
  await mkdir(path.join(world.home, '.cursor'), { recursive: true });
  await core.handlers['clients:install']({ id: 'cursor' });
  const entry = JSON.parse(await readFile(path.join(world.home, '.cursor', 'mcp.json'), 'utf8')).mcpServers[
    'roam-companion'
  ];
  key = /^Bearer (\S+)$/.exec(entry.headers.Authorization)![1]!;
}, 60_000);

afterAll(async () => {
  for (const { client } of chats) await client.close().catch(() => {});
  await world?.close();
});

const sessions = () =>
  world.page.getByRole('contentinfo', { name: 'Status' }).getByText(/MCP sessions? connected/);

describe.sequential('The status bar', () => {
  it('counts HTTP chats, one of them with a change waiting for the person', async () => {
    await poll(() => sessions().innerText()).toBe('0 MCP sessions connected');
    const first = await connect();
    await connect();
    await first.client.callTool({ name: 'select_graph', arguments: { graph: 'Journal' } });
    // Asked for, not done: the change waits in the tray while the chat stays connected.
    void first.client.callTool({ name: 'delete_page', arguments: { uid: 'old-notes' } }).catch(() => {});
    await world.page.getByRole('region', { name: /waits? for your answer/ }).waitFor();
    await poll(() => sessions().innerText()).toBe('2 MCP sessions connected (over HTTP)');
    expect(await violationsEverywhere(world.page)).toEqual([]);
  });

  it('counts an --mcp session beside them, and a chat that ends no longer', async () => {
    const unregister = await registerSession(path.join(world.home, '.roam-companion'));
    await poll(() => sessions().innerText()).toBe('3 MCP sessions connected (2 over HTTP)');
    const [, second] = chats;
    await second!.transport.terminateSession();
    await poll(() => sessions().innerText()).toBe('2 MCP sessions connected (1 over HTTP)');
    await unregister();
    await poll(() => sessions().innerText()).toBe('1 MCP session connected (over HTTP)');
    // The tray's own menu reads the same count.
    expect((await world.preview.core.handlers['status:get'](undefined)).mcpSessions).toBe(1);
  });
});
