/**
 * What list_changes and undo_changes hand the change-review app in the result's `_meta`
 * (src-mcp/apps/change-review-data.ts), through the built bin against the emulator: each op whole
 * (an edit's full texts, a create's outline, a move's pages, a conflict's text now), places named
 * by page and block text, never by uid, never a hidden block's text; and the model reads nothing
 * more than before: the text of list_changes keeps its fields, there is no structuredContent, and
 * tools/list gains no app-only tool.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { jsonOf, textOf } from '../../harness/mcp-bin.ts';
import { startOneGraphWorld, type StdioWorld } from '../../harness/stdio-world.ts';

const SECRET = 'TOPSECRET-42';
const KEY = 'roam-mcp/change-review';
// Longer than a summary quotes (40 characters): its tail is in the app's data only.
const LONG = 'alpha, rewritten by the agent with a tail only the app may show: ZEBRA-TAIL';
let world: StdioWorld;

interface AppOp {
  n: number;
  kind: string;
  page?: string;
  before?: string;
  after?: string;
  blocks?: Array<{ string: string; children: unknown[] }>;
  from?: { page?: string; block?: string };
  to?: { page?: string; block?: string };
}
interface AppData {
  changes: Record<string, { ops: AppOp[]; steps?: Array<{ n: number; now?: string }> }>;
}

const appData = (result: CallToolResult) => (result._meta as Record<string, AppData> | undefined)?.[KEY];
const UIDS = ['project01', 'alpha0001', 'beta00001', 'notes0001', 'hidden001', 'inbox0001', 'vparent01'];

beforeAll(async () => {
  world = await startOneGraphWorld([
    {
      title: 'Project',
      uid: 'project01',
      children: [
        { string: 'alpha', uid: 'alpha0001' },
        { string: 'beta', uid: 'beta00001' },
      ],
    },
    {
      title: 'Notes',
      uid: 'notes0001',
      children: [{ string: `${SECRET} #.rm-hide`, uid: 'hidden001', children: [`${SECRET} child`] }],
    },
    { title: 'Inbox', uid: 'inbox0001', children: [{ string: 'visible parent', uid: 'vparent01' }] },
    {
      title: 'Diary',
      uid: 'diary0001',
      children: [{ string: 'entry', uid: 'dparent01', children: [{ string: 'day', uid: 'dchild001' }] }],
    },
  ]);
  const agent = (name: string, args: Record<string, unknown>) => world.mcp.call(name, args).then(jsonOf);
  await agent('update_block', { uid: 'alpha0001', string: LONG });
  await agent('create_block', { pageTitle: 'Project', markdown: '- delta\n  - delta child' });
  await agent('move_block', { uid: 'beta00001', parentUid: 'vparent01' });
  await agent('delete_page', { uid: 'notes0001' });
});

afterAll(async () => {
  await world?.close();
});

it('list_changes: the model reads the same fields as before; the app gets each op whole', async () => {
  const result = await world.mcp.call('list_changes', {});
  expect(result.structuredContent).toBeUndefined();
  expect(result.content).toHaveLength(1);
  const text = textOf(result);
  const listed = JSON.parse(text) as { changes: Array<Record<string, unknown>> };
  expect(Object.keys(listed).sort()).toEqual(['changes', 'limit', 'offset', 'total']);
  for (const change of listed.changes)
    expect(Object.keys(change).sort()).toEqual(
      ['graph', 'id', 'summary', 'time', 'tool', 'undoable', 'undone'].sort(),
    );
  expect(text).not.toContain('ZEBRA-TAIL');

  const data = appData(result)!;
  const ops = listed.changes.map((c) => data.changes[c.id as string]!.ops);
  const [deleted, moved, created, edited] = ops.map((o) => o[0]!);
  expect(edited).toMatchObject({ kind: 'edit', page: 'Project', before: 'alpha', after: LONG });
  expect(created).toMatchObject({
    kind: 'create',
    blocks: [{ string: 'delta', children: [{ string: 'delta child', children: [] }] }],
  });
  expect(moved).toMatchObject({
    kind: 'move',
    from: { page: 'Project' },
    to: { page: 'Inbox', block: 'visible parent' },
  });
  expect(deleted).toMatchObject({ kind: 'delete', page: 'Notes' });
  const json = JSON.stringify(result._meta);
  expect(json).not.toContain(SECRET);
  for (const uid of UIDS) expect(json).not.toContain(uid);
});

it('tools/list gains nothing: no app-only tool, the same _meta on the two tools', async () => {
  const { tools } = await world.mcp.client.listTools();
  expect(tools.filter((t) => JSON.stringify(t._meta ?? {}).includes('visibility'))).toEqual([]);
  for (const name of ['list_changes', 'undo_changes'])
    expect(tools.find((t) => t.name === name)?._meta).toEqual({
      ui: { resourceUri: 'ui://roam-mcp/change-review.html' },
    });
});

it('undo_changes dry run: a conflicting edit carries the text now, beside the agent’s', async () => {
  const [edit] = jsonOf<{ changes: Array<{ id: string; tool: string }> }>(
    await world.mcp.call('list_changes', {}),
  ).changes.filter((c) => c.tool === 'update_block');
  world.emulator
    .graph('g')
    .run('data.block.update', [{ block: { uid: 'alpha0001', string: 'alpha as the person wrote it' } }]);
  const result = await world.mcp.call('undo_changes', { ids: [edit!.id], dryRun: true });
  const text = textOf(result);
  expect(text).not.toContain('ZEBRA-TAIL');
  expect(JSON.parse(text).changes[0].steps[0]).toMatchObject({ status: 'conflict' });
  const change = appData(result)!.changes[edit!.id]!;
  expect(change.ops[0]).toMatchObject({ kind: 'edit', after: LONG });
  expect(change.steps).toEqual([{ n: change.ops[0]!.n, now: 'alpha as the person wrote it' }]);
});

it('undo_changes of the deleted page: its outline has no hidden text, in the dry run or after', async () => {
  const [del] = jsonOf<{ changes: Array<{ id: string; tool: string }> }>(
    await world.mcp.call('list_changes', {}),
  ).changes.filter((c) => c.tool === 'delete_page');
  for (const dryRun of [true, false]) {
    const result = await world.mcp.call('undo_changes', { ids: [del!.id], dryRun });
    const json = JSON.stringify(result);
    expect(json).toContain('Notes');
    expect(json).not.toContain(SECRET);
    expect(appData(result)!.changes[del!.id]!.ops[0]).toMatchObject({ kind: 'delete', page: 'Notes' });
  }
});

it('an edit of a block hidden since (a person tagged its parent): neither text reaches the app, short as they are', async () => {
  await world.mcp.call('update_block', { uid: 'dchild001', string: 'pin 1234' }).then(jsonOf);
  world.emulator
    .graph('g')
    .run('data.block.update', [{ block: { uid: 'dparent01', string: 'entry #.rm-hide' } }]);
  const result = await world.mcp.call('list_changes', {});
  const json = JSON.stringify(result);
  expect(json).not.toContain('pin 1234');
  expect(json).not.toMatch(/"day"|'day'/);
  const [edit] = jsonOf<{ changes: Array<{ id: string; tool: string }> }>(result).changes;
  expect(appData(result)!.changes[edit!.id]!.ops[0]).toMatchObject({
    kind: 'edit',
    page: 'Diary',
    before: '[hidden from AI]',
    after: '[hidden from AI]',
  });
});

it('undo_changes dry run: a block the agent added and a person edited since carries its text now', async () => {
  const created = jsonOf<{ uid?: string; uids?: string[] }>(
    await world.mcp.call('create_block', { pageTitle: 'Project', markdown: 'gamma' }),
  );
  const uid = created.uid ?? created.uids?.[0];
  expect(uid).toBeDefined();
  world.emulator
    .graph('g')
    .run('data.block.update', [{ block: { uid, string: 'gamma as the person has it' } }]);
  const [add] = jsonOf<{ changes: Array<{ id: string; tool: string }> }>(
    await world.mcp.call('list_changes', {}),
  ).changes;
  expect(add?.tool).toBe('create_block');
  const result = await world.mcp.call('undo_changes', { ids: [add!.id], dryRun: true });
  expect(JSON.parse(textOf(result)).changes[0].steps[0]).toMatchObject({ status: 'conflict' });
  const change = appData(result)!.changes[add!.id]!;
  expect(change.ops[0]).toMatchObject({ kind: 'create', blocks: [{ string: 'gamma', children: [] }] });
  expect(change.steps).toEqual([{ n: change.ops[0]!.n, now: 'gamma as the person has it' }]);
});
