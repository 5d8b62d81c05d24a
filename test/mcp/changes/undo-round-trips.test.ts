/**
 * The undo's checks are read in batches (issue 40, item 9): one read per depth for the whole
 * run, each step's writes modelled on top, so undoing a chat of every kind of change costs at
 * most 3 Local API round trips per change (its writes included), its dry run at most 1, and the
 * graph still comes back exactly. Counted in the emulator's request log: no timing.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { jsonOf, type McpHandle } from '../../harness/mcp-bin.ts';
import { graphSnapshot } from './graph-snapshot.ts';
import { undoWorld, type UndoWorld } from './changes-setup.ts';

let world: UndoWorld;
let agent: McpHandle;
const PAGES = 8;
beforeEach(async () => {
  world = await undoWorld(
    Array.from({ length: PAGES }, (_, p) => ({
      title: `Page ${p}`,
      uid: `page0000${p}`,
      children: Array.from({ length: 4 }, (_, b) => ({
        string: `block ${p}.${b} see [[Page ${(p + 1) % PAGES}]]`,
        uid: `blk00${p}0${b}`,
      })),
    })),
  );
  agent = await world.agent();
});
afterEach(() => world.close());

/** Round trips the bin made to the graph while `work` ran. */
async function roundTrips(work: () => Promise<unknown>): Promise<number> {
  world.emulator.clearRequests();
  await work();
  return world.emulator.requests.filter((r) => r.graph === 'work').length;
}

it('undoes a chat of every kind of change in at most 3 round trips per change, its dry run in 1', async () => {
  const graph = world.emulator.graph('work');
  const start = graphSnapshot(graph);
  for (let i = 0; i < 3; i++) {
    const page = `page0000${i}`;
    jsonOf(await agent.call('create_block', { parentUid: page, markdown: `- made ${i}\n  - below` }));
    jsonOf(await agent.call('create_block', { parentUid: `page0000${i + 3}`, markdown: `flat ${i}` }));
    jsonOf(await agent.call('create_page', { title: `Made ${i}`, markdown: '- a\n- b' }));
    jsonOf(await agent.call('append_to_daily_note', { markdown: `note ${i}`, date: '06-15-2027' }));
    jsonOf(await agent.call('update_block', { uid: `blk00${i}00`, string: `edited ${i}` }));
    jsonOf(await agent.call('move_block', { uid: `blk00${i}01`, parentUid: 'page00007', order: 0 }));
    jsonOf(await agent.call('delete_block', { uid: `blk00${i}02` }));
    jsonOf(await agent.call('update_page', { uid: `page0000${i + 4}`, title: `Renamed ${i}` }));
    jsonOf(await agent.call('add_comment', { blockUid: `blk00${i}03`, comment: `comment ${i}` }));
    jsonOf(await agent.call('add_shortcut', { uid: page }));
  }
  const changes = 30;

  const dry = await roundTrips(() => agent.call('undo_changes', { all: true, dryRun: true }));
  let report: { undone: number; conflicts: number } = { undone: 0, conflicts: 0 };
  const undo = await roundTrips(async () => {
    report = jsonOf(await agent.call('undo_changes', { all: true }));
  });

  expect(report).toMatchObject({ undone: changes, conflicts: 0 });
  expect(graphSnapshot(graph).filter((e) => e.title !== 'roam/comments')).toEqual(
    start.filter((e) => e.title !== 'roam/comments'),
  );
  expect(dry).toBeLessThanOrEqual(changes);
  expect(undo).toBeLessThanOrEqual(3 * changes);
});
