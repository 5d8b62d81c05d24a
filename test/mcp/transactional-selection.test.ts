/**
 * The selection is transactional (docs/mcp.md): `select_graph` and the `graph` argument of any
 * tool change the session's graph only when their call succeeded, so a failed call never
 * redirects the next write to another graph.
 */
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { Emulator } from '../emulator/index.ts';
import { errorOf, jsonOf, newToken, type McpHandle } from '../harness/mcp-bin.ts';
import { startStdioWorld, type StdioWorld } from '../harness/stdio-world.ts';

const WORK = newToken();
const PERSONAL = newToken();
let world: StdioWorld;
let emulator: Emulator;
let mcp: McpHandle;

const lastWriteGraph = () =>
  emulator.requests.filter((r) => r.action === 'data.block.fromMarkdown').at(-1)?.graph;
const currentNickname = async () => jsonOf<{ nickname: string }>(await mcp.call('current_graph')).nickname;

beforeAll(async () => {
  world = await startStdioWorld({
    emulator: {
      graphs: [
        { name: 'work', content: 'demo', tokens: [{ token: WORK, accessLevel: 'full' }] },
        { name: 'personal', content: 'demo', tokens: [{ token: PERSONAL, accessLevel: 'full' }] },
      ],
    },
    config: {
      text: JSON.stringify({
        graphs: [
          { name: 'work', nickname: 'Work', token: WORK, accessLevel: 'full' },
          { name: 'personal', nickname: 'Personal', token: PERSONAL, accessLevel: 'full' },
        ],
      }),
      mode: 0o600,
    },
  });
  ({ emulator, mcp } = world);
});

afterAll(() => world?.close());

beforeEach(async () => {
  emulator.setFault(null);
  for (const graph of ['Work', 'Personal', 'Work']) jsonOf(await mcp.call('select_graph', { graph }));
  expect(await currentNickname()).toBe('Work');
});

it('a select_graph that fails leaves the selection where it was: the next write goes to Work', async () => {
  emulator.setFault({ kind: 'status', status: 504 }, { action: 'data.ai.getGraphGuidelines' });
  errorOf(await mcp.call('select_graph', { graph: 'Personal' }));
  emulator.setFault(null);
  expect(await currentNickname()).toBe('Work');
  jsonOf(await mcp.call('create_block', { markdown: 'meant for work', pageTitle: 'Inbox' }));
  expect(lastWriteGraph()).toBe('work');
});

it('a call whose `graph` argument fails does not become the selection; one that succeeds does', async () => {
  emulator.setFault({ kind: 'status', status: 504 }, { action: 'data.ai.getPage' });
  errorOf(await mcp.call('get_page', { graph: 'Personal', title: 'Project Apollo' }));
  emulator.setFault(null);
  errorOf(await mcp.call('get_page', { graph: 'Personal', title: 'No such page anywhere' }));
  expect(await currentNickname()).toBe('Work');
  jsonOf(await mcp.call('create_block', { markdown: 'still work', pageTitle: 'Inbox' }));
  expect(lastWriteGraph()).toBe('work');

  jsonOf(await mcp.call('create_block', { graph: 'Personal', markdown: 'personal', pageTitle: 'Inbox' }));
  expect(await currentNickname()).toBe('Personal');
  jsonOf(await mcp.call('create_block', { markdown: 'follows the selection', pageTitle: 'Inbox' }));
  expect(lastWriteGraph()).toBe('personal');
});
