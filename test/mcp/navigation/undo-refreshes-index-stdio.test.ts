/**
 * undo_changes is our own write too: navigation right after it sees the graph as restored, even
 * inside an hour's staleness window, where only dropping the index (not a freshness check) can.
 */
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../emulator/index.ts';
import { TEST_TOKEN } from '../../harness/http-context.ts';
import { startStdioClient, type StdioClient } from '../../harness/mcp-bin.ts';
import { tempDir } from '../../harness/temp-dir.ts';

let home: string;
let emulator: Emulator;
let mcp: StdioClient;

beforeAll(async () => {
  home = await tempDir('undo-index-');
  emulator = await startEmulator({
    home,
    port: 0,
    graphs: [
      {
        name: 'undo-index',
        content: [
          { title: 'Alpha', uid: 'alpha', children: [{ string: 'See [[Beta]]', uid: 'alpha-b1' }] },
          { title: 'Beta', uid: 'beta', children: ['Beta content'] },
          { title: 'Gamma', uid: 'gamma', children: ['Gamma content'] },
        ],
        tokens: [{ token: TEST_TOKEN, accessLevel: 'full' }],
      },
    ],
  });
  mcp = await startStdioClient({
    home,
    graph: 'undo-index',
    nickname: 'Undo',
    token: TEST_TOKEN,
    stalenessMs: 3_600_000,
  });
  expect((await mcp.call('select_graph', { graph: 'Undo' })).result.isError).toBeFalsy();
});

afterAll(async () => {
  await mcp.close();
  await emulator.close();
  await rm(home, { recursive: true, force: true });
});

async function outlinks(title: string): Promise<string[]> {
  const { json } = await mcp.call('get_outlinks', { title });
  return (json.items as Array<{ title: string }>).map((item) => item.title);
}

it('sees the undone edit at once (undo_changes drops the index)', async () => {
  expect(await outlinks('Alpha')).toEqual(['Beta']);
  const edited = await mcp.call('update_block', { uid: 'alpha-b1', string: 'See [[Gamma]] instead' });
  expect(edited.result.isError, JSON.stringify(edited.json)).toBeFalsy();
  expect(await outlinks('Alpha')).toEqual(['Gamma']);
  const undone = await mcp.call('undo_changes', { all: true });
  expect(undone.result.isError, JSON.stringify(undone.json)).toBeFalsy();
  const text = '[:find ?s :where [?b :block/uid "alpha-b1"] [?b :block/string ?s]]';
  expect(await emulator.graph('undo-index').run('data.q', [text])).toEqual([['See [[Beta]]']]);
  expect(await outlinks('Alpha')).toEqual(['Beta']);
});
