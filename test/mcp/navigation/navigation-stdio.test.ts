/**
 * Navigation through the MCP boundary: the built roam-mcp over stdio with the SDK Client, against
 * the emulator over real HTTP. Checks registration, structured results the client validates
 * against each outputSchema, errors, resources, capability-based semantic search, round trips
 * and that the token never shows.
 */
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startEmulator, type Emulator } from '../../emulator/index.ts';
import { TEST_TOKEN } from '../../harness/http-context.ts';
import { KNOWLEDGE_GRAPH } from './knowledge-graph.ts';
import { startStdioClient, type StdioClient } from '../../harness/mcp-bin.ts';
import { tempDir } from '../../harness/temp-dir.ts';

const NAVIGATION_TOOLS = [
  'get_outlinks',
  'get_neighbors',
  'find_path',
  'get_hubs',
  'search_by_tags',
  'random_page',
  'list_pages',
  'resolve_pages',
  'get_link_graph',
];

async function setup(graph: string, semanticSearch: boolean) {
  const home = await tempDir('nav-stdio-');
  const emulator = await startEmulator({
    home,
    port: 0,
    semanticSearch,
    graphs: [
      { name: graph, content: KNOWLEDGE_GRAPH, tokens: [{ token: TEST_TOKEN, accessLevel: 'read-only' }] },
    ],
  });
  const mcp = await startStdioClient({ home, graph, nickname: 'Knowledge', token: TEST_TOKEN });
  return {
    home,
    emulator,
    mcp,
    close: async () => {
      await mcp.close();
      await emulator.close();
      await rm(home, { recursive: true, force: true });
    },
  };
}

