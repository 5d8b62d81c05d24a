/**
 * Another client's changes (docs/navigation.md, "Freshness"): a second Local API client creates,
 * edits and deletes over HTTP while the built bin serves navigation over stdio. With no staleness
 * window the next call sees each change, also in a graph whose newest :edit/time is in the future
 * (a max-edit-time fingerprint misses edits there); within the window the cached index answers
 * without a request until our own write drops it.
 */
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalApiClient } from '../../../src-shared/local-api/index.ts';
import { startEmulator, type Emulator, type PageSpec } from '../../emulator/index.ts';
import { TEST_TOKEN } from '../../harness/http-context.ts';
import { startStdioClient, type StdioClient } from '../../harness/mcp-bin.ts';
import { tempDir } from '../../harness/temp-dir.ts';

const CONTENT: PageSpec[] = [
  { title: 'January 1st, 2030', daily: true, children: ['Plans for the decade'] },
  { title: 'Alpha', uid: 'alpha', children: [{ string: 'See [[Beta]]', uid: 'alpha-b1' }] },
  { title: 'Beta', uid: 'beta', children: ['Beta content, about [[Gamma]]'] },
  { title: 'Gamma', uid: 'gamma', children: [{ string: 'Gamma content', uid: 'gamma-b1' }] },
];

let home: string;
let emulator: Emulator;
const other = { client: undefined as unknown as LocalApiClient };
const tokens: Record<string, string> = { fresh: TEST_TOKEN, windowed: `${TEST_TOKEN.slice(0, -4)}WNDW` };

/** The second client: its own HTTP requests to the Local API, with its own token. */
const change = (graph: string, action: string, args: Record<string, unknown>) =>
  other.client.call({ name: graph, type: 'hosted', token: tokens[graph]! }, action, [args]);

async function outlinks(mcp: StdioClient, title: string): Promise<string[]> {
  const { json } = await mcp.call('get_outlinks', { title });
  return (json.items as Array<{ title: string }>).map((item) => item.title);
}

beforeAll(async () => {
  home = await tempDir('other-clients-');
  emulator = await startEmulator({
    home,
    port: 0,
    graphs: Object.entries(tokens).map(([name, token]) => ({
      name,
      content: CONTENT,
      tokens: [{ token, accessLevel: 'full' as const }],
    })),
  });
  other.client = new LocalApiClient({ home });
});

afterAll(async () => {
  await emulator.close();
  await rm(home, { recursive: true, force: true });
});

describe('with no staleness window', () => {
  let mcp: StdioClient;
  beforeAll(async () => {
    mcp = await startStdioClient({
      home,
      graph: 'fresh',
      nickname: 'Fresh',
      token: TEST_TOKEN,
      stalenessMs: 0,
    });
  });
  afterAll(() => mcp.close());

  it("sees another client's new block", async () => {
    expect(await outlinks(mcp, 'Gamma')).toEqual([]);
    await change('fresh', 'data.block.create', {
      location: { 'parent-uid': 'gamma', order: 'last' },
      block: { string: 'Back to [[Alpha]]' },
    });
    expect(await outlinks(mcp, 'Gamma')).toEqual(['Alpha']);
  });

  it("sees another client's edit, though the graph's newest edit time is in 2030", async () => {
    expect(await outlinks(mcp, 'Alpha')).toEqual(['Beta']);
    await change('fresh', 'data.block.update', { block: { uid: 'alpha-b1', string: 'See [[Gamma]] now' } });
    expect(await outlinks(mcp, 'Alpha')).toEqual(['Gamma']);
  });

  it("sees another client's deleted block and deleted page", async () => {
    await change('fresh', 'data.block.delete', { block: { uid: 'alpha-b1' } });
    expect(await outlinks(mcp, 'Alpha')).toEqual([]);
    expect((await mcp.call('list_pages', { prefix: 'Beta' })).json.total).toBe(1);
    await change('fresh', 'data.page.delete', { page: { uid: 'beta' } });
    expect((await mcp.call('list_pages', { prefix: 'Beta' })).json.total).toBe(0);
    const { json } = await mcp.call('get_neighbors', { title: 'Gamma' });
    expect((json.items as Array<{ title: string }>).map((i) => i.title)).toEqual(['Alpha']);
  });
});

describe('within the staleness window', () => {
  let mcp: StdioClient;
  beforeAll(async () => {
    mcp = await startStdioClient({
      home,
      graph: 'windowed',
      nickname: 'Windowed',
      token: tokens.windowed!,
      stalenessMs: 3_600_000,
    });
    expect((await mcp.call('select_graph', { graph: 'Windowed' })).result.isError).toBeFalsy();
  });
  afterAll(() => mcp.close());

  it('answers from the cached index with no request, until our own write drops it', async () => {
    expect(await outlinks(mcp, 'Alpha')).toEqual(['Beta']);
    await change('windowed', 'data.block.update', {
      block: { uid: 'alpha-b1', string: 'See [[Gamma]] now' },
    });
    emulator.clearRequests();
    expect(await outlinks(mcp, 'Alpha')).toEqual(['Beta']);
    expect(emulator.requests.filter((r) => r.graph === 'windowed')).toEqual([]);
    const { result } = await mcp.call('create_block', { parentUid: 'gamma', markdown: 'Back to [[Beta]]' });
    expect(result.isError).toBeFalsy();
    expect(await outlinks(mcp, 'Alpha')).toEqual(['Gamma']);
    expect(await outlinks(mcp, 'Gamma')).toEqual(['Beta']);
  });
});
