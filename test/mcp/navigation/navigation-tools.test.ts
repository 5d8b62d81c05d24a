/**
 * Every navigation tool on the hand-written graph (knowledge-graph.ts), through a ToolContext that
 * does real HTTP to the emulator (real DataScript queries). Answers are checkable from that file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { navigationResources } from '../../../src-mcp/navigation/index.ts';
import { navigationTools } from '../../../src-mcp/tools/navigation/index.ts';
import { probedActions, readOnlyHint } from '../../../src-mcp/contract/tool-definition.ts';
import { ToolError } from '../../../src-mcp/contract/tool-errors.ts';
import { startNavigationHarness, type NavigationHarness } from '../../harness/http-context.ts';
import { KNOWLEDGE_GRAPH, KNOWLEDGE_LINKS } from './knowledge-graph.ts';

let h: NavigationHarness;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tool outputs are checked field by field
const call = (name: string, args: Record<string, unknown> = {}): Promise<any> => {
  const tool = navigationTools.find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  return h.run(tool, args);
};
const titles = (items: Array<{ title: string }>) => items.map((i) => i.title);
const failure = async (promise: Promise<unknown>): Promise<ToolError> => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ToolError);
  return error as ToolError;
};

beforeAll(async () => {
  h = await startNavigationHarness('nav-knowledge', KNOWLEDGE_GRAPH);
});
afterAll(() => h.close());

describe('tool definitions', () => {
  it('are read-only graph tools with titles, short descriptions and output schemas', () => {
    expect(navigationTools.map((t) => t.name).sort()).toEqual(
      [
        'find_path',
        'get_hubs',
        'get_link_graph',
        'get_neighbors',
        'get_outlinks',
        'list_pages',
        'random_page',
        'resolve_pages',
        'search_by_tags',
        'semantic_search',
      ].sort(),
    );
    for (const tool of navigationTools) {
      expect(tool.scope).toBe('graph');
      expect(readOnlyHint(tool)).toBe(true);
      expect(tool.title.length).toBeGreaterThan(0);
      expect(tool.description.length).toBeLessThanOrEqual(200);
      expect(tool.outputSchema).toBeDefined();
    }
    expect(probedActions(navigationTools.find((t) => t.name === 'semantic_search')!)).toEqual([
      'data.ai.semanticSearch',
    ]);
    for (const resource of navigationResources)
      expect(resource.uriTemplate.startsWith('roam://{graph}/')).toBe(true);
  });
});

describe('get_outlinks', () => {
  it('lists linked pages with reference counts, most referenced first, then by title', async () => {
    const out = await call('get_outlinks', { title: 'Machine Learning' });
    expect(out.page).toEqual({ uid: 'ml', title: 'Machine Learning' });
    expect(out.items.map((i: { title: string; references: number }) => [i.title, i.references])).toEqual([
      ['Neural Networks', 2],
      ['draft', 1],
      ['Linear Algebra', 1],
      ['Statistics', 1],
    ]);
    expect(out.total).toBe(4);
  });

  it('pages with offset and reports nextOffset', async () => {
    const first = await call('get_outlinks', { uid: 'ml', limit: 3 });
    expect(first.nextOffset).toBe(3);
    const second = await call('get_outlinks', { uid: 'ml', limit: 3, offset: first.nextOffset });
    expect(titles(second.items)).toEqual(['Statistics']);
    expect(second.nextOffset).toBeUndefined();
  });

  it('leaves self-references out', async () => {
    const out = await call('get_outlinks', { title: 'Probability' });
    expect(out.total).toBe(0);
  });

  it('answers NOT_FOUND with the closest titles', async () => {
    const error = await failure(call('get_outlinks', { title: 'Machin Lerning' }));
    expect(error.code).toBe('NOT_FOUND');
    expect(error.message).toContain('Machine Learning');
    expect((error.details.suggestions as Array<{ title: string }>)[0]?.title).toBe('Machine Learning');
    expect((await failure(call('get_outlinks', {}))).code).toBe('INVALID_PARAMS');
    expect((await failure(call('get_outlinks', { uid: 'Machine Learning' }))).code).toBe('NOT_FOUND');
  });

  it('matches titles case-insensitively when no exact title exists', async () => {
    const out = await call('get_outlinks', { title: 'linear algebra' });
    expect(out.page.title).toBe('Linear Algebra');
  });
});

describe('get_neighbors', () => {
  it('merges both directions with counts and previews of the first top-level blocks', async () => {
    const out = await call('get_neighbors', { title: 'Linear Algebra' });
    expect(out.incomingCount).toBe(2);
    expect(out.outgoingCount).toBe(1);
    expect(out.items.map((i: { title: string; direction: string }) => [i.title, i.direction])).toEqual([
      ['Machine Learning', 'both'],
      ['Neural Networks', 'in'],
    ]);
    expect(out.items[0].preview).toBe(
      'Basics of [[Neural Networks]]\nRelies on #Statistics and [[Linear Algebra]]\nMore [[Neural Networks]] reading',
    );
  });

  it('filters by direction', async () => {
    const incoming = await call('get_neighbors', { title: 'draft', direction: 'in' });
    expect(titles(incoming.items)).toEqual(['Machine Learning', 'Neural Networks', 'Statistics']);
    const outgoing = await call('get_neighbors', { title: 'draft', direction: 'out' });
    expect(outgoing.items).toEqual([]);
    expect(outgoing.total).toBe(0);
  });
});

describe('find_path', () => {
  const checkHops = (path: Array<{ title: string; via?: 'in' | 'out' }>) => {
    for (let k = 1; k < path.length; k++) {
      const [a, b] = [path[k - 1]!.title, path[k]!.title];
      expect(KNOWLEDGE_LINKS.has(path[k]!.via === 'out' ? `${a} → ${b}` : `${b} → ${a}`)).toBe(true);
    }
  };

  it('finds a shortest path walking backlinks too', async () => {
    // Probability is only reached from Statistics; Statistics from Machine Learning; two more hops to NN.
    const out = await call('find_path', { source: 'Probability', target: 'Neural Networks' });
    expect(out.length).toBe(3);
    expect(out.path[0].title).toBe('Probability');
    expect(out.path[3].title).toBe('Neural Networks');
    checkHops(out.path);
  });

  it('follows only forward links when asked', async () => {
    expect(
      (await call('find_path', { source: 'Probability', target: 'Neural Networks', followBacklinks: false }))
        .path,
    ).toBeNull();
    const out = await call('find_path', {
      source: 'Machine Learning',
      target: 'Model',
      followBacklinks: false,
    });
    expect(titles(out.path)).toEqual(['Machine Learning', 'Neural Networks', 'Model']);
    expect(out.path.slice(1).map((p: { via: string }) => p.via)).toEqual(['out', 'out']);
  });

  it('respects maxLength, cycles and disconnected parts', async () => {
    expect(
      (await call('find_path', { source: 'Probability', target: 'Neural Networks', maxLength: 2 })).path,
    ).toBeNull();
    const cycle = await call('find_path', {
      source: 'Linear Algebra',
      target: 'Machine Learning',
      followBacklinks: false,
    });
    expect(cycle.length).toBe(1);
    const apart = await call('find_path', { source: 'Cooking', target: 'Machine Learning', maxLength: 10 });
    expect(apart).toMatchObject({ path: null, length: null });
    expect((await call('find_path', { source: 'Island', target: 'Island' })).length).toBe(0);
  });

  it('accepts uids and reports unknown pages', async () => {
    expect((await call('find_path', { source: 'ck', target: 'rc' })).length).toBe(1);
    expect((await failure(call('find_path', { source: 'Cooking', target: 'Baking' }))).code).toBe(
      'NOT_FOUND',
    );
  });
});

describe('get_hubs', () => {
  it('ranks by in-degree, ties in title order', async () => {
    const out = await call('get_hubs', { metric: 'in_degree', limit: 4 });
    expect(out.items.map((i: { title: string; score: number }) => [i.title, i.score])).toEqual([
      ['draft', 3],
      ['food', 2],
      ['Linear Algebra', 2],
      ['Cooking', 1],
    ]);
    expect(out.total).toBe(13);
  });

  it('ranks by out-degree', async () => {
    const out = await call('get_hubs', { metric: 'out_degree', limit: 3 });
    expect(titles(out.items)).toEqual(['Machine Learning', 'Neural Networks', 'Statistics']);
  });

  it('ranks by pagerank: scores descend, the isolated page is in the lowest tier', async () => {
    const out = await call('get_hubs', { metric: 'pagerank', limit: 13 });
    const scores = out.items.map((i: { score: number }) => i.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(scores.reduce((a: number, b: number) => a + b, 0)).toBeCloseTo(1, 2);
    expect(out.items.at(-1).score).toBe(Math.min(...scores));
    const island = out.items.find((i: { title: string }) => i.title === 'Island');
    expect(island.score).toBe(Math.min(...scores));
  });
});

describe('search_by_tags', () => {
  it('finds pages carrying any or all tags', async () => {
    const any = await call('search_by_tags', { tags: ['#idea', '[[draft]]'] });
    expect(titles(any.items)).toEqual(['Statistics', 'Machine Learning', 'Neural Networks']);
    expect(any.items[0].matchedTags).toEqual(['idea', 'draft']);
    const all = await call('search_by_tags', { tags: ['idea', 'draft'], mode: 'all' });
    expect(titles(all.items)).toEqual(['Statistics']);
    expect(all.items[0].text).toBe('#idea #draft link it to [[Probability]]');
  });

  it('finds blocks carrying the tags, with their page', async () => {
    const all = await call('search_by_tags', { tags: ['idea', 'draft'], mode: 'all', target: 'blocks' });
    expect(all.items).toEqual([
      {
        uid: 'st-1',
        page: { uid: 'st', title: 'Statistics' },
        text: '#idea #draft link it to [[Probability]]',
        matchedTags: ['idea', 'draft'],
      },
    ]);
    const any = await call('search_by_tags', { tags: ['draft'], target: 'blocks' });
    expect(any.items.map((i: { uid: string }) => i.uid).sort()).toEqual(['ml-4', 'nn-3', 'st-1']);
  });

  it('reports unknown tags with suggestions, and fails when none exists', async () => {
    const some = await call('search_by_tags', { tags: ['food', 'fod2'], mode: 'any' });
    expect(titles(some.items)).toEqual(['Cooking', 'Recipes']);
    expect(some.unknownTags[0].name).toBe('fod2');
    const all = await call('search_by_tags', { tags: ['food', 'fod2'], mode: 'all' });
    expect(all.total).toBe(0);
    expect((await failure(call('search_by_tags', { tags: ['nothing-like-it'] }))).code).toBe('NOT_FOUND');
  });
});

describe('random_page', () => {
  it('draws from the pages carrying the tags, null when none', async () => {
    const only = await call('random_page', { tags: ['idea'] });
    expect(only.candidates).toBe(1);
    expect(only.page).toMatchObject({ title: 'Statistics', incomingCount: 1, outgoingCount: 3 });
    expect(only.page.preview).toBe('#idea #draft link it to [[Probability]]');
    const food = await call('random_page', { tags: ['food'] });
    expect(['Cooking', 'Recipes']).toContain(food.page.title);
    expect(await call('random_page', { tags: ['Island'] })).toEqual({ candidates: 0, page: null });
  });

  it('draws from all pages without tags', async () => {
    const any = await call('random_page');
    expect(any.candidates).toBe(13);
    expect(KNOWLEDGE_GRAPH.map((p) => p.title)).toContain(any.page.title);
  });
});

describe('list_pages', () => {
  it('lists titles alphabetically with totals and paging', async () => {
    const all = await call('list_pages', { limit: 5, offset: 10 });
    expect(all.total).toBe(13);
    expect(titles(all.items)).toEqual(['Recipes', 'Statistics', 'Type']);
    expect(all.nextOffset).toBeUndefined();
    const ml = (await call('list_pages', { prefix: 'machine' })).items[0];
    expect(ml).toMatchObject({
      title: 'Machine Learning',
      blockCount: 5,
      incomingCount: 1,
      outgoingCount: 4,
    });
  });

  it('filters by prefix and tag', async () => {
    expect(titles((await call('list_pages', { prefix: 'M' })).items)).toEqual(['Machine Learning', 'Model']);
    expect(titles((await call('list_pages', { tag: '#food' })).items)).toEqual(['Cooking', 'Recipes']);
    expect((await failure(call('list_pages', { tag: 'nope' }))).code).toBe('NOT_FOUND');
  });
});

describe('resolve_pages', () => {
  it('exact: case-insensitive existence check', async () => {
    const out = await call('resolve_pages', {
      names: ['machine learning', 'Machine-Learning'],
      strategy: 'exact',
    });
    expect(out.results.map((r: { match: { title: string } | null }) => r.match?.title ?? null)).toEqual([
      'Machine Learning',
      null,
    ]);
  });

  it('fuzzy: Dice similarity above the threshold, nothing below it', async () => {
    const out = await call('resolve_pages', {
      names: ['machine-learning', 'Neural Netwrks', 'Quantum Physics'],
    });
    const [dashed, typo, unrelated] = out.results;
    expect(dashed).toMatchObject({ match: { title: 'Machine Learning' }, score: 1 });
    // "neuralnetwrks" shares 11 of its 12 bigrams with the 13 of "neuralnetworks": 22/25.
    expect(typo).toMatchObject({ match: { title: 'Neural Networks' }, score: 0.88 });
    expect(unrelated).toMatchObject({ match: null, score: 0 });
    const lenient = await call('resolve_pages', { names: ['Neural Netwrks'], threshold: 0.1 });
    expect(lenient.results[0].alternatives.length).toBeGreaterThan(0);
  });
});

describe('get_link_graph', () => {
  it('returns the neighbourhood of a page with its edges', async () => {
    const out = await call('get_link_graph', { center: 'Cooking' });
    expect(out.nodes.map((n: { title: string; depth: number }) => [n.title, n.depth])).toEqual([
      ['Cooking', 0],
      ['Recipes', 1],
      ['food', 1],
    ]);
    expect([...out.edges].sort()).toEqual(
      [
        ['ck', 'rc', 1],
        ['ck', 'food', 1],
        ['rc', 'ck', 1],
        ['rc', 'food', 1],
      ].sort(),
    );
    expect(out).toMatchObject({ totalNodes: 3, totalEdges: 4, truncated: false });
    const island = await call('get_link_graph', { center: 'Island', depth: 3 });
    expect(island.nodes.length).toBe(1);
    expect(island.edges).toEqual([]);
  });

  it('without a center, returns the best connected pages', async () => {
    const out = await call('get_link_graph', { limit: 3 });
    expect(titles(out.nodes)).toEqual(['Machine Learning', 'Neural Networks', 'Statistics']);
    expect(out.edges).toEqual([
      ['ml', 'nn', 2],
      ['ml', 'st', 1],
    ]);
    expect(out).toMatchObject({ center: null, totalNodes: 13, totalEdges: 2, truncated: true });
  });
});

describe('resources', () => {
  const resource = (name: string) => navigationResources.find((r) => r.name === name)!;

  it('stats count pages, blocks, links and references', async () => {
    const stats = JSON.parse(await resource('graph-stats').read({ graph: 'nav-knowledge' }, h.ctx));
    expect(stats).toMatchObject({ pages: 13, blocks: 15, links: 16, references: 17 });
    expect(stats.lastEdit).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('the link index lists every page with its out-links', async () => {
    const index = JSON.parse(await resource('link-index').read({ graph: 'nav-knowledge' }, h.ctx));
    expect(index.total).toBe(13);
    expect(index.nextUri).toBeUndefined();
    const ml = index.items.find((p: { title: string }) => p.title === 'Machine Learning');
    expect(ml.links[0]).toEqual(['nn', 2]);
    expect(ml.outgoingCount).toBe(4);
    await expect(resource('link-index-page').read({ graph: 'g', offset: 'x' }, h.ctx)).rejects.toThrow(
      /offset/,
    );
  });

  it('reads a page by title as markdown with its link counts', async () => {
    const text = await resource('page').read({ graph: 'nav-knowledge', title: 'Linear Algebra' }, h.ctx);
    expect(text).toContain('Used by [[Machine Learning]]');
    expect(text).toContain('Links: 1 pages linked from here, 2 linking here');
    await expect(
      resource('page').read({ graph: 'nav-knowledge', title: 'Linear Algebro' }, h.ctx),
    ).rejects.toThrow(/Linear Algebra/);
  });
});
