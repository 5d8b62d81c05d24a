/**
 * What an agent is shown of its changes never quotes a block hidden from AI (`#.rm-hide`,
 * `#.rm-private`), whether hidden now or when it was written (issue 31, case 4): not in
 * list_changes, not in undo_changes or its dry run, not in a conflict's text.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { jsonOf, textOf, type McpHandle } from '../../harness/mcp-bin.ts';
import { undoWorld, type UndoWorld } from './changes-setup.ts';

let world: UndoWorld;
let agent: McpHandle;
beforeEach(async () => {
  world = await undoWorld([
    {
      title: 'Home',
      uid: 'homepage1',
      children: [
        {
          string: 'wifi password hunter2 #.rm-private',
          uid: 'wifiblock',
          children: [{ string: 'backup code 80085', uid: 'codechild' }],
        },
      ],
    },
  ]);
  agent = await world.agent();
});
afterEach(() => world.close());

const person = () => world.emulator.graph('work').asPerson('Bea');

/**
 * Everything the agent is told about its changes: the list, the dry run, the undo (a refusal
 * when the undo would change a hidden block), and the list again after it; whole results, the
 * app's data in `_meta` too.
 */
async function everythingTheAgentGets(): Promise<string> {
  const list = JSON.stringify(await agent.call('list_changes', {}));
  const dry = JSON.stringify(await agent.call('undo_changes', { all: true, dryRun: true }));
  const undo = JSON.stringify(await agent.call('undo_changes', { all: true }));
  const after = JSON.stringify(await agent.call('list_changes', {}));
  return [list, dry, undo, after].join('\n');
}

// Since issue 46 an agent's write to a hidden block is refused (test/mcp/hidden-writes.test.ts):
// these check that the refusal, and whatever the agent is told afterwards, quotes nothing hidden.

it('never quotes the text of a private block the agent tried to overwrite', async () => {
  const refused = JSON.stringify(await agent.call('update_block', { uid: 'wifiblock', string: 'x' }));

  const seen = refused + (await everythingTheAgentGets());

  expect(seen).not.toContain('hunter2');
  expect(seen).toContain('hidden');
});

it('never quotes a block a person made private after the agent wrote it', async () => {
  const made = jsonOf<{ uids: string[] }>(
    await agent.call('create_block', { parentUid: 'homepage1', markdown: 'door code' }),
  );
  person().run('data.block.update', [{ block: { uid: made.uids[0], string: 'door code 4711 #.rm-hide' } }]);

  const seen = await everythingTheAgentGets();

  expect(seen).not.toContain('4711');
  expect(seen).not.toContain('door code');
  expect(seen).toContain('hidden');
});

it("never quotes a private block that refers to the agent's block in a conflict", async () => {
  const made = jsonOf<{ uids: string[] }>(
    await agent.call('create_block', { parentUid: 'homepage1', markdown: 'safe' }),
  );
  person().run('data.block.create', [
    {
      location: { 'parent-uid': 'homepage1', order: 'last' },
      block: { string: `((${made.uids[0]})) combination 1234 #.rm-private` },
    },
  ]);

  const seen = [
    textOf(await agent.call('undo_changes', { all: true, dryRun: true })),
    textOf(await agent.call('undo_changes', { all: true })),
  ].join('\n');

  expect(seen).toContain('conflict');
  expect(seen).not.toContain('1234');
});

it('never quotes the text of a block under a private block the agent tried to change', async () => {
  const refused = [
    JSON.stringify(await agent.call('update_block', { uid: 'codechild', string: 'rotated' })),
    JSON.stringify(await agent.call('delete_block', { uid: 'codechild' })),
    JSON.stringify(await agent.call('move_block', { uid: 'codechild', parentUid: 'homepage1' })),
  ].join('\n');

  const seen = refused + (await everythingTheAgentGets());

  expect(seen).not.toContain('80085');
  expect(seen).toContain('hidden');
});

it('never quotes a block the agent added and a person then moved under a private block', async () => {
  const made = jsonOf<{ uids: string[] }>(
    await agent.call('create_block', { parentUid: 'homepage1', markdown: 'spare key 2023' }),
  );
  person().run('data.block.move', [
    { location: { 'parent-uid': 'wifiblock', order: 'last' }, block: { uid: made.uids[0] } },
  ]);

  const seen = await everythingTheAgentGets();

  expect(seen).not.toContain('2023');
  expect(seen).toContain('hidden');
});
