/**
 * A person renames a page between the agent's write and the undo. Undoing the agent's blocks on it
 * takes back only them and leaves the person's title; undoing the agent's own rename of a page the
 * person renamed again since leaves the person's title and says so.
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

type Undo = { changes: Array<{ result: string; steps: Array<{ detail: string }> }> };
const titleOf = (uid: string) =>
  world.emulator.graph('work').run('data.pull', ['[:node/title]', [':block/uid', uid]]);
const childTexts = (uid: string) =>
  world.emulator
    .graph('work')
    .run('data.q', [
      '[:find [?s ...] :in $ ?p :where [?pg :block/uid ?p] [?b :block/parents ?pg] [?b :block/string ?s]]',
      uid,
    ]) as string[];

it("takes back the agent's blocks on a page the person renamed since, and keeps the person's title and block", async () => {
  const graph = world.emulator.graph('work');
  const page = jsonOf<{ uid: string }>(await agent.call('create_page', { title: 'Trip' }));
  jsonOf(await agent.call('create_block', { pageTitle: 'Trip', markdown: '- pack linen' }));
  const person = graph.asPerson('Bea');
  person.run('data.page.update', [{ page: { uid: page.uid, title: 'Trip to Lisbon' } }]);
  person.run('data.block.create', [
    {
      location: { 'parent-uid': page.uid, order: 'last' },
      block: { uid: 'beas-trip1', string: 'bea: book train' },
    },
  ]);

  const undo = jsonOf<Undo>(await agent.call('undo_changes', { all: true }));

  expect(childTexts(page.uid)).toEqual(['bea: book train']);
  expect(titleOf(page.uid)).toEqual({ ':node/title': 'Trip to Lisbon' });
  // The page holds a person's block now: its creation is not taken back.
  expect(undo.changes.map((c) => c.result)).toContain('conflict');
});

it("leaves a title the person changed after the agent's rename, and says whose it is", async () => {
  const graph = world.emulator.graph('work');
  const page = jsonOf<{ uid: string }>(await agent.call('create_page', { title: 'Budget' }));
  const person = graph.asPerson('Bea');
  person.run('data.block.create', [
    {
      location: { 'parent-uid': page.uid, order: 'last' },
      block: { uid: 'beas-bud01', string: 'bea: rent' },
    },
  ]);
  jsonOf(await agent.call('update_page', { uid: page.uid, title: 'Budget 2027' }));
  person.run('data.page.update', [{ page: { uid: page.uid, title: 'Household budget' } }]);

  const undo = jsonOf<Undo>(await agent.call('undo_changes', { all: true }));

  expect(titleOf(page.uid)).toEqual({ ':node/title': 'Household budget' });
  expect(childTexts(page.uid)).toEqual(['bea: rent']);
  const rename = undo.changes.find((c) => c.steps.some((s) => s.detail.includes('by someone else')));
  expect(rename).toMatchObject({
    result: 'conflict',
    steps: [{ detail: "renamed to 'Household budget' by someone else since" }],
  });
});
