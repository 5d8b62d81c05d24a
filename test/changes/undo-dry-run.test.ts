/**
 * A dry run reports exactly what the undo then does, when one undone step changes what a later
 * one finds: here undoing a move puts a block (with its child) back under the page an earlier
 * create made, so undoing that create finds the page as written and removes it.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { jsonOf, type McpHandle } from '../harness/mcp-bin.ts';
import { graphSnapshot } from './graph-snapshot.ts';
import { undoWorld, type UndoWorld } from './changes-setup.ts';

let world: UndoWorld;
let agent: McpHandle;
beforeAll(async () => {
  world = await undoWorld([{ title: 'Elsewhere', uid: 'elsewhere', children: [] }]);
  agent = await world.agent();
});
afterAll(() => world.close());

interface Report {
  undone: number;
  conflicts: number;
  changes: Array<{ result: string; steps: Array<{ status: string; detail: string }> }>;
}

it('models a block moved back, children and all, before judging the page that held it', async () => {
  const graph = world.emulator.graph('work');
  const start = graphSnapshot(graph);
  const made = jsonOf<{ uid: string }>(
    await agent.call('create_page', { title: 'Made', markdown: '- top\n  - child\n- second' }),
  );
  const top = graph.run('data.q', [
    '[:find ?u . :in $ ?p :where [?pg :block/uid ?p] [?b :block/page ?pg] [?b :block/string "top"] [?b :block/uid ?u]]',
    made.uid,
  ]) as string;
  jsonOf(await agent.call('move_block', { uid: top, parentUid: 'elsewhere', order: 'last' }));

  const moved = graphSnapshot(graph);
  const dry = jsonOf<Report>(await agent.call('undo_changes', { all: true, dryRun: true }));
  expect(graphSnapshot(graph)).toEqual(moved);
  const undo = jsonOf<Report>(await agent.call('undo_changes', { all: true }));

  expect(dry.changes.map((c) => c.result)).toEqual(['would-undo', 'would-undo']);
  expect(undo.changes.map((c) => c.result)).toEqual(['undone', 'undone']);
  expect(dry.changes.map((c) => c.steps.map((s) => s.detail))).toEqual(
    undo.changes.map((c) => c.steps.map((s) => s.detail)),
  );
  expect(graphSnapshot(graph)).toEqual(start);
});
