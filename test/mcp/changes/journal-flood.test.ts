/**
 * An agent cannot erase the record of what it did (issue 31, case 3): refused writes keep a small
 * record, not their payload; a chat past its quota is refused before Roam sees the write; pruning
 * never drops another chat's recent entry to make room; `roam-mcp changes --json` stays small.
 * The limits are scaled down (ROAM_MCP_TEST_JOURNAL_LIMITS) so the flood takes seconds.
 */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { errorOf, jsonOf, type McpHandle } from '../../harness/mcp-bin.ts';
import { undoWorld, type UndoWorld } from './changes-setup.ts';

const MB = 1024 * 1024;
const LIMITS = { maxBytes: 3 * MB, segmentBytes: 1 * MB, chatBytes: 2 * MB };
const env = { ROAM_MCP_TEST_JOURNAL_LIMITS: JSON.stringify(LIMITS) };

let world: UndoWorld;
let agent: McpHandle;
beforeAll(async () => {
  world = await undoWorld([
    { title: 'Person page', uid: 'personpg1', children: [{ string: 'keep me', uid: 'keepme001' }] },
    { title: 'Scratch', uid: 'scratch01', children: [] },
  ]);
  agent = await world.agent(env);
});
afterAll(() => world.close());

const graph = () => world.emulator.graph('work');
const blocksUnder = (uid: string) =>
  (graph().run('data.q', [
    '[:find (count ?c) . :in $ ?u :where [?p :block/uid ?u] [?p :block/children ?c]]',
    uid,
  ]) as number | null) ?? 0;

async function journalBytes(): Promise<number> {
  const dir = path.join(world.home, '.local/share/roam-companion/journal');
  const names = (await readdir(dir)).filter((n) => n.endsWith('.jsonl'));
  const sizes = await Promise.all(names.map(async (n) => (await stat(path.join(dir, n))).size));
  return sizes.reduce((a, b) => a + b, 0);
}

/** Writes 400 KB blocks until the chat is refused; the writes it made. */
async function fillQuota(chat: McpHandle): Promise<number> {
  for (let made = 0; made < 20; made++) {
    const result = await chat.call('create_block', { parentUid: 'scratch01', markdown: 'y'.repeat(400_000) });
    if (result.isError) {
      const refused = errorOf(result);
      expect(refused.code).toBe('JOURNAL_QUOTA');
      expect(refused.message).toContain('new chat');
      return made;
    }
  }
  throw new Error('the chat was never refused');
}

it('keeps the record of a delete through a flood of refused writes, quota-filling chats, and pruning', async () => {
  jsonOf(await agent.call('delete_page', { uid: 'personpg1' }));
  const deleteId = jsonOf<{ changes: Array<{ id: string }> }>(await agent.call('list_changes', {})).changes[0]
    ?.id as string;

  for (let i = 0; i < 16; i++) {
    const refused = await agent.call('create_block', {
      parentUid: 'nosuchuid',
      markdown: 'x'.repeat(1_000_000),
    });
    expect(refused.isError).toBe(true);
  }
  expect(await journalBytes()).toBeLessThan(200_000);

  const made = await fillQuota(agent);
  expect(made).toBeGreaterThan(0);
  expect(blocksUnder('scratch01')).toBe(made);
  const other = await world.agent(env);
  const madeByOther = await fillQuota(other);
  expect(blocksUnder('scratch01')).toBe(made + madeByOther);
  expect(await journalBytes()).toBeGreaterThan(LIMITS.maxBytes);

  const listed = await world.cli('changes', '--json');
  expect(listed.stdout.length).toBeLessThan(100_000);
  expect(JSON.parse(listed.stdout).changes.map((c: { id: string }) => c.id)).toContain(deleteId);
  const undo = jsonOf<{ changes: Array<{ result: string }> }>(
    await agent.call('undo_changes', { ids: [deleteId] }),
  );
  expect(undo.changes.map((c) => c.result)).toEqual(['undone']);
  expect(graph().run('data.pull', ['[:block/string]', [':block/uid', 'keepme001']])).toEqual({
    ':block/string': 'keep me',
  });
});
