/**
 * Under `read-edit-own` a move carries the whole subtree with it: an agent may move its own block
 * only while every block under it is an agent's too (issue 31, case 5). Otherwise it would carry a
 * person's blocks to another page, which it may not edit.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { errorOf, jsonOf, type McpHandle } from '../../harness/mcp-bin.ts';
import { undoWorld, type UndoWorld } from '../changes/changes-setup.ts';

let world: UndoWorld;
let agent: McpHandle;
beforeEach(async () => {
  world = await undoWorld(
    [
      { title: 'Notes', uid: 'notespg01', children: [] },
      { title: 'Elsewhere', uid: 'elsewhere', children: [] },
    ],
    {},
    { accessLevel: 'read-edit-own' },
  );
  agent = await world.agent();
});
afterEach(() => world.close());

const parentOf = (uid: string) =>
  world.emulator
    .graph('work')
    .run('data.q', [
      '[:find ?p . :in $ ?u :where [?b :block/uid ?u] [?pb :block/children ?b] [?pb :block/uid ?p]]',
      uid,
    ]);

it("refuses to move an agent's block that carries a person's block", async () => {
  const made = jsonOf<{ uids: string[] }>(
    await agent.call('create_block', { parentUid: 'notespg01', markdown: '- agent list\n  - agent item' }),
  );
  const top = made.uids[0] as string;
  world.emulator
    .graph('work')
    .asPerson('Bea')
    .run('data.block.create', [
      { location: { 'parent-uid': top, order: 'last' }, block: { uid: 'beaitem01', string: 'bea item' } },
    ]);

  const refused = errorOf(
    await agent.call('move_block', { uid: top, parentUid: 'elsewhere', order: 'last' }),
  );

  expect(refused.code).toBe('ACCESS_LEVEL');
  expect(refused.message).toContain('1 block(s) under it were not created by an agent');
  expect(parentOf('beaitem01')).toBe(top);
  expect(parentOf(top)).toBe('notespg01');
});

it("moves an agent's block whose whole subtree is an agent's", async () => {
  const made = jsonOf<{ uids: string[] }>(
    await agent.call('create_block', { parentUid: 'notespg01', markdown: '- agent list\n  - agent item' }),
  );
  const top = made.uids[0] as string;

  jsonOf(await agent.call('move_block', { uid: top, parentUid: 'elsewhere', order: 'last' }));

  expect(parentOf(top)).toBe('elsewhere');
});
