/** Which pages and blocks carry a set of tags. In Roam `#tag`, `[[tag]]` and `tag::` are the same reference. */
import type { ToolContext } from '../tool-definition.ts';
import { queryRows } from './index-queries.ts';
import { memoized, type LinkIndex } from './link-index.ts';
import { findPage, suggestions } from './page-lookup.ts';

export type TagMode = 'any' | 'all';

export interface ResolvedTags {
  /** Page ids of the tags that exist. */
  ids: number[];
  unknown: Array<{ name: string; suggestions: ReturnType<typeof suggestions> }>;
}

/** Strips `#`, `[[..]]` and `::` decoration an agent may copy from Roam text. */
export function cleanTag(tag: string): string {
  return tag
    .trim()
    .replace(/^#/, '')
    .replace(/^\[\[(.*)\]\]$/s, '$1')
    .replace(/::$/, '')
    .trim();
}

export function resolveTags(index: LinkIndex, tags: readonly string[]): ResolvedTags {
  const ids = new Set<number>();
  const unknown: ResolvedTags['unknown'] = [];
  for (const tag of tags) {
    const name = cleanTag(tag);
    const id = findPage(index, name);
    if (id === undefined) unknown.push({ name, suggestions: suggestions(index, name) });
    else ids.add(id);
  }
  return { ids: [...ids], unknown };
}

/**
 * Pages with a block referencing the tags (any or all of them), ranked by how many of the tags they
 * carry, then by how many references, then title.
 */
export function pagesWithTags(index: LinkIndex, tagIds: readonly number[], mode: TagMode): number[] {
  const matched = new Map<number, { tags: number; references: number }>();
  for (const tag of tagIds) {
    for (const [page, references] of index.inLinks.of(tag)) {
      const entry = matched.get(page) ?? { tags: 0, references: 0 };
      entry.tags++;
      entry.references += references;
      matched.set(page, entry);
    }
  }
  const pages = [...matched].filter(([, m]) => mode === 'any' || m.tags === tagIds.length);
  return pages
    .sort((a, b) => b[1].tags - a[1].tags || b[1].references - a[1].references || a[0] - b[0])
    .map(([page]) => page);
}

/** Blocks referencing any of the tags, with their page: `[block, tag, page]` eids. */
export const TAG_BLOCKS_QUERY =
  '[:find ?b ?d ?p :in $ [?d ...] :where [?b :block/refs ?d] [?b :block/page ?p]]';

export interface TaggedBlock {
  eid: number;
  /** Page id of the page holding the block. */
  page: number;
  /** Page ids of the tags it carries (among those asked for). */
  tags: number[];
}

/** Page id by page eid, built once per index. */
function pageIdsByEid(index: LinkIndex): Map<number, number> {
  return memoized(index, 'page-ids-by-eid', () => new Map([...index.pageEids].map((eid, id) => [eid, id])));
}

/**
 * Blocks referencing the tags (any or all of them), newest first (DataScript eids grow with
 * creation), hidden blocks left out. Not kept in the index: one round trip for these tags only.
 */
export async function fetchBlocksWithTags(
  ctx: ToolContext,
  index: LinkIndex,
  tagIds: readonly number[],
  mode: TagMode,
): Promise<TaggedBlock[]> {
  if (tagIds.length === 0) return [];
  const idOf = pageIdsByEid(index);
  const blocks = new Map<number, TaggedBlock>();
  const tagEids = tagIds.map((tag) => index.pageEids[tag]!);
  await queryRows(ctx, [TAG_BLOCKS_QUERY, tagEids], ([eid, tagEid, pageEid]) => {
    const [block, tag, page] = [Number(eid), idOf.get(Number(tagEid)), idOf.get(Number(pageEid))];
    // A page created after the index was built is not in it: its blocks wait for the next build.
    if (tag === undefined || page === undefined || index.hidden.has(block)) return;
    const entry = blocks.get(block) ?? { eid: block, page, tags: [] };
    entry.tags.push(tag);
    blocks.set(block, entry);
  });
  const order = new Map(tagIds.map((tag, i) => [tag, i]));
  return [...blocks.values()]
    .filter((block) => mode === 'any' || block.tags.length === tagIds.length)
    .map((block) => ({ ...block, tags: block.tags.sort((a, b) => order.get(a)! - order.get(b)!) }))
    .sort((a, b) => b.eid - a.eid);
}
