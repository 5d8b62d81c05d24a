/**
 * Roam's pull returns at most 1,000 values of a to-many attribute unless told `:limit nil`: the
 * journal reads what it must restore with it, so a page with more children than that comes back
 * whole after its delete is undone, and a page linked from more blocks than that keeps every link.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { PageSpec } from '../../emulator/index.ts';
import { jsonOf, newToken } from '../../harness/mcp-bin.ts';
import { startStdioWorld, type StdioWorld } from '../../harness/stdio-world.ts';
import { graphSnapshot } from './graph-snapshot.ts';

const TOKEN = newToken();
const BLOCKS = 1_001;
const content: PageSpec[] = [
  {
    title: 'Big',
    uid: 'bigpage01',
    children: Array.from({ length: BLOCKS }, (_, i) => ({
      string: `line ${i}`,
      uid: `big${String(i).padStart(6, '0')}`,
    })),
  },
  {
    title: 'Linked',
    uid: 'linkedpg1',
    children: Array.from({ length: BLOCKS }, (_, i) => ({
      string: `see [[Big]] ${i}`,
      uid: `lnk${String(i).padStart(6, '0')}`,
    })),
  },
];

let world: StdioWorld;
beforeAll(async () => {
  world = await startStdioWorld({
    emulator: {
      graphs: [{ name: 'work', content, tokens: [{ token: TOKEN, accessLevel: 'full', ai: true }] }],
    },
    config: [{ name: 'work', token: TOKEN, accessLevel: 'full' }],
    orient: ['work'],
  });
});
afterAll(() => world?.close());

it('undoing the delete of a page with 1,001 blocks, linked from 1,001 blocks, restores every block and link', async () => {
  const graph = () => world.emulator.graph('work');
  const before = graphSnapshot(graph());
  jsonOf(await world.mcp.call('delete_page', { uid: 'bigpage01' }));
  expect(graphSnapshot(graph())).not.toEqual(before);
  const undo = jsonOf<{ undone: number; conflicts: number }>(
    await world.mcp.call('undo_changes', { all: true }),
  );
  expect(undo).toMatchObject({ undone: 1, conflicts: 0 });
  expect(graphSnapshot(graph())).toEqual(before);
}, 60_000);
