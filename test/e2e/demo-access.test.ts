/**
 * The demo report, replayed on the demo itself: a graph added in the demo's tray (over the preview's
 * HTTP bridge, as its UI does), approved as Full by the demo's Roam, then set to Read only (a
 * second graph stays Full, so writes are offered and Work's own level must refuse them). An AI
 * client started with the demo's own launcher (`node dist/demo-mcp.mjs --home <demo HOME>`) is
 * told `permissions: ["read"]`, and create_block (which would create a page) and update_block are
 * refused with where the level is set; nothing reaches the graph. Back at Read + append, adding
 * works and editing is still refused. With the demo's whole HOME allowed for uploads, the tray's
 * store and its preview key in it stay unreadable.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemo, startDemoPreview, type Demo } from '../../scripts/demo.ts';
import type { Preview } from '../../src-main/preview/server.ts';
import type { GraphView } from '../../src-shared/ipc-contract.ts';
import { errorOf, jsonOf } from '../harness/mcp-bin.ts';
import { waitFor } from '../main/helpers.ts';
import { poll as pollPage } from './poll.ts';

const WORK = 'hosted:demo-work';
const PERSONAL = 'offline:demo-personal';
let demo: Demo;
let preview: Preview;
let client: Client;
let blockUid: string;

/** One call to the tray core through the preview's bridge, as the demo's UI makes it. */
async function ipc<T>(channel: string, input?: unknown): Promise<T> {
  const response = await fetch(`${preview.url}ipc/${channel}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${preview.key}` },
    ...(input === undefined ? {} : { body: JSON.stringify(input) }),
  });
  const body = (await response.json()) as T;
  if (!response.ok) throw new Error(`${channel}: ${JSON.stringify(body)}`);
  return body;
}

const call = async (name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;
const poll = <T>(read: () => Promise<T>) => pollPage(read, 15_000, 100);
/** What list_graphs tells the agent Work allows. */
const reported = async () => {
  const listed = await call('list_graphs');
  if (listed.isError) return undefined;
  const { items } = jsonOf<{ items: Array<{ nickname: string; permissions: unknown }> }>(listed);
  return items.find((g) => g.nickname === 'Work')?.permissions;
};
const graph = () => demo.emulator.graph('demo-work');
const stringOf = (uid: string) =>
  graph().run('data.q', [`[:find ?s . :where [?b :block/uid "${uid}"] [?b :block/string ?s]]`]);

beforeAll(async () => {
  demo = await startDemo();
  preview = await startDemoPreview(demo);
  // The person in Roam approves at once (the demo's own Roam waits 2 s, which nothing here is about).
  demo.emulator.autoDecide({ kind: 'approve' });
  // Two graphs, so the agent is offered writes and each graph's level decides.
  await ipc('graphs:add', { name: 'demo-work', type: 'hosted', nickname: 'Work', accessLevel: 'full' });
  await ipc('graphs:add', {
    name: 'demo-personal',
    type: 'offline',
    nickname: 'Personal',
    accessLevel: 'full',
  });
  for (const id of [WORK, PERSONAL]) {
    await ipc('tokens:request', { id });
    // Roam approves, as Full.
    await waitFor(
      async () =>
        (await ipc<GraphView[]>('graphs:list')).find(
          (g) => g.id === id && g.token.state === 'ok' && g.token.grantedAccessLevel === 'full',
        ),
      30_000,
    );
  }
  blockUid = graph().run('data.q', [
    '[:find ?u . :where [?p :block/uid "apollo-pg"] [?p :block/children ?c] [?c :block/uid ?u]]',
  ]) as string;
  client = new Client({ name: 'demo-access', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({ command: demo.launcher.command, args: demo.launcher.args, stderr: 'ignore' }),
  );
});

afterAll(async () => {
  await client?.close();
  await preview?.close();
  await demo?.close();
});

// One walk: each test starts where the one before left the page.
describe.sequential('the demo: a Full token, then Read only in the tray', () => {
  it('the agent is told read only, and create_block and update_block are refused; nothing changes', async () => {
    await ipc('graphs:update', { id: WORK, accessLevel: 'read-only' });
    await poll(reported).toEqual(['read']);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('create_block');
    const selected = jsonOf(await call('select_graph', { graph: 'Work' }));
    expect(selected).toMatchObject({ permissions: ['read'], access_level: 'read-only' });
    const before = stringOf(blockUid);
    demo.emulator.clearRequests();
    for (const [tool, args] of [
      ['create_block', { pageTitle: 'Made In The Demo', markdown: 'should not exist' }],
      ['update_block', { uid: blockUid, string: 'overwritten' }],
    ] as const) {
      expect(errorOf(await call(tool, args)), tool).toMatchObject({
        code: 'ACCESS_LEVEL',
        graph: 'Work',
        access_level: 'read-only',
        setting: 'Roam Companion > Graphs > access level',
      });
    }
    expect(demo.emulator.requests.filter((r) => /^data\.(block|page)\./.test(r.action ?? ''))).toEqual([]);
    expect(stringOf(blockUid)).toBe(before);
    expect(graph().run('data.ai.getPage', [{ title: 'Made In The Demo' }])).toBeNull();
  });

  it('at Read + append, adding works and editing is still refused', async () => {
    await ipc('graphs:update', { id: WORK, accessLevel: 'read-append' });
    await poll(reported).toEqual(['read', 'append']);
    await call('select_graph', { graph: 'Work' });
    expect(jsonOf(await call('create_block', { parentUid: 'apollo-pg', markdown: 'added' }))).toMatchObject({
      created: 'blocks',
    });
    const before = stringOf(blockUid);
    expect(errorOf(await call('update_block', { uid: blockUid, string: 'overwritten' })).code).toBe(
      'ACCESS_LEVEL',
    );
    expect(stringOf(blockUid)).toBe(before);
  });

  it("with the demo's HOME allowed for uploads, a file there uploads and the tray's store and key do not", async () => {
    await writeFile(path.join(demo.home, 'note.txt'), 'a note');
    await ipc('settings:set', { uploadFolders: [demo.home] });
    const upload = (filePath: string) => call('file_upload', { filePath });
    // The folder reaches the running child live.
    await poll(async () => (await upload(path.join(demo.home, 'note.txt'))).isError ?? false).toBe(false);
    for (const file of ['config.json', 'preview-secret.key']) {
      const answer = errorOf(await upload(path.join(demo.home, '.roam-companion', file)));
      expect([answer.code, answer.message], file).toEqual([
        'INVALID_PARAMS',
        expect.stringMatching(/cannot be uploaded/),
      ]);
    }
  });
});
