/**
 * Under the tray (ROAM_MCP_CONFIG_FROM_PARENT=1 with an IPC channel): the child says `ready`,
 * takes its graphs only from `config` messages (live), hands exchanged tokens back with
 * `token-obtained` instead of writing files, and reports `token-rejected` on a 401.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ChildMessage, ParentMessage } from '../../src-shared/child-ipc.ts';
import { startEmulator, type Emulator } from '../emulator/index.ts';
import { ChildStdioTransport } from '../harness/child-transport.ts';
import {
  binCommand,
  errorOf,
  newToken,
  removeHome,
  binEnv,
  tempHome,
  textOf,
  toolsConfigPath,
  writeToolsConfig,
} from '../harness/mcp-bin.ts';

const A = newToken();
const FILE_CONFIG = JSON.stringify({ graphs: [{ name: 'from-file', token: newToken() }] });
let home: string;
let emulator: Emulator;
let child: ChildProcess;
let client: Client;
let stdio = '';
const received: ChildMessage[] = [];
const notifications: string[] = [];
const send = (message: ParentMessage) => child.send(message);
const graphA = {
  name: 'alpha',
  type: 'hosted' as const,
  nickname: 'Alpha',
  token: A,
  accessLevel: 'full' as const,
};
const graphB = { name: 'beta', type: 'hosted' as const, nickname: 'Beta' };

beforeAll(async () => {
  home = await tempHome();
  await writeToolsConfig(home, { text: FILE_CONFIG });
  emulator = await startEmulator({
    home,
    graphs: [
      { name: 'alpha', content: 'demo', tokens: [{ token: A, accessLevel: 'full' }] },
      { name: 'beta', content: [{ title: 'Beta Page', children: ['hello from beta'] }] },
      { name: 'gamma', content: [{ title: 'Gamma Page', children: ['hello from gamma'] }] },
    ],
  });
  child = spawn(...binCommand(), {
    env: binEnv(home, { ROAM_MCP_CONFIG_FROM_PARENT: '1' }),
    stdio: ['pipe', 'pipe', 'pipe', 'ipc'],
  });
  child.stderr!.on('data', (c: Buffer) => (stdio += c.toString('utf8')));
  const ready = new Promise<void>((resolve) =>
    child.on('message', (m: ChildMessage) => {
      received.push(m);
      if (m.type === 'ready') resolve();
    }),
  );
  await ready;
  send({ type: 'config', graphs: [graphA] });
  client = new Client({ name: 'ipc-test', version: '1' });
  client.fallbackNotificationHandler = async (n) => void notifications.push(n.method);
  await client.connect(new ChildStdioTransport(child));
});

afterAll(async () => {
  await client?.close().catch(() => {});
  if (child && child.exitCode === null) child.kill();
  await emulator?.close();
  await removeHome(home);
});

const call = async (name: string, args: Record<string, unknown> = {}) => {
  const result = await client.callTool({ name, arguments: args });
  stdio += JSON.stringify(result);
  return result as Parameters<typeof textOf>[0];
};

it('uses only the graphs the tray sent, not config files', async () => {
  const list = await call('list_graphs');
  expect(list.structuredContent).toMatchObject({ items: [{ nickname: 'Alpha', name: 'alpha' }], total: 1 });
  expect(textOf(await call('get_page', { title: 'Project Apollo' }))).toMatch(/^# Project Apollo/);
});

it('a new config replaces the graph list live and tells the client', async () => {
  send({ type: 'config', graphs: [graphA, graphB] });
  await expect
    .poll(async () => ((await call('list_graphs')).structuredContent as { total: number }).total)
    .toBe(2);
  await expect.poll(() => notifications).toContain('notifications/resources/list_changed');
});

it('an exchanged token goes to the parent as token-obtained, and no file is written', async () => {
  emulator.decide('beta', { kind: 'approve', accessLevel: 'read-append' });
  const selected = await call('select_graph', { graph: 'Beta' });
  expect(selected.structuredContent).toMatchObject({ nickname: 'Beta', permissions: ['read', 'append'] });
  const obtained = received.find((m) => m.type === 'token-obtained');
  expect(obtained).toMatchObject({
    type: 'token-obtained',
    graph: { name: 'beta', type: 'hosted' },
    grantedAccessLevel: 'read-append',
  });
  const token = (obtained as { token: string }).token;
  expect(token).toMatch(/^roam-graph-local-token-/);
  expect(await readFile(toolsConfigPath(home), 'utf8')).toBe(FILE_CONFIG);
  expect(textOf(await call('get_page', { title: 'Beta Page' }))).toContain('hello from beta');
  expect(stdio).not.toContain(token.slice(23));
});

it('a 401 is reported to the parent as token-rejected', async () => {
  emulator.revokeToken(A);
  expect(errorOf(await call('get_page', { graph: 'Alpha', title: 'Project Apollo' })).code).toBe(
    'AUTH_FAILED',
  );
  expect(received).toContainEqual({ type: 'token-rejected', graph: { name: 'alpha', type: 'hosted' } });
});

it('toolsets in a config replace the selection live: tools/list_changed, then only those sets', async () => {
  const changed = new Promise<void>((resolve) =>
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
  );
  send({ type: 'config', graphs: [graphA, graphB], toolsets: ['navigation'] });
  await changed;
  const names = (await client.listTools()).tools.map((t) => t.name);
  expect(names).toContain('get_hubs');
  expect(names).not.toContain('get_page');
  const refused = errorOf(await call('get_page', { title: 'Project Apollo', graph: 'Alpha' }));
  expect(refused).toMatchObject({ code: 'TOOLSET_NOT_ENABLED', toolset: 'core' });
  // `all` gives the later tests every tool again.
  const restored = new Promise<void>((resolve) =>
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
  );
  send({ type: 'config', graphs: [graphA, graphB], toolsets: ['all'] });
  await restored;
  expect((await client.listTools()).tools.map((t) => t.name)).toEqual(
    expect.arrayContaining(['list_graphs', 'get_page', 'get_hubs']),
  );
});

it('setup_new_graph hands the new graph to the parent with its nickname, writes no file, and it is usable at once', async () => {
  emulator.decide('gamma', { kind: 'approve', accessLevel: 'read-append' });
  const added = await call('setup_new_graph', { graph: 'gamma', nickname: 'Gamma notes' });
  expect(added.structuredContent ?? JSON.parse(textOf(added))).toMatchObject({
    nickname: 'Gamma notes',
    saved_to: 'Roam Companion (encrypted)',
  });
  const obtained = received.filter((m) => m.type === 'token-obtained').at(-1);
  expect(obtained).toMatchObject({ graph: { name: 'gamma', type: 'hosted', nickname: 'Gamma notes' } });
  expect(stdio).not.toContain((obtained as { token: string }).token.slice(23));
  expect(await readFile(toolsConfigPath(home), 'utf8')).toBe(FILE_CONFIG);
  expect(textOf(await call('get_page', { graph: 'Gamma notes', title: 'Gamma Page' }))).toContain(
    'hello from gamma',
  );
});

it('an empty config says to add a graph in Roam Companion; shutdown ends the child', async () => {
  send({ type: 'config', graphs: [] });
  await expect
    .poll(async () => {
      const result = await call('list_graphs');
      return result.isError ? errorOf(result).message : '';
    })
    .toMatch(/Roam Companion has no enabled graph/);
  expect(stdio).not.toContain(A.slice(23));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  send({ type: 'shutdown' });
  expect(await exited).toBe(0);
});
