/**
 * read-edit-own asks the journal what agents created: with a token that writes as the person
 * (so Roam's `:create/user` cannot tell), what this machine's agents made (blocks, pages,
 * uploads) is still theirs to edit; a person's block is refused.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { errorOf, jsonOf } from '../../harness/mcp-bin.ts';
import { undoWorld, type UndoWorld } from './changes-setup.ts';

let world: UndoWorld;
beforeEach(async () => {
  world = await undoWorld(
    [{ title: 'Notes', uid: 'notespg01', children: [{ string: 'a person wrote this', uid: 'person001' }] }],
    {},
    { accessLevel: 'read-edit-own', ai: false },
  );
});
afterEach(() => world.close());

it('lets an agent edit what the journal says an agent made, and refuses a person’s block', async () => {
  const agent = await world.agent();
  const made = jsonOf<{ uids: string[] }>(
    await agent.call('create_block', { parentUid: 'notespg01', markdown: 'agent note' }),
  );
  const page = jsonOf<{ uid: string }>(await agent.call('create_page', { title: 'Agent page' }));
  expect(
    jsonOf(await agent.call('update_block', { uid: made.uids[0], string: 'agent note, revised' })),
  ).toMatchObject({ updated: 'block' });
  expect(jsonOf(await agent.call('update_page', { uid: page.uid, title: 'Agent page 2' }))).toMatchObject({
    updated: 'page',
  });
  const refused = errorOf(await agent.call('update_block', { uid: 'person001', string: 'overwritten' }));
  expect(refused.code).toBe('ACCESS_LEVEL');
  expect(refused.message).toMatch(/person001/);

  // A second chat (another process) sees the first one's creations in the same journal.
  const other = await world.agent();
  jsonOf(await other.call('delete_block', { uid: made.uids[0] }));
});

it('knows every block of an outline an agent wrote as its own, nested ones included', async () => {
  const agent = await world.agent();
  jsonOf(
    await agent.call('create_block', { parentUid: 'notespg01', markdown: '- agent list\n  - agent item' }),
  );
  const nested = world.emulator
    .graph('work')
    .run('data.q', ['[:find ?u . :where [?b :block/string "agent item"] [?b :block/uid ?u]]']) as string;

  expect(jsonOf(await agent.call('update_block', { uid: nested, string: 'agent item, done' }))).toMatchObject(
    {
      updated: 'block',
    },
  );
});
