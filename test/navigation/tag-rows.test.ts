/**
 * search_by_tags' blocks (src-mcp/navigation/tag-filter.ts): the rows of the tag query are kept as
 * one packed number each while block eids and page ids fit the key, and as two arrays beyond that;
 * both give the same blocks, in the same order (newest first), with the same pages and tags.
 */
import { expect, it } from 'vitest';
import { buildLinkIndex, type BlockRow, type PageRow } from '../../src-mcp/navigation/link-index-builder.ts';
import { fetchBlocksWithTags, type TagMode } from '../../src-mcp/navigation/tag-filter.ts';
import type { ToolContext } from '../../src-mcp/tool-definition.ts';

/** Three tag pages and four note pages; blocks of the notes reference the tags (eids from `base`). */
function graph(base: number) {
  const pages: PageRow[] = [1, 2, 3, 4, 5, 6, 7].map((eid) => [eid, `Page ${eid}`, `uid-${eid}`, 0, 0]);
  const blocks: BlockRow[] = [];
  const tagRows: Array<[number, number, number]> = [];
  for (let i = 0; i < 40; i++) {
    const block = base + i * 7;
    const page = 4 + (i % 4);
    blocks.push([block, page, 0]);
    for (const tag of [1, 2, 3]) if ((i + tag) % tag === 0 || i % 5 === tag) tagRows.push([block, tag, page]);
  }
  const index = buildLinkIndex(pages, blocks, []);
  const ctx = {
    call: () => Promise.reject(new Error('not used')),
    callRows: async (_action: string, args: unknown[], onRow: (row: readonly unknown[]) => void) => {
      const asked = new Set(args[1] as number[]);
      // Roam's row order is its own: shuffled here, deterministically.
      for (const row of [...tagRows].reverse().sort((a, b) => (a[0] % 3) - (b[0] % 3)))
        if (asked.has(row[1])) onRow(row);
    },
  } as unknown as ToolContext;
  return { index, ctx };
}

async function tagged(base: number, mode: TagMode) {
  const { index, ctx } = graph(base);
  const ids = [1, 2, 3].map((eid) => index.pageEids.indexOf(eid));
  const blocks = await fetchBlocksWithTags(ctx, index, ids, mode);
  return blocks.eids.map((eid, i) => ({
    block: eid - base,
    page: index.pages[blocks.pageAt(i)]!.title,
    tags: blocks.tagsAt(i).map((id) => index.pages[id]!.title),
  }));
}

it('gives the same blocks, pages and tags whether the eids fit the packed key or not', async () => {
  for (const mode of ['any', 'all'] as const) {
    const narrow = await tagged(1_000, mode);
    const wide = await tagged(2 ** 29, mode);
    expect(wide, mode).toEqual(narrow);
    expect(narrow.length, mode).toBeGreaterThan(0);
    const order = narrow.map((b) => b.block);
    expect(order, mode).toEqual([...order].sort((a, b) => b - a));
  }
  const any = await tagged(1_000, 'any');
  expect(any).toContainEqual({ block: 0, page: 'Page 4', tags: ['Page 1', 'Page 2', 'Page 3'] });
});
