/**
 * The journal quota charges bytes as written, every record included, and bounds a client, not
 * only each of its chats (issue 40, item 12): with 3-byte characters a chat is refused before its
 * records on disk pass its quota; a client that opens chat after chat is refused once its chats
 * recorded the client's quota, while another client still writes. Limits scaled down
 * (ROAM_MCP_TEST_JOURNAL_LIMITS), through the built bin against the emulator.
 */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { errorOf, jsonOf, startMcp, type McpHandle } from '../../harness/mcp-bin.ts';
import { undoWorld, type UndoWorld } from './changes-setup.ts';

const LIMITS = { chatBytes: 200_000, clientBytes: 300_000 };
const env = { ROAM_MCP_TEST_JOURNAL_LIMITS: JSON.stringify(LIMITS) };

let world: UndoWorld;
beforeEach(async () => {
  world = await undoWorld([
    { title: 'Scratch', uid: 'scratch01', children: [{ string: 'x', uid: 'target001' }] },
  ]);
});
afterEach(() => world.close());

async function journalBytes(): Promise<number> {
  const dir = path.join(world.home, '.local/share/roam-companion/journal');
  const names = (await readdir(dir)).filter((n) => n.endsWith('.jsonl'));
  const sizes = await Promise.all(names.map(async (n) => (await stat(path.join(dir, n))).size));
  return sizes.reduce((a, b) => a + b, 0);
}

/** Edits a block with 3-byte characters until the chat is refused; the refusal. */
async function fill(chat: McpHandle, max = 40) {
  for (let i = 0; i < max; i++) {
    const result = await chat.call('update_block', { uid: 'target001', string: `${i} ${'€'.repeat(6_000)}` });
    if (result.isError) return errorOf(result);
  }
  throw new Error('never refused');
}

it('refuses a chat before its records on disk pass its quota, 3-byte characters and all', async () => {
  const chat = await world.agent(env);
  const refused = await fill(chat);
  expect(refused.code).toBe('JOURNAL_QUOTA');
  expect(refused.message).toContain('this chat');
  await chat.close();
  expect(await journalBytes()).toBeLessThanOrEqual(LIMITS.chatBytes);
});

it('refuses a client a new chat once its chats recorded the client quota; another client still writes', async () => {
  await fill(await world.agent(env));
  await fill(await world.agent(env));
  const third = await world.agent(env);
  const refused = errorOf(await third.call('update_block', { uid: 'target001', string: 'small' }));
  expect(refused.code).toBe('JOURNAL_QUOTA');
  expect(refused.message).toMatch(/one client may record at most/);

  const other = await startMcp({ home: world.home, env, clientName: 'another-client' });
  try {
    jsonOf(await other.call('select_graph', { graph: 'work' }));
    expect(jsonOf(await other.call('update_block', { uid: 'target001', string: 'small' }))).toMatchObject({
      updated: 'block',
    });
  } finally {
    await other.close();
  }
});
