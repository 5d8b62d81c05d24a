/**
 * An undo never deletes or overwrites what a person made (issue 31): a block a person moved
 * away, a block under which a person's block now sits, a block a person pasted in the place of
 * the agent's with the same text. And the dry run says what the undo does, and a move goes back
 * between its old neighbours.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { jsonOf, type McpHandle } from '../../harness/mcp-bin.ts';
import { graphSnapshot } from './graph-snapshot.ts';
import { undoWorld, type UndoWorld } from './changes-setup.ts';

let world: UndoWorld;
let agent: McpHandle;
beforeEach(async () => {
  world = await undoWorld([
    { title: 'Journal', uid: 'journalpg', children: [{ string: 'my leaf', uid: 'leaf00001' }] },
    {
      title: 'Plan',
      uid: 'planpage1',
      children: [
        { string: 'one', uid: 'plan00001' },
        { string: 'two', uid: 'plan00002' },
        { string: 'three', uid: 'plan00003' },
      ],
    },
  ]);
  agent = await world.agent();
});
afterEach(() => world.close());

interface Report {
  undone: number;
  conflicts: number;
  changes: Array<{ id: string; result: string; steps: Array<{ status: string; detail: string }> }>;
}

const graph = () => world.emulator.graph('work');
const person = () => graph().asPerson('Bea');
const exists = (uid: string) =>
  graph().run('data.q', ['[:find ?b . :in $ ?u :where [?b :block/uid ?u]]', uid]) !== null;
const uidOf = (text: string) =>
  graph().run('data.q', [
    '[:find ?u . :in $ ?s :where [?b :block/string ?s] [?b :block/uid ?u]]',
    text,
  ]) as string;
const childrenOf = (uid: string) =>
  (
    graph().run('data.pull', ['[{:block/children [:block/string :block/order]}]', [':block/uid', uid]]) as {
      ':block/children'?: Array<{ ':block/string': string; ':block/order': number }>;
    }
  )[':block/children']
    ?.sort((a, b) => a[':block/order'] - b[':block/order'])
    .map((c) => c[':block/string']) ?? [];
const move = (uid: string, parent: string, order: number | 'last' = 'last') =>
  person().run('data.block.move', [{ location: { 'parent-uid': parent, order }, block: { uid } }]);

async function changeIds(): Promise<string[]> {
  const list = jsonOf<{ changes: Array<{ id: string }> }>(await agent.call('list_changes', {}));
  return list.changes.map((c) => c.id);
}

/** The dry run, then the undo: both reports, and the dry run must say what the undo did. */
async function undoBoth(args: Record<string, unknown>) {
  const dry = jsonOf<Report>(await agent.call('undo_changes', { ...args, dryRun: true }));
  const undo = jsonOf<Report>(await agent.call('undo_changes', args));
  expect(dry.changes.map((c) => c.steps.map((s) => s.detail))).toEqual(
    undo.changes.map((c) => c.steps.map((s) => s.detail)),
  );
  return { dry, undo };
}

it('leaves a block a person dragged onto their own page (case 1)', async () => {
  const made = jsonOf<{ uids: string[] }>(
    await agent.call('create_block', { pageTitle: 'Inbox', nestUnder: 'From AI', markdown: 'agent idea' }),
  );
  const uid = made.uids[0] as string;
  move(uid, 'journalpg');

  const { undo } = await undoBoth({ all: true });

  expect(undo.changes.map((c) => c.result)).toEqual(['conflict']);
  expect(undo.changes[0]?.steps[0]?.detail).toContain("moved to 'Journal' since");
  expect(exists(uid)).toBe(true);
});

it('leaves a block a person put under their own block, and that block (case 1)', async () => {
  const made = jsonOf<{ uids: string[] }>(
    await agent.call('create_block', { dailyNotePage: true, markdown: 'agent idea' }),
  );
  const uid = made.uids[0] as string;
  move(uid, 'leaf00001');

  const { undo } = await undoBoth({ all: true });

  expect(undo.changes.map((c) => c.result)).toEqual(['conflict']);
  expect(exists(uid)).toBe(true);
  expect(exists('leaf00001')).toBe(true);
});

it("never deletes a person's block an agent moved its own block under, undoing only the create (case 1)", async () => {
  const made = jsonOf<{ uids: string[] }>(
    await agent.call('create_block', { pageTitle: 'Inbox', nestUnder: 'From AI', markdown: 'bait' }),
  );
  const uid = made.uids[0] as string;
  jsonOf(await agent.call('move_block', { uid, parentUid: 'leaf00001', order: 'last' }));
  const [, create] = await changeIds();

  const { undo } = await undoBoth({ ids: [create] });

  expect(undo.changes.map((c) => c.result)).toEqual(['conflict']);
  expect(undo.changes[0]?.steps[0]?.detail).toContain("moved to 'Journal' since");
  expect(exists('leaf00001')).toBe(true);
  expect(exists(uid)).toBe(true);
});

it("keeps a block a person pasted with the same text in the place of the agent's (case 2)", async () => {
  const made = jsonOf<{ uids: string[] }>(
    await agent.call('create_block', { parentUid: 'planpage1', markdown: '- top\n  - nested\n  - after' }),
  );
  const nested = uidOf('nested');
  person().run('data.block.delete', [{ block: { uid: nested } }]);
  person().run('data.block.create', [
    { location: { 'parent-uid': made.uids[0], order: 0 }, block: { uid: 'pasted001', string: 'nested' } },
  ]);

  const { undo } = await undoBoth({ all: true });

  expect(undo.changes.map((c) => c.result)).toEqual(['conflict']);
  expect(exists('pasted001')).toBe(true);
});

it('says in the dry run what the undo does when a nested block was moved and back (case 6a)', async () => {
  const start = graphSnapshot(graph());
  jsonOf(await agent.call('create_block', { pageTitle: 'Inbox', markdown: '- top\n  - inner\n    - deep' }));
  jsonOf(await agent.call('move_block', { uid: uidOf('inner'), parentUid: 'journalpg', order: 'last' }));

  const { dry, undo } = await undoBoth({ all: true });

  expect(dry.changes.map((c) => c.result)).toEqual(['would-undo', 'would-undo']);
  expect(undo.changes.map((c) => c.result)).toEqual(['undone', 'undone']);
  expect(graphSnapshot(graph())).toEqual(start);
});

it('journals and undoes a batch delete that names a uid twice once (case 6b)', async () => {
  jsonOf(await agent.call('update_block', { uid: 'plan00003', string: 'see ((plan00002))' }));
  const start = graphSnapshot(graph());
  await agent.call('delete_blocks', { uids: ['plan00002', 'plan00002'] });

  const { dry, undo } = await undoBoth({ ids: [(await changeIds())[0]] });

  expect(dry.changes.map((c) => c.result)).toEqual(['would-undo']);
  expect(undo.changes.map((c) => c.result)).toEqual(['undone']);
  expect(graphSnapshot(graph())).toEqual(start);
});

it('puts a moved block back between its old neighbours (case 7)', async () => {
  jsonOf(await agent.call('move_block', { uid: 'plan00002', parentUid: 'journalpg', order: 'last' }));
  person().run('data.block.create', [
    { location: { 'parent-uid': 'planpage1', order: 0 }, block: { uid: 'beaabove1', string: 'zero' } },
  ]);

  const { undo } = await undoBoth({ all: true });

  expect(undo.changes.map((c) => c.result)).toEqual(['undone']);
  expect(childrenOf('planpage1')).toEqual(['zero', 'one', 'two', 'three']);
});
