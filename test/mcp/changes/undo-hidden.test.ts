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

/** Everything the agent is told about its changes: the list, the dry run, the undo. */
async function whatTheAgentSees(): Promise<string> {
  const list = textOf(await agent.call('list_changes', {}));
  const dry = textOf(await agent.call('undo_changes', { all: true, dryRun: true }));
  const undo = textOf(await agent.call('undo_changes', { all: true }));
  jsonOf(await agent.call('undo_changes', { all: true, dryRun: true }));
  return [list, dry, undo].join('\n');
}

/** Whole results (the app's data in `_meta` too), and the list again after the undo (its own entry). */
async function everythingTheAgentGets(): Promise<string> {
  const list = JSON.stringify(await agent.call('list_changes', {}));
  const dry = JSON.stringify(await agent.call('undo_changes', { all: true, dryRun: true }));
  const undo = JSON.stringify(await agent.call('undo_changes', { all: true }));
  const after = JSON.stringify(await agent.call('list_changes', {}));
  return [list, dry, undo, after].join('\n');
}

it('never quotes the old text of a private block the agent overwrote', async () => {
  jsonOf(await agent.call('update_block', { uid: 'wifiblock', string: 'x' }));

  const seen = await whatTheAgentSees();

  expect(seen).not.toContain('hunter2');
  expect(seen).toContain('hidden');
});

it('never quotes a block a person made private after the agent wrote it', async () => {
  const made = jsonOf<{ uids: string[] }>(
    await agent.call('create_block', { parentUid: 'homepage1', markdown: 'door code' }),
  );
  person().run('data.block.update', [{ block: { uid: made.uids[0], string: 'door code 4711 #.rm-hide' } }]);

  const seen = await whatTheAgentSees();

  expect(seen).not.toContain('4711');
  expect(seen).not.toContain('door code');
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

  const seen = await whatTheAgentSees();

  expect(seen).toContain('conflict');
  expect(seen).not.toContain('1234');
});

it('never quotes the old text of a block under a private block (hidden by its ancestor)', async () => {
  jsonOf(await agent.call('update_block', { uid: 'codechild', string: 'rotated' }));

  const seen = await whatTheAgentSees();

  expect(seen).not.toContain('80085');
  expect(seen).toContain('hidden');
});

it('never quotes the text of a block that was under a private block when it was written', async () => {
  jsonOf(await agent.call('update_block', { uid: 'codechild', string: 'rotated' }));
  // The person moves it out from under the private block: hidden when recorded stays hidden.
  person().run('data.block.move', [
    { location: { 'parent-uid': 'homepage1', order: 'last' }, block: { uid: 'codechild' } },
  ]);

  const seen = await everythingTheAgentGets();

  expect(seen).not.toContain('80085');
  expect(seen).toContain('hidden');
});

it('never quotes a block deleted from under a private block, nor its restore', async () => {
  jsonOf(await agent.call('delete_block', { uid: 'codechild' }));
  person().run('data.block.update', [{ block: { uid: 'wifiblock', string: 'wifi password hunter2' } }]);

  const seen = await everythingTheAgentGets();

  expect(seen).not.toContain('80085');
  expect(seen).toContain('hidden');
});
