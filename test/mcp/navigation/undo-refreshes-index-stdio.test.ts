/**
 * undo_changes is our own write too: navigation right after it sees the graph as restored, even
 * inside an hour's staleness window, where only dropping the index (not a freshness check) can.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startIndexWorld, type IndexWorld } from './index-world.ts';

let world: IndexWorld;

beforeAll(async () => {
  world = await startIndexWorld({
    prefix: 'undo-index-',
    graph: 'undo-index',
    nickname: 'Undo',
    content: [
      { title: 'Alpha', uid: 'alpha', children: [{ string: 'See [[Beta]]', uid: 'alpha-b1' }] },
      { title: 'Beta', uid: 'beta', children: ['Beta content'] },
      { title: 'Gamma', uid: 'gamma', children: ['Gamma content'] },
    ],
    stalenessMs: 3_600_000,
  });
});

afterAll(() => world?.close());

it('sees the undone edit at once (undo_changes drops the index)', async () => {
  expect(await world.outlinks('Alpha')).toEqual(['Beta']);
  const edited = await world.mcp.call('update_block', { uid: 'alpha-b1', string: 'See [[Gamma]] instead' });
  expect(edited.result.isError, JSON.stringify(edited.json)).toBeFalsy();
  expect(await world.outlinks('Alpha')).toEqual(['Gamma']);
  const undone = await world.mcp.call('undo_changes', { all: true });
  expect(undone.result.isError, JSON.stringify(undone.json)).toBeFalsy();
  const text = '[:find ?s :where [?b :block/uid "alpha-b1"] [?b :block/string ?s]]';
  expect(await world.emulator.graph('undo-index').run('data.q', [text])).toEqual([['See [[Beta]]']]);
  expect(await world.outlinks('Alpha')).toEqual(['Beta']);
});
