/**
 * Navigation at the edges: an empty graph, a hub referenced by thousands of blocks (pagination,
 * output caps), texts longer than the context limits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS, TRUNCATION_MARK } from '../../../src-mcp/contract/limits.ts';
import { navigationResources } from '../../../src-mcp/navigation/index.ts';
import { navigationTools } from '../../../src-mcp/tools/navigation/index.ts';
import { ToolError } from '../../../src-mcp/contract/tool-errors.ts';
import type { PageSpec } from '../../emulator/index.ts';
import { startNavigationHarness, type NavigationHarness } from '../../harness/http-context.ts';

const tool = (name: string) => navigationTools.find((t) => t.name === name)!;

describe('an empty graph', () => {
  let h: NavigationHarness;
  beforeAll(async () => {
    h = await startNavigationHarness('nav-empty', []);
  });
  afterAll(() => h.close());

  it('answers with empty lists, nulls and zero stats', async () => {
    expect(await h.run(tool('list_pages'))).toMatchObject({ items: [], total: 0 });
    expect(await h.run(tool('get_hubs'), { metric: 'pagerank' })).toMatchObject({ items: [], total: 0 });
    expect(await h.run(tool('random_page'))).toEqual({ candidates: 0, page: null });
    expect(await h.run(tool('get_link_graph'))).toMatchObject({ nodes: [], edges: [], totalNodes: 0 });
    expect(await h.run(tool('resolve_pages'), { names: ['Anything'] })).toMatchObject({
      results: [{ match: null, score: 0 }],
    });
    const stats = JSON.parse(
      await navigationResources.find((r) => r.name === 'graph-stats')!.read({}, h.ctx),
    );
    expect(stats).toMatchObject({ pages: 0, blocks: 0, links: 0, lastEdit: null });
  });

  it('says what to do when a page is asked for', async () => {
    const error = await h.run(tool('find_path'), { source: 'A', target: 'B' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolError);
    expect((error as ToolError).message).toMatch(/Page "A" does not exist .* search \(or resolve_pages/);
  });
});

describe('a hub referenced by thousands of blocks', () => {
  const NOTES = 300;
  const PER_NOTE = 10;
  const long = 'word '.repeat(400);
  const pages: PageSpec[] = [
    { title: 'Hub', uid: 'hub', children: [`${long}end`] },
    ...Array.from({ length: NOTES }, (_, i) => ({
      title: `Note ${String(i).padStart(3, '0')}`,
      children: Array.from({ length: PER_NOTE }, (_, k) => `${k === 0 ? long : 'ref'} [[Hub]] ${k}`),
    })),
  ];
  let h: NavigationHarness;
  beforeAll(async () => {
    h = await startNavigationHarness('nav-hub', pages);
  });
  afterAll(() => h.close());

  it('pages through every neighbour exactly once', async () => {
    const seen = new Set<string>();
    let offset: number | undefined = 0;
    let pagesRead = 0;
    while (offset !== undefined) {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- checked field by field
      const out: any = await h.run(tool('get_neighbors'), { title: 'Hub', limit: 50, offset });
      expect(out.incomingCount).toBe(NOTES);
      expect(out.total).toBe(NOTES);
      expect(out.items.length).toBeLessThanOrEqual(50);
      for (const item of out.items) {
        seen.add(item.title);
        expect(item.referencesIn).toBe(PER_NOTE);
        expect(item.preview.length).toBeLessThanOrEqual(LIMITS.context);
        expect(item.preview.endsWith(TRUNCATION_MARK)).toBe(true);
      }
      offset = out.nextOffset;
      pagesRead++;
    }
    expect(seen.size).toBe(NOTES);
    expect(pagesRead).toBe(NOTES / 50);
  });

  it('lists the referencing blocks with texts cut at the list-item limit', async () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- checked field by field
    const out: any = await h.run(tool('search_by_tags'), { tags: ['Hub'], target: 'blocks', limit: 100 });
    expect(out.total).toBe(NOTES * PER_NOTE);
    expect(out.items).toHaveLength(100);
    expect(out.nextOffset).toBe(100);
    const long = out.items.filter((i: { text: string }) => i.text.endsWith(TRUNCATION_MARK));
    for (const item of out.items) expect(item.text.length).toBeLessThanOrEqual(LIMITS.listItem);
    // Newest first: blocks were created in note order, so the last note's blocks come first.
    expect(out.items[0].page.title).toBe('Note 299');
    expect(long.length).toBe(10);
  });

  it('caps the link graph to the context limit and says so', async () => {
    const out = await h.run(tool('get_link_graph'), { center: 'Hub', depth: 2, limit: 100 });
    expect(JSON.stringify(out).length).toBeLessThanOrEqual(LIMITS.primary);
    expect(out).toMatchObject({ totalNodes: NOTES + 1, truncated: true });
  });

  it('ranks the hub first and cuts the page resource at the primary limit', async () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- checked field by field
    const hubs: any = await h.run(tool('get_hubs'), { metric: 'pagerank', limit: 1 });
    expect(hubs.items[0].title).toBe('Hub');
    const page = await navigationResources.find((r) => r.name === 'page')!.read({ title: 'hub' }, h.ctx);
    expect(page.length).toBeLessThanOrEqual(LIMITS.primary);
    expect(page).toContain('300 linking here');
  });
});
