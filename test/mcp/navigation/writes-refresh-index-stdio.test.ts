/**
 * Our own writes refresh the link index: a navigation call right after any
 * write tool sees the change, even when the write leaves the index fingerprint where it was (the
 * graph's newest :edit/time is in the future: a planned daily note, or another device's clock).
 */
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator, type PageSpec } from '../../emulator/index.ts';
import { TEST_TOKEN } from '../../harness/http-context.ts';
import { startStdioClient, type StdioClient } from '../../harness/mcp-bin.ts';
import { tempDir } from '../../harness/temp-dir.ts';

const GRAPH: PageSpec[] = [
  { title: 'January 1st, 2030', daily: true, children: ['Plans for the decade'] },
  { title: 'Alpha', uid: 'alpha', children: [{ string: 'See [[Beta]]', uid: 'alpha-b1' }] },
  { title: 'Beta', uid: 'beta', children: ['Beta content'] },
  { title: 'Gamma', uid: 'gamma', children: [{ string: 'Gamma content', uid: 'gamma-b1' }] },
];

let home: string;
let emulator: Emulator;
let mcp: StdioClient;

beforeAll(async () => {
  home = await tempDir('writes-index-');
  emulator = await startEmulator({
    home,
    port: 0,
    graphs: [{ name: 'writes', content: GRAPH, tokens: [{ token: TEST_TOKEN, accessLevel: 'full' }] }],
  });
  mcp = await startStdioClient({ home, graph: 'writes', nickname: 'Writes', token: TEST_TOKEN });
  expect((await mcp.call('select_graph', { graph: 'Writes' })).result.isError).toBeFalsy();
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

async function write(name: string, args: Record<string, unknown>): Promise<void> {
  const { result, json } = await mcp.call(name, args);
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
    const { json } = await mcp.call('get_neighbors', { title: 'Alpha' });
    expect(json.items).toEqual([]);
  });
});
