/**
 * Blocks nested in a created outline are known by position only. A person who deletes the
 * agent's block and writes their own in its place (never edited since: Roam marks it unedited
 * too) must not have it taken for the agent's: the undo leaves the page and reports a conflict.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { jsonOf, type McpHandle } from '../../harness/mcp-bin.ts';
import { undoWorld, type UndoWorld } from './changes-setup.ts';

let world: UndoWorld;
let agent: McpHandle;
beforeAll(async () => {
  world = await undoWorld([]);
  agent = await world.agent();
});
afterAll(() => world.close());

it("keeps a person's block that took the place of the agent's in a created page", async () => {
  const graph = world.emulator.graph('work');
  const made = jsonOf<{ uid: string }>(
    await agent.call('create_page', { title: 'Made', markdown: '- linen' }),
  );
  const person = graph.asPerson('Bea');
  const agents = graph.run('data.q', [
    '[:find ?u . :in $ ?p :where [?pg :block/uid ?p] [?b :block/parents ?pg] [?b :block/uid ?u]]',
    made.uid,
  ]) as string;
  person.run('data.block.delete', [{ block: { uid: agents } }]);
  person.run('data.block.create', [
    { location: { 'parent-uid': made.uid, order: 'last' }, block: { uid: 'beas-0001', string: 'bea wrote' } },
  ]);

  const undo = jsonOf<{ changes: Array<{ result: string; steps: Array<{ detail: string }> }> }>(
    await agent.call('undo_changes', { all: true }),
  );

  expect(undo.changes.map((c) => c.result)).toEqual(['conflict']);
  expect(undo.changes[0]?.steps[0]?.detail).toContain(
    "a block someone wrote, 'bea wrote', took the place of 'linen'",
  );
  expect(graph.run('data.pull', ['[:block/string]', [':block/uid', 'beas-0001']])).toEqual({
    ':block/string': 'bea wrote',
  });
});
