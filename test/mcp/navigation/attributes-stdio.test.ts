/**
 * Attributes in navigation, through the built bin against the emulator: a block `role:: engineer`
 * refers to the page `role`, which in a real graph becomes the top hub and the shortcut between
 * any two people. Hubs and paths leave out links made only of attributes unless asked
 * (`includeAttributes`); a link that is also an ordinary mention stays; neighbours count the
 * attribute references of each link.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageSpec } from '../../emulator/index.ts';
import { jsonOf, newToken, type McpHandle } from '../../harness/mcp-bin.ts';
import { startStdioWorld, type StdioWorld } from '../../harness/stdio-world.ts';

const TOKEN = newToken();
const content: PageSpec[] = [
  { title: 'Alan Turing', children: ['role:: mathematician', 'Worked at [[Bletchley Park]]'] },
  { title: 'Grace Hopper', children: ['role:: engineer', 'Wrote [[COBOL]]'] },
  {
    title: 'Ada Lovelace',
    children: ['role:: mathematician', 'Inspired [[Alan Turing]]', 'Her [[role]] was unusual'],
  },
  { title: 'COBOL', children: ['Later used at [[Bletchley Park]]'] },
  { title: 'Glossary', children: ['[[role]] means a job'] },
];

let world: StdioWorld | undefined;
let mcp: McpHandle;

interface Hub {
  title: string;
  score: number;
  inDegree: number;
}
const hubs = async (args: Record<string, unknown> = {}) =>
  jsonOf<{ items: Hub[] }>(await mcp.call('get_hubs', { limit: 50, ...args })).items;
const path = async (args: Record<string, unknown> = {}) =>
  jsonOf<{ found: boolean; path: Array<{ title: string }>; length: number }>(
    await mcp.call('find_path', { source: 'Alan Turing', target: 'Grace Hopper', ...args }),
  );

beforeAll(async () => {
  world = await startStdioWorld({
    emulator: { graphs: [{ name: 'people', content, tokens: [{ token: TOKEN, accessLevel: 'full' }] }] },
    config: [{ name: 'people', token: TOKEN, accessLevel: 'full' }],
  });
  ({ mcp } = world);
});
afterAll(() => world?.close());

describe('attributes in navigation', () => {
  it('get_hubs leaves out attribute-only links unless asked, keeping a link that is also a mention', async () => {
    const plain = await hubs();
    expect(plain.find((h) => h.title === 'role')).toMatchObject({ inDegree: 2, score: 2 });
    expect(plain[0]?.title).not.toBe('role');
    const all = await hubs({ includeAttributes: true });
    expect(all[0]).toMatchObject({ title: 'role', inDegree: 4, score: 4 });
    const ranked = await hubs({ metric: 'pagerank' });
    const rankedAll = await hubs({ metric: 'pagerank', includeAttributes: true });
    expect(rankedAll[0]?.title).toBe('role');
    expect(ranked[0]?.title).not.toBe('role');
  });

  it('find_path does not run through an attribute page unless asked', async () => {
    const plain = await path();
    expect(plain.found).toBe(true);
    expect(plain.path.map((p) => p.title)).toEqual([
      'Alan Turing',
      'Bletchley Park',
      'COBOL',
      'Grace Hopper',
    ]);
    const all = await path({ includeAttributes: true });
    expect(all.path.map((p) => p.title)).toEqual(['Alan Turing', 'role', 'Grace Hopper']);
    const forward = await path({ followBacklinks: false, source: 'Grace Hopper', target: 'Alan Turing' });
    expect(forward.found).toBe(false);
  });

  it('get_neighbors says how many of each link’s references are attributes', async () => {
    const out = jsonOf<{
      items: Array<{ title: string; referencesIn: number; attributeReferences: number }>;
    }>(await mcp.call('get_neighbors', { title: 'role' }));
    const byTitle = Object.fromEntries(out.items.map((n) => [n.title, n]));
    expect(byTitle['Alan Turing']).toMatchObject({ referencesIn: 1, attributeReferences: 1 });
    expect(byTitle['Grace Hopper']).toMatchObject({ referencesIn: 1, attributeReferences: 1 });
    expect(byTitle['Ada Lovelace']).toMatchObject({ referencesIn: 2, attributeReferences: 1 });
    expect(byTitle['Glossary']).toMatchObject({ referencesIn: 1, attributeReferences: 0 });
  });
});