describe('with semantic search offered', () => {
  let env: Awaited<ReturnType<typeof setup>>;
  let mcp: StdioClient;
  let emulator: Emulator;
  beforeAll(async () => {
    env = await setup('nav-stdio', true);
    ({ mcp, emulator } = env);
    // The server probes data.ai.semanticSearch after its first call to the graph, then lists the tool.
    const changed = mcp.nextToolListChange();
    await mcp.call('get_hubs');
    await changed;
  });
  afterAll(() => env.close());

  it('lists the navigation tools read-only with output schemas, semantic search included', async () => {
    const { tools } = await mcp.client.listTools();
    for (const name of [...NAVIGATION_TOOLS, 'semantic_search']) {
      const tool = tools.find((t) => t.name === name);
      expect(tool, name).toBeDefined();
      expect(tool!.annotations?.readOnlyHint).toBe(true);
      expect(tool!.outputSchema).toBeDefined();
    }
  });

  it('returns structured content equal to the text, for every tool', async () => {
    const calls: Array<[string, Record<string, unknown>]> = [
      ['get_outlinks', { title: 'Machine Learning' }],
      ['get_neighbors', { title: 'Linear Algebra' }],
      ['find_path', { source: 'Probability', target: 'Neural Networks' }],
      ['find_path', { source: 'Cooking', target: 'Island' }],
      ['get_hubs', { metric: 'pagerank' }],
      ['search_by_tags', { tags: ['draft'], target: 'blocks' }],
      ['search_by_tags', { tags: ['draft', 'nope'] }],
      ['random_page', { tags: ['idea'] }],
      ['random_page', { tags: ['Island'] }],
      ['list_pages', { prefix: 'm' }],
      ['resolve_pages', { names: ['machine-learning', 'Quantum'] }],
      ['get_link_graph', { center: 'Cooking' }],
      ['get_link_graph', {}],
      ['semantic_search', { query: 'neural networks reading' }],
    ];
    for (const [name, args] of calls) {
      const { result, json } = await mcp.call(name, args);
      expect(result.isError, `${name}: ${JSON.stringify(json)}`).toBeFalsy();
      expect(result.structuredContent).toEqual(json);
    }
  });

  it('answers with the hand-checkable results', async () => {
    const outlinks = (await mcp.call('get_outlinks', { title: 'Machine Learning', limit: 1 })).json;
    expect(outlinks).toMatchObject({
      total: 4,
      nextOffset: 1,
      items: [{ title: 'Neural Networks', references: 2 }],
    });
    const path = (
      await mcp.call('find_path', { source: 'Machine Learning', target: 'Model', followBacklinks: false })
    ).json;
    expect((path.path as Array<{ title: string }>).map((p) => p.title)).toEqual([
      'Machine Learning',
      'Neural Networks',
      'Model',
    ]);
    expect(path.found).toBe(true);
    const cut = (await mcp.call('find_path', { source: 'Machine Learning', target: 'Model', maxLength: 1 }))
      .json;
    expect(cut).toMatchObject({ found: false, path: null, reason: 'longer-than-max-length' });
    expect(cut.hint).toMatch(/maxLength 2/);
    const apart = (await mcp.call('find_path', { source: 'Cooking', target: 'Island' })).json;
    expect(apart).toMatchObject({ found: false, path: null, reason: 'disconnected' });
    expect(apart.hint).toMatch(/get_neighbors/);
    const semantic = (await mcp.call('semantic_search', { query: 'neural networks reading', limit: 1 })).json;
    expect((semantic.items as Array<{ text: string }>)[0]?.text).toContain(
      'More [[Neural Networks]] reading',
    );
  });

  it('reports unknown pages and bad arguments as tool errors the agent can act on', async () => {
    const { result, json } = await mcp.call('get_neighbors', { title: 'Neural Netwerks' });
    expect(result.isError).toBe(true);
    const error = json.error as { code: string; message: string; suggestions: Array<{ title: string }> };
    expect(error.code).toBe('NOT_FOUND');
    expect(error.suggestions[0]?.title).toBe('Neural Networks');
    const tooMany = await mcp.call('get_hubs', { limit: 500 });
    expect(tooMany.result.isError).toBe(true);
    expect((tooMany.json.error as { message: string }).message).toMatch(/limit/);
  });

  it('costs one freshness check (2 requests sent together) per warm call with no staleness window', async () => {
    await mcp.call('get_hubs');
    emulator.clearRequests();
    await mcp.call('find_path', { source: 'Cooking', target: 'Recipes' });
    expect(emulator.requests.filter((r) => r.action).map((r) => r.action)).toEqual(['data.q', 'data.q']);
  });

  it('offers stats, the link index and pages as resources', async () => {
    const { resources } = await mcp.client.listResources();
    const uris = resources.map((r) => r.uri);
    expect(uris).toEqual(expect.arrayContaining(['roam://Knowledge/stats', 'roam://Knowledge/link-index']));
    const stats = await mcp.client.readResource({ uri: 'roam://Knowledge/stats' });
    expect(JSON.parse((stats.contents[0] as { text: string }).text)).toMatchObject({ pages: 13, links: 16 });
    const page = await mcp.client.readResource({ uri: 'roam://Knowledge/page/Linear%20Algebra' });
    expect((page.contents[0] as { text: string }).text).toContain('Used by [[Machine Learning]]');
    await expect(mcp.client.readResource({ uri: 'roam://Knowledge/page/Lineer%20Algebra' })).rejects.toThrow(
      /NOT_FOUND.*Linear Algebra/,
    );
  });

  it('never shows the token', () => {
    expect(mcp.transcript()).not.toContain(TEST_TOKEN);
    expect(mcp.transcript()).not.toContain(TEST_TOKEN.slice(-29));
  });
});

describe('without semantic search', () => {
  let env: Awaited<ReturnType<typeof setup>>;
  beforeAll(async () => {
    env = await setup('nav-stdio-plain', false);
  });
  afterAll(() => env.close());

  it('hides semantic_search and keeps the rest', async () => {
    await env.mcp.call('get_hubs');
    await vi.waitFor(() =>
      expect(env.emulator.requests.find((r) => r.action === 'data.ai.semanticSearch')?.status).toBe(404),
    );
    const { tools } = await env.mcp.client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).not.toContain('semantic_search');
    expect(names).toEqual(expect.arrayContaining(NAVIGATION_TOOLS));
  });
});
