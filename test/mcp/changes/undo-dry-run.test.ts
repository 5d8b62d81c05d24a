/**
 * A dry run reports exactly what the undo then does, when one undone step changes what a later
 * one finds: undoing a move puts a block back (with its child, or in its old place among its
 * siblings), so undoing the create before it finds what it wrote and removes it; undoing a page's
 * delete brings the page back, so undoing its create also removes the pages its links made.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { jsonOf, type McpHandle } from '../../harness/mcp-bin.ts';
import { graphSnapshot } from './graph-snapshot.ts';
import { undoWorld, type UndoWorld } from './changes-setup.ts';

let world: UndoWorld;
let agent: McpHandle;
beforeAll(async () => {
  world = await undoWorld([
    { title: 'Elsewhere', uid: 'elsewhere', children: [] },
    { title: 'Here', uid: 'herepage1', children: [] },
  ]);
});
afterAll(() => world.close());

interface Report {
  undone: number;
  conflicts: number;
  changes: Array<{ result: string; steps: Array<{ status: string; detail: string }> }>;
}

const uidOf = (text: string) =>
  world.emulator
    .graph('work')
    .run('data.q', ['[:find ?u . :in $ ?s :where [?b :block/string ?s] [?b :block/uid ?u]]', text]) as string;

/** Undoes everything with a dry run first: both reports, and the graph before and after. */
async function undoAllTwice() {
  const graph = world.emulator.graph('work');
  const before = graphSnapshot(graph);
  const dry = jsonOf<Report>(await agent.call('undo_changes', { all: true, dryRun: true }));
  expect(graphSnapshot(graph)).toEqual(before);
  const undo = jsonOf<Report>(await agent.call('undo_changes', { all: true }));
  expect(dry.changes.map((c) => c.steps.map((s) => s.detail))).toEqual(
    undo.changes.map((c) => c.steps.map((s) => s.detail)),
  );
  return { dry, undo };
}

it('models a block moved back, children and all, before judging the page that held it', async () => {
  agent = await world.agent();
  const start = graphSnapshot(world.emulator.graph('work'));
  jsonOf(await agent.call('create_page', { title: 'Made', markdown: '- top\n  - child\n- second' }));
  jsonOf(await agent.call('move_block', { uid: uidOf('top'), parentUid: 'elsewhere', order: 'last' }));

  const { dry, undo } = await undoAllTwice();

  expect(dry.changes.map((c) => c.result)).toEqual(['would-undo', 'would-undo']);
  expect(undo.changes.map((c) => c.result)).toEqual(['undone', 'undone']);
  expect(graphSnapshot(world.emulator.graph('work'))).toEqual(start);
});

it('models a page brought back from its delete, so its create takes the pages its links made too', async () => {
  agent = await world.agent();
  const start = graphSnapshot(world.emulator.graph('work'));
  jsonOf(await agent.call('create_page', { title: 'Linking', markdown: '- see [[Brand new topic]]' }));
  const made = world.emulator
    .graph('work')
    .run('data.q', ['[:find ?u . :where [?p :node/title "Linking"] [?p :block/uid ?u]]']) as string;
  jsonOf(await agent.call('delete_page', { uid: made }));

  const { dry, undo } = await undoAllTwice();

  expect(undo.changes.map((c) => c.result)).toEqual(['undone', 'undone']);
  expect(dry.changes.flatMap((c) => c.steps.map((s) => s.detail)).join(' ')).toContain(
    "'Brand new topic' it created",
  );
  expect(graphSnapshot(world.emulator.graph('work'))).toEqual(start);
});

it('models a block moved back to its place among its siblings', async () => {
  agent = await world.agent();
  const start = graphSnapshot(world.emulator.graph('work'));
  jsonOf(await agent.call('create_block', { parentUid: 'herepage1', markdown: '- x\n  - one\n  - two' }));
  jsonOf(await agent.call('move_block', { uid: uidOf('two'), parentUid: uidOf('x'), order: 0 }));

  const { dry, undo } = await undoAllTwice();

  expect(dry.changes.map((c) => c.result)).toEqual(['would-undo', 'would-undo']);
  expect(undo.changes.map((c) => c.result)).toEqual(['undone', 'undone']);
  expect(graphSnapshot(world.emulator.graph('work'))).toEqual(start);
});

it('models a shortcut page renamed back: the shortcut list names it by its title again', async () => {
  agent = await world.agent();
  const start = graphSnapshot(world.emulator.graph('work'));
  jsonOf(await agent.call('add_shortcut', { uid: 'elsewhere' }));
  jsonOf(await agent.call('update_page', { uid: 'elsewhere', title: 'Elsewhere renamed' }));

  const { dry, undo } = await undoAllTwice();

  expect(dry.changes.map((c) => c.result)).toEqual(['would-undo', 'would-undo']);
  expect(undo.changes.map((c) => c.result)).toEqual(['undone', 'undone']);
  expect(graphSnapshot(world.emulator.graph('work'))).toEqual(start);
});
