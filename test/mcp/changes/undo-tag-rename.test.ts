/**
 * Why the undo bench sometimes took twice the round trips: it renamed the tag page 'idea'. Roam
 * rewrites the links on both renames, and brings `#idea` back as `#[[idea]]`; the undo puts each
 * `#idea` form back, one `data.block.update` per block (the only block write every build has).
 * Pinned here: that write per tagged block and nothing more (no read per block: they are read
 * with the rename's check, in one batch), the graph exactly as before, and its dry run reads only.
 * Counted in the emulator's request log: no timing.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { jsonOf, type McpHandle } from '../../harness/mcp-bin.ts';
import { graphSnapshot } from './graph-snapshot.ts';
import { undoWorld, type UndoWorld } from './changes-setup.ts';

const TAGGED = 30;
const LINKED = 5;

let world: UndoWorld;
let agent: McpHandle;
beforeEach(async () => {
  world = await undoWorld([
    { title: 'idea', uid: 'tagpage01' },
    {
      title: 'Notes',
      uid: 'notes0001',
      children: [
        ...Array.from({ length: TAGGED }, (_, i) => ({
          string: `thought ${i} #idea`,
          uid: `tagged${100 + i}`,
        })),
        ...Array.from({ length: LINKED }, (_, i) => ({
          string: `see [[idea]] ${i}`,
          uid: `linked${100 + i}`,
        })),
        { string: 'plain', uid: 'plain0001' },
      ],
    },
  ]);
  agent = await world.agent();
});
afterEach(() => world.close());

/** The bin's calls to the graph while `work` ran, by kind. */
async function calls(work: () => Promise<unknown>): Promise<{ reads: number; writes: string[] }> {
  world.emulator.clearRequests();
  await work();
  const actions = world.emulator.requests
    .filter((r) => r.graph === 'work')
    .map((r) => (r.body as { action: string }).action);
  return {
    reads: actions.filter((a) => a === 'data.q').length,
    writes: actions.filter((a) => a !== 'data.q'),
  };
}

it('undoes a tag page rename with one write per #Tag form to put back, reads batched', async () => {
  const graph = world.emulator.graph('work');
  const start = graphSnapshot(graph);
  jsonOf(await agent.call('update_page', { uid: 'tagpage01', title: 'Big idea' }));
  const text = (uid: string) =>
    graph.run('data.q', [`[:find ?s . :where [?b :block/uid "${uid}"] [?b :block/string ?s]]`]);
  expect(text('tagged100')).toBe('thought 0 #[[Big idea]]');

  const dry = await calls(() => agent.call('undo_changes', { all: true, dryRun: true }));
  expect(dry.writes).toEqual([]);
  expect(dry.reads).toBeLessThanOrEqual(2);

  let report: { undone: number; conflicts: number } = { undone: 0, conflicts: 0 };
  const undo = await calls(async () => {
    report = jsonOf(await agent.call('undo_changes', { all: true }));
  });
  expect(report).toMatchObject({ undone: 1, conflicts: 0 });
  expect(graphSnapshot(graph)).toEqual(start);
  // The rename back, then one update per `#idea` (the `[[idea]]` links came back by themselves).
  expect(undo.writes).toEqual(['data.page.update', ...Array<string>(TAGGED).fill('data.block.update')]);
  // Batched, not one per block: the undo's read, the consent plan's, and the check that none of
  // the blocks it writes is hidden from AI (docs/mcp.md, hidden blocks).
  expect(undo.reads).toBeLessThanOrEqual(3);
});
