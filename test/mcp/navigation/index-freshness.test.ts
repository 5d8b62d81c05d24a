/**
 * Round trips and cache freshness, counted on the emulator's request log, with no staleness
 * window: the index is built from 5 queries (pages, blocks, references, attributes, hidden blocks) after the
 * freshness check (2: edited since, page count), a warm call costs the check plus at most 1
 * batched preview query, and edits made by another client are seen on the next call.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { navigationTools } from '../../../src-mcp/tools/navigation/index.ts';
import type { ToolContext } from '../../../src-mcp/contract/tool-definition.ts';
import { startNavigationHarness, type NavigationHarness } from '../../harness/http-context.ts';
import { KNOWLEDGE_GRAPH } from './knowledge-graph.ts';

const GRAPH = 'nav-freshness';
let h: NavigationHarness;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tool outputs are checked field by field
const call = (name: string, args: Record<string, unknown> = {}): Promise<any> =>
  h.run(
    navigationTools.find((t) => t.name === name)!,
    args,
  );
const outlinks = async (title: string) =>
  (await call('get_outlinks', { title })).items.map((i: { title: string }) => i.title);
const edit = (action: string, args: unknown) => h.emulator.graph(GRAPH).run(action, [args]);

const invalidate = () => h.ctx.linkIndexes.invalidate(GRAPH);

beforeAll(async () => {
  h = await startNavigationHarness(GRAPH, KNOWLEDGE_GRAPH, { stalenessMs: 0 });
});
afterAll(() => h.close());

describe('round trips', () => {
  beforeEach(invalidate);

  it('builds the index with 5 queries after the check, then answers warm calls with the check (2)', async () => {
    h.reset();
    await call('get_hubs');
    expect(h.actions()).toEqual(['data.q', 'data.q', 'data.q', 'data.q', 'data.q', 'data.q', 'data.q']);
    for (const tool of [
      'get_hubs',
      'get_outlinks',
      'find_path',
      'list_pages',
      'resolve_pages',
      'get_link_graph',
    ]) {
      const args = {
        get_outlinks: { title: 'Cooking' },
        find_path: { source: 'Cooking', target: 'food' },
        resolve_pages: { names: ['Cokking'] },
      }[tool];
      h.reset();
      await call(tool, args);
      expect({ tool, requests: h.actions().length }).toEqual({ tool, requests: 2 });
    }
  });

  it('adds exactly one batched query for previews, whatever the number of pages shown', async () => {
    await call('get_hubs');
    h.reset();
    const out = await call('get_neighbors', { title: 'draft' });
    expect(out.items).toHaveLength(3);
    expect(h.actions()).toEqual(['data.q', 'data.q', 'data.q']);
    h.reset();
    await call('search_by_tags', { tags: ['draft'], target: 'pages' });
    expect(h.actions()).toHaveLength(3);
    h.reset();
    // Blocks carrying a tag are not in the index: one query for the tag's blocks, one for texts.
    await call('search_by_tags', { tags: ['draft'], target: 'blocks' });
    expect(h.actions()).toHaveLength(4);
    h.reset();
    await call('get_neighbors', { title: 'Island' });
    expect(h.actions()).toHaveLength(2);
  });

  it('shares one build between concurrent cold calls', async () => {
    h.reset();
    await Promise.all([call('get_hubs'), call('list_pages'), call('get_outlinks', { title: 'Cooking' })]);
    // One check, one build, shared by all three.
    expect(h.actions()).toHaveLength(2 + 5);
  });
});

describe('freshness', () => {
  it('sees a block created by another client', async () => {
    expect(await outlinks('Island')).toEqual([]);
    edit('data.block.create', {
      location: { 'parent-uid': 'is', order: 'last' },
      block: { string: 'Now [[Cooking]]' },
    });
    h.reset();
    expect(await outlinks('Island')).toEqual(['Cooking']);
    expect(h.actions()).toHaveLength(2 + 5);
    expect((await call('find_path', { source: 'Island', target: 'food' })).length).toBe(2);
  });

  it('sees an edited block and a deleted one', async () => {
    expect(await outlinks('Cooking')).toEqual(['food', 'Recipes']);
    const rows = h.emulator
      .graph(GRAPH)
      .run('data.q', [
        '[:find ?u :where [?b :block/string "See [[Recipes]] #food"] [?b :block/uid ?u]]',
      ]) as string[][];
    const uid = rows[0]![0];
    edit('data.block.update', { block: { uid, string: 'See [[Recipes]] only' } });
    expect(await outlinks('Cooking')).toEqual(['Recipes']);
    edit('data.block.delete', { block: { uid } });
    expect(await outlinks('Cooking')).toEqual([]);
    expect((await call('get_hubs', { metric: 'in_degree', limit: 1 })).items[0].title).toBe('draft');
  });

  it('sees a renamed page', async () => {
    edit('data.page.update', { page: { uid: 'model', title: 'Model Zoo' } });
    expect(await outlinks('Neural Networks')).toEqual(['draft', 'Linear Algebra', 'Model Zoo', 'Type']);
  });

  it('drops a failed build, so the next call builds again', async () => {
    invalidate();
    const hubs = navigationTools.find((t) => t.name === 'get_hubs')!;
    let calls = 0;
    // After the first check request answers, Roam fails the next query: the call fails mid-way.
    const failing: ToolContext = {
      ...h.ctx,
      call: async <T>(action: string, args?: unknown[]) => {
        const result = await h.ctx.call<T>(action, args);
        if (++calls === 1)
          h.emulator.setFault({ kind: 'status', status: 500 }, { action: 'data.q', times: 1 });
        return result;
      },
    };
    await expect(hubs.handler({ metric: 'in_degree', limit: 1, offset: 0 }, failing)).rejects.toThrow(/500/);
    h.reset();
    expect((await call('get_hubs', { limit: 1 })).items[0].title).toBe('draft');
    expect(h.actions()).toHaveLength(7);
  });

  it('rebuilds after invalidation even when nothing changed', async () => {
    await call('get_hubs');
    invalidate();
    h.reset();
    await call('get_hubs');
    expect(h.actions()).toHaveLength(7);
  });
});
