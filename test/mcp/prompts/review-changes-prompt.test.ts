/**
 * /review-changes through the built bin with real SDK clients against the emulator: what two
 * chats changed on the graph, from the machine's change journal, each change with its id and
 * state, this chat's marked; a change to a block hidden from AI listed without its text; chat
 * ids completed; a `since` that is not a time refused by name.
 */
import type { GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { jsonOf, newToken, startMcp, type McpHandle } from '../../harness/mcp-bin.ts';
import { startStdioWorld, type StdioWorld } from '../../harness/stdio-world.ts';

const TOKEN = newToken();
let world: StdioWorld;
let mine: McpHandle;
let other: McpHandle;

interface Listed {
  changes: Array<{ id: string; summary: string }>;
}

beforeAll(async () => {
  world = await startStdioWorld({
    prefix: 'roam-review-',
    emulator: {
      graphs: [
        {
          name: 'work',
          content: [
            { title: 'Project', uid: 'projpage1', children: [{ string: 'alpha', uid: 'alpha0001' }] },
          ],
          tokens: [{ token: TOKEN, accessLevel: 'full' }],
        },
      ],
    },
    config: [{ name: 'work', token: TOKEN, nickname: 'Work' }],
    mcp: { clientName: 'mine-client' },
    orient: ['Work'],
  });
  mine = world.mcp;
  // Another chat on the same machine: a second bin in the world's HOME.
  other = await startMcp({ home: world.home, clientName: 'other-client' });
  jsonOf(await other.call('select_graph', { graph: 'Work' }));
});

afterAll(async () => {
  await other?.close();
  await world?.close();
});

const text = (result: GetPromptResult) =>
  result.messages.map((m) => (m.content.type === 'text' ? m.content.text : '')).join('\n');

async function changesOf(chat: McpHandle) {
  return jsonOf<Listed>(await chat.call('list_changes', {})).changes;
}

it('lists every chat’s changes on the graph with ids and states, this chat marked', async () => {
  jsonOf(await mine.call('update_block', { uid: 'alpha0001', string: 'alpha, rewritten by mine' }));
  jsonOf(await other.call('create_block', { parentUid: 'projpage1', markdown: 'added by other' }));
  const [myChange] = await changesOf(mine);
  const [theirChange] = await changesOf(other);

  const result = await mine.client.getPrompt({ name: 'review-changes', arguments: {} });
  const body = text(result);
  expect(result.description).toMatch(/^Agent changes in Work since /);
  expect(body).toContain('2 changes, newest first');
  expect(body).toMatch(new RegExp(`- ${myChange!.id} .*\\(this chat\\) \\(mine-client\\): Edited a block`));
  expect(body).toContain("'alpha, rewritten by mine'");
  expect(body).toMatch(new RegExp(`- ${theirChange!.id} .*\\(other-client\\): Added 'added by other'`));
  expect(body).not.toMatch(new RegExp(`${theirChange!.id} [^\\n]*\\(this chat\\)`));
  expect(body).toContain('roam-mcp undo --chat');

  const onlyMine = text(await mine.client.getPrompt({ name: 'review-changes', arguments: { chat: 'this' } }));
  expect(onlyMine).toContain('1 change, newest first');
  expect(onlyMine).not.toContain(theirChange!.id);
});

it('lists a change to a block hidden from AI without its text', async () => {
  jsonOf(await other.call('create_block', { parentUid: 'projpage1', markdown: 'SECRET plan #.rm-hide' }));
  const body = text(await mine.client.getPrompt({ name: 'review-changes', arguments: { since: '1h' } }));
  expect(body).toContain('create_block on a block hidden from AI');
  expect(body).not.toContain('SECRET');
});

it('completes chat ids from the journal, and refuses a since that is not a time', async () => {
  const [theirChange] = await changesOf(other);
  const chats = await mine.client.complete({
    ref: { type: 'ref/prompt', name: 'review-changes' },
    argument: { name: 'chat', value: '' },
  });
  expect(chats.completion.values[0]).toBe('this');
  expect(chats.completion.values.length).toBe(3);
  const body = text(await mine.client.getPrompt({ name: 'review-changes', arguments: {} }));
  const theirChat = new RegExp(`${theirChange!.id} \\S+ chat (\\S+)`).exec(body)?.[1];
  expect(chats.completion.values).toContain(theirChat);

  const refused = await mine.client
    .getPrompt({ name: 'review-changes', arguments: { since: 'last week' } })
    .then(
      () => undefined,
      (error: unknown) => error as { code: number; message: string },
    );
  expect(refused?.code).toBe(-32602);
  expect(refused?.message).toMatch(/`since` 'last week' is not a time: use an ISO time/);
});
