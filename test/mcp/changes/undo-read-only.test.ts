/**
 * Read only means agents change nothing, their own undo included: a chat's change made while the
 * graph was Full cannot be undone by the agent once the person sets the graph to Read only in
 * Roam Companion (tray core on real files, the `--mcp` launcher running the real child), while
 * another graph stays Full (so the undo tool is still offered); set back to Full, the same undo
 * goes through.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TrayCore } from '../../../src-main/core/tray-core.ts';
import { startEmulator, type Emulator } from '../../emulator/index.ts';
import { jsonOf, newToken } from '../../harness/mcp-bin.ts';
import { startCore, tempDirs, waitFor, connectThroughLauncher } from '../../main/helpers.ts';

const ID = 'hosted:notes';
let dirs: Awaited<ReturnType<typeof tempDirs>>;
let emulator: Emulator;
let core: TrayCore;
let client: Client;

const call = async (name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;

/** Waits until the child reports this permission list for Notes (the tray's change arrived). */
const reports = (permissions: string[]) =>
  waitFor(async () => {
    const { items } = jsonOf<{ items: Array<{ nickname: string; permissions: string[] }> }>(
      await call('list_graphs'),
    );
    const notes = items.find((g) => g.nickname === 'Notes');
    return JSON.stringify(notes?.permissions) === JSON.stringify(permissions) ? true : undefined;
  });

beforeAll(async () => {
  dirs = await tempDirs();
  emulator = await startEmulator({
    home: dirs.home,
    graphs: ['notes', 'other'].map((name) => ({
      name,
      content: [{ title: 'Inbox', uid: 'inbox-pg1', children: [] }],
      tokens: [{ token: newToken(), accessLevel: 'full' as const }],
    })),
  });
  emulator.autoDecide({ kind: 'approve' });
  ({ core } = startCore(dirs));
  for (const [name, nickname] of [
    ['notes', 'Notes'],
    ['other', 'Other'],
  ] as const) {
    await core.handlers['graphs:add']({ name, nickname, accessLevel: 'full' });
    await core.handlers['tokens:request']({ id: `hosted:${name}` });
    await waitFor(async () =>
      (await core.handlers['graphs:list'](undefined)).find(
        (g) => g.id === `hosted:${name}` && g.token.state === 'ok',
      ),
    );
  }
  client = await connectThroughLauncher(dirs, 'undo-read-only');
});

afterAll(async () => {
  await client?.close();
  await core?.close();
  await emulator?.close();
  await dirs?.cleanup();
});

const blocksUnderInbox = () =>
  emulator
    .graph('notes')
    .run('data.q', [
      '[:find [?s ...] :where [?p :block/uid "inbox-pg1"] [?p :block/children ?b] [?b :block/string ?s]]',
    ]);

it("refuses the agent's own undo on a graph set to Read only, and takes it once Full again", async () => {
  jsonOf(await call('select_graph', { graph: 'Notes' }));
  jsonOf(await call('create_block', { parentUid: 'inbox-pg1', markdown: 'written while Full' }));
  expect(blocksUnderInbox()).toEqual(['written while Full']);

  await core.handlers['graphs:update']({ id: ID, accessLevel: 'read-only' });
  await reports(['read']);
  const refused = jsonOf<{
    undone: number;
    changes: Array<{ result: string; steps: Array<{ detail: string }> }>;
  }>(await call('undo_changes', { all: true }));
  expect(refused).toMatchObject({ undone: 0, changes: [{ result: 'failed' }] });
  expect(refused.changes[0]?.steps[0]?.detail).toMatch(
    /graph 'Notes' is set to read-only \(Roam Companion > Graphs > access level\).*Nothing was changed/,
  );
  expect(blocksUnderInbox()).toEqual(['written while Full']);

  await core.handlers['graphs:update']({ id: ID, accessLevel: 'full' });
  await reports(['read', 'append', 'edit']);
  expect(jsonOf(await call('undo_changes', { all: true }))).toMatchObject({ undone: 1, conflicts: 0 });
  expect(blocksUnderInbox()).toEqual([]);
});
