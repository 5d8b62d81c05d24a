/**
 * Our own writes refresh the link index: a navigation call right after any
 * write tool sees the change, even when the write leaves the index fingerprint where it was (the
 * graph's newest :edit/time is in the future: a planned daily note, or another device's clock).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageSpec } from '../../emulator/index.ts';
import { startIndexWorld, type IndexWorld } from './index-world.ts';

const GRAPH: PageSpec[] = [
  { title: 'January 1st, 2030', daily: true, children: ['Plans for the decade'] },
  { title: 'Alpha', uid: 'alpha', children: [{ string: 'See [[Beta]]', uid: 'alpha-b1' }] },
  { title: 'Beta', uid: 'beta', children: ['Beta content'] },
  { title: 'Gamma', uid: 'gamma', children: [{ string: 'Gamma content', uid: 'gamma-b1' }] },
];

let world: IndexWorld;

beforeAll(async () => {
  world = await startIndexWorld({
    prefix: 'writes-index-',
    graph: 'writes',
    nickname: 'Writes',
    content: GRAPH,
  });
});

afterAll(() => world?.close());

const outlinks = (title: string) => world.outlinks(title);

async function write(name: string, args: Record<string, unknown>): Promise<void> {
  const { result, json } = await world.mcp.call(name, args);
  expect(result.isError, `${name}: ${JSON.stringify(json)}`).toBeFalsy();
}

describe('navigation right after a write tool', () => {
  it('sees an edited link (update_block)', async () => {
    expect(await outlinks('Alpha')).toEqual(['Beta']);
    await write('update_block', { uid: 'alpha-b1', string: 'See [[Gamma]] instead' });
    expect(await outlinks('Alpha')).toEqual(['Gamma']);
  });

  it('sees a moved block (move_block)', async () => {
    await write('move_block', { uid: 'alpha-b1', parentUid: 'beta' });
    expect(await outlinks('Alpha')).toEqual([]);
    expect(await outlinks('Beta')).toEqual(['Gamma']);
  });

  it('sees a renamed page (update_page)', async () => {
    await write('update_page', { uid: 'gamma', title: 'Gamma Prime' });
    expect(await outlinks('Beta')).toEqual(['Gamma Prime']);
  });

  it('sees new and deleted links (create_block, create_page, delete_block, delete_page)', async () => {
    await write('create_block', { parentUid: 'gamma', markdown: 'Back to [[Alpha]]' });
    expect(await outlinks('Gamma Prime')).toEqual(['Alpha']);
    await write('create_page', { title: 'Delta', markdown: '- Points at [[Beta]]' });
    expect(await outlinks('Delta')).toEqual(['Beta']);
    await write('delete_block', { uid: 'alpha-b1' });
    expect(await outlinks('Beta')).toEqual([]);
    await write('delete_page', { uid: 'gamma' });
    const { json } = await world.mcp.call('get_neighbors', { title: 'Alpha' });
    expect(json.items).toEqual([]);
  });
});
