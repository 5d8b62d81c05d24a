/**
 * An undo does not launder ownership (issue 40, item 1): a block an undo or redo recreates keeps
 * the owner it had, although Roam names the restoring token's AI user its creator. A person's
 * block a full-access chat deleted and then brought back, by the chat's undo, the CLI's undo or
 * a redo, stays the person's: a read-edit-own chat is refused it. An agent's block brought back
 * stays the agent's.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { errorOf, jsonOf, toolsConfig, type McpHandle } from '../../harness/mcp-bin.ts';
import { undoWorld, type UndoWorld } from './changes-setup.ts';

let world: UndoWorld;
let full: McpHandle;
beforeEach(async () => {
  world = await undoWorld([
    {
      title: 'Notes',
      uid: 'notespg01',
      children: [
        {
          string: 'a person wrote this',
          uid: 'person001',
          children: [{ string: 'and this', uid: 'person002' }],
        },
      ],
    },
  ]);
  full = await world.agent();
});
afterEach(() => world.close());

/** A second chat on the same graph, under read-edit-own (the person lowered the level). */
async function editOwnChat(): Promise<McpHandle> {
  const file = path.join(world.home, '.roam-tools.json');
  const { graphs } = JSON.parse(await readFile(file, 'utf8')) as { graphs: Array<{ token: string }> };
  await writeFile(
    file,
    toolsConfig([{ name: 'work', token: graphs[0]!.token, accessLevel: 'read-edit-own' }]),
    {
      mode: 0o600,
    },
  );
  return world.agent();
}

async function ids(chat: McpHandle): Promise<string[]> {
  return jsonOf<{ changes: Array<{ id: string }> }>(await chat.call('list_changes', {})).changes.map(
    (c) => c.id,
  );
}

async function expectRefused(chat: McpHandle, uid: string): Promise<void> {
  const edit = errorOf(await chat.call('update_block', { uid, string: 'taken over' }));
  expect(edit.code).toBe('ACCESS_LEVEL');
  expect(edit.message).toContain(uid);
  const del = errorOf(await chat.call('delete_block', { uid }));
  expect(del.code).toBe('ACCESS_LEVEL');
  const child = errorOf(await chat.call('update_block', { uid: 'person002', string: 'taken over' }));
  expect(child.code).toBe('ACCESS_LEVEL');
}

it("keeps a person's block the person's after a chat's undo brought it back", async () => {
  jsonOf(await full.call('delete_block', { uid: 'person001' }));
  jsonOf(await full.call('undo_changes', { all: true }));

  await expectRefused(await editOwnChat(), 'person001');
});

it("keeps a person's block the person's after the CLI's undo brought it back", async () => {
  jsonOf(await full.call('delete_block', { uid: 'person001' }));
  const [id] = await ids(full);
  const cli = await world.cli('undo', id!);
  expect(cli.status).toBe(0);

  await expectRefused(await editOwnChat(), 'person001');
});

it("keeps a person's block the person's through an undo, a redo and an undo of the redo", async () => {
  jsonOf(await full.call('delete_block', { uid: 'person001' }));
  const undo = jsonOf<{ undoIds: string[] }>(await full.call('undo_changes', { all: true }));
  const redo = jsonOf<{ undoIds: string[] }>(await full.call('undo_changes', { ids: undo.undoIds }));
  jsonOf(await full.call('undo_changes', { ids: redo.undoIds }));

  await expectRefused(await editOwnChat(), 'person001');
});

it("keeps an agent's block the agent's after an undo brought it back", async () => {
  const made = jsonOf<{ uids: string[] }>(
    await full.call('create_block', { parentUid: 'notespg01', markdown: '- agent list\n  - agent item' }),
  );
  const uid = made.uids[0]!;
  jsonOf(await full.call('delete_block', { uid }));
  const [deleted] = await ids(full);
  jsonOf(await full.call('undo_changes', { ids: [deleted!] }));

  const own = await editOwnChat();
  expect(jsonOf(await own.call('update_block', { uid, string: 'agent list, revised' }))).toMatchObject({
    updated: 'block',
  });
  jsonOf(await own.call('delete_block', { uid }));
});
