/**
 * The access level chosen in the tray holds under `--mcp` (the demo's path): AI client (SDK) →
 * launcher on the tray's store → real roam-mcp child → emulator. The token is approved as Full in
 * the tray; the level the user then picks in Graphs is what the child reports and enforces, live.
 * A switched-off graph answers how to switch it on.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrayCore } from '../../../src-main/core/tray-core.ts';
import type { AccessLevel } from '../../../src-shared/roam-config.ts';
import { startEmulator, type Emulator } from '../../emulator/index.ts';
import { errorOf, jsonOf } from '../../harness/mcp-bin.ts';
import { startCore, tempDirs, waitFor, connectThroughLauncher } from '../../main/helpers.ts';

const HOME_ID = 'hosted:home-graph';
let dirs: Awaited<ReturnType<typeof tempDirs>>;
let emulator: Emulator;
let core: TrayCore;
let client: Client;
let blockUid: string;

const call = async (name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;
const stringOf = (uid: string) =>
  emulator
    .graph('home-graph')
    .run('data.q', [`[:find ?s . :where [?b :block/uid "${uid}"] [?b :block/string ?s]]`]);
const writesSent = () => emulator.requests.filter((r) => r.action && /^data\.(block|page)\./.test(r.action));

/** Sets the level in the tray and waits until the child reports it. */
async function chooseLevel(accessLevel: AccessLevel, permissions: string[]) {
  await core.handlers['graphs:update']({ id: HOME_ID, accessLevel });
  await waitFor(async () => {
    const current = await call('current_graph');
    const reported = current.isError ? undefined : jsonOf(current).permissions;
    return JSON.stringify(reported) === JSON.stringify(permissions) ? true : undefined;
  });
}

beforeAll(async () => {
  dirs = await tempDirs();
  emulator = await startEmulator({
    home: dirs.home,
    graphs: [
      { name: 'home-graph', content: 'demo' },
      { name: 'away-graph', content: [{ title: 'Away', children: ['hello'] }] },
    ],
  });
  emulator.autoDecide({ kind: 'approve' });
  ({ core } = startCore(dirs));
  await core.handlers['graphs:add']({ name: 'home-graph', nickname: 'Home', accessLevel: 'full' });
  await core.handlers['graphs:add']({ name: 'away-graph', nickname: 'Away', accessLevel: 'full' });
  await core.handlers['graphs:update']({ id: 'hosted:away-graph', enabled: false });
  // Approved as Full in the tray, as in the demo.
  await core.handlers['tokens:request']({ id: HOME_ID });
  await waitFor(async () =>
    (await core.handlers['graphs:list'](undefined)).find((g) => g.id === HOME_ID && g.token.state === 'ok'),
  );
  blockUid = emulator
    .graph('home-graph')
    .run('data.q', [
      '[:find ?u . :where [?p :block/uid "apollo-pg"] [?p :block/children ?c] [?c :block/uid ?u]]',
    ]) as string;
  client = await connectThroughLauncher(dirs, 'tray-access');
});

afterAll(async () => {
  await client?.close();
  await core?.close();
  await emulator?.close();
  await dirs?.cleanup();
});

describe('the level chosen in Roam Companion', () => {
  it('Read only after a Full token: reported as read, create_block and update_block refused, nothing changed', async () => {
    await chooseLevel('read-only', ['read']);
    const selected = jsonOf(await call('select_graph', { graph: 'Home' }));
    expect(selected).toMatchObject({ permissions: ['read'], access_level: 'read-only' });
    expect(selected.permissions_note).toMatch(/chose read-only .*token allows full/);
    const before = stringOf(blockUid);
    emulator.clearRequests();
    for (const [tool, args] of [
      ['create_block', { pageTitle: 'Made By An Agent', markdown: 'should not exist' }],
      ['update_block', { uid: blockUid, string: 'overwritten' }],
    ] as const) {
      const error = errorOf(await call(tool, args));
      expect(error, tool).toMatchObject({
        code: 'ACCESS_LEVEL',
        setting: 'Roam Companion > Graphs > access level',
        access_level: 'read-only',
      });
      expect(error.message, tool).toMatch(/changes the access level of 'Home' in Roam Companion > Graphs/);
    }
    expect(writesSent()).toEqual([]);
    expect(stringOf(blockUid)).toBe(before);
    expect(emulator.graph('home-graph').run('data.ai.getPage', [{ title: 'Made By An Agent' }])).toBeNull();
  });

  it('Read + append: adding works, update_block is refused', async () => {
    await chooseLevel('read-append', ['read', 'append']);
    await call('select_graph', { graph: 'Home' });
    expect(jsonOf(await call('create_block', { parentUid: 'apollo-pg', markdown: 'added' }))).toMatchObject({
      created: 'blocks',
    });
    const before = stringOf(blockUid);
    expect(errorOf(await call('update_block', { uid: blockUid, string: 'overwritten' })).code).toBe(
      'ACCESS_LEVEL',
    );
    expect(stringOf(blockUid)).toBe(before);
  });

  it('Full again: the edit goes through', async () => {
    await chooseLevel('full', ['read', 'append', 'edit']);
    expect(jsonOf(await call('update_block', { uid: blockUid, string: 'edited at full' }))).toMatchObject({
      updated: 'block',
    });
    expect(stringOf(blockUid)).toBe('edited at full');
  });
});

describe('read-edit-own chosen in the tray', () => {
  it('asks Roam for full, keeps read-edit-own in the store, and the child enforces edit-own', async () => {
    await chooseLevel('read-edit-own', ['read', 'append', 'edit-own']);
    const list = () => core.handlers['graphs:list'](undefined);
    const old = (await list()).find((g) => g.id === HOME_ID)!.token.last4;
    emulator.clearRequests();
    await core.handlers['tokens:request']({ id: HOME_ID });
    const request = await waitFor(() =>
      emulator.requests.find((r) => r.path === '/api/graphs/tokens/request'),
    );
    expect(request.body).toMatchObject({ accessLevel: 'full' });
    // Stored once the new token (another last4) is in: the full grant did not widen the choice.
    const graph = await waitFor(async () =>
      (await list()).find((g) => g.id === HOME_ID && g.token.state === 'ok' && g.token.last4 !== old),
    );
    expect(graph.accessLevel).toBe('read-edit-own');
    await call('select_graph', { graph: 'Home' });
    expect(jsonOf(await call('current_graph'))).toMatchObject({
      permissions: ['read', 'append', 'edit-own'],
      access_level: 'read-edit-own',
    });
    expect(errorOf(await call('delete_page', { uid: 'apollo-pg' })).code).toBe('ACCESS_LEVEL');
  });
});

describe('a switched-off graph', () => {
  it('says it is switched off and how to switch it on, then works once switched on', async () => {
    const error = errorOf(await call('select_graph', { graph: 'Away' }));
    expect(error).toMatchObject({ code: 'GRAPH_SWITCHED_OFF', graph: 'Away' });
    expect(error.message).toBe(
      "Graph 'Away' is switched off in Roam Companion; switch it on in Roam Companion > Graphs, then try again.",
    );
    expect(errorOf(await call('get_page', { graph: 'away', title: 'Away' })).code).toBe('GRAPH_SWITCHED_OFF');
    await core.handlers['graphs:update']({ id: 'hosted:away-graph', enabled: true });
    await waitFor(async () => ((await call('select_graph', { graph: 'Away' })).isError ? undefined : true));
  });
});
