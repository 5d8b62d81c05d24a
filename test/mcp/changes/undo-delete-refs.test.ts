/**
 * Undoing deletes of blocks that refer to other blocks: after a batch delete of blocks referring
 * to each other, the text Roam rewrote outside them comes back (Roam deletes the listed blocks one
 * after another, so the second delete writes in the text the first one left); a restored block
 * keeps its reference to a block someone deleted in the meantime (docs/undo.md).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { jsonOf, type McpHandle } from '../../harness/mcp-bin.ts';
import { graphSnapshot } from './graph-snapshot.ts';
import { undoWorld, type UndoWorld } from './changes-setup.ts';

let world: UndoWorld;
let agent: McpHandle;
beforeAll(async () => {
  world = await undoWorld([
    {
      title: 'Pair',
      uid: 'pairpage1',
      children: [
        { string: 'first ((second01))', uid: 'first0001' },
        { string: '((first0001)) second', uid: 'second01' },
        { string: 'outside ((first0001))', uid: 'outside01' },
      ],
    },
    {
      title: 'Quote',
      uid: 'quotepage',
      children: [
        { string: 'quoting ((source001))', uid: 'quoting01' },
        { string: 'the source', uid: 'source001' },
      ],
    },
  ]);
  agent = await world.agent();
});
afterAll(() => world.close());

it('restores the referring block after deleting two blocks that refer to each other', async () => {
  const graph = world.emulator.graph('work');
  const start = graphSnapshot(graph);
  jsonOf(await agent.call('delete_blocks', { uids: ['first0001', 'second01'] }));
  expect(graph.run('data.pull', ['[:block/string]', [':block/uid', 'outside01']])).not.toEqual({
    ':block/string': 'outside ((first0001))',
  });

  const undo = jsonOf<{ changes: Array<{ result: string }> }>(
    await agent.call('undo_changes', { all: true }),
  );

  expect(undo.changes.map((c) => c.result)).toEqual(['undone']);
  expect(graphSnapshot(graph)).toEqual(start);
});

it('restores a block with its reference to a block someone deleted in the meantime', async () => {
  const graph = world.emulator.graph('work');
  jsonOf(await agent.call('delete_block', { uid: 'quoting01' }));
  graph.asPerson('Bea').run('data.block.delete', [{ block: { uid: 'source001' } }]);

  const undo = jsonOf<{ changes: Array<{ result: string }> }>(
    await agent.call('undo_changes', { all: true }),
  );

  expect(undo.changes[0]?.result).toBe('undone');
  expect(graph.run('data.pull', ['[:block/string]', [':block/uid', 'quoting01']])).toEqual({
    ':block/string': 'quoting ((source001))',
  });
});
