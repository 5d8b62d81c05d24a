/** Which pages and blocks carry a set of tags. In Roam `#tag`, `[[tag]]` and `tag::` are the same reference. */
import type { ToolContext } from '../contract/tool-definition.ts';
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

export interface TaggedBlocks {
  /** Block eids, newest first. */
  eids: number[];
  /** Page id of the page holding `eids[i]`. */
  pageAt(i: number): number;
  /** Page ids of the tags `eids[i]` carries (among those asked for). */
  tagsAt(i: number): number[];
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
): Promise<TaggedBlocks> {
  const idOf = pageIdsByEid(index);
  if (tagIds.length === 0) return { eids: [], pageAt: () => -1, tagsAt: () => [] };
  const slotOfTag = new Map(tagIds.map((tag, slot) => [index.pageEids[tag]!, slot]));
  // Flat: (eid, tag slot) packed in one number, and the page; a hub tag has many blocks.
  const packed: number[] = [];
  const rowPages: number[] = [];
  await queryRows(ctx, [TAG_BLOCKS_QUERY, [...slotOfTag.keys()]], ([eid, tagEid, pageEid]) => {
    const [block, slot, page] = [Number(eid), slotOfTag.get(Number(tagEid)), idOf.get(Number(pageEid))];
    // A page created after the index was built is not in it: its blocks wait for the next build.
    if (slot === undefined || page === undefined || index.hidden.has(block)) return;
    packed.push(block * 16 + slot);
    rowPages.push(page);
  });
  return groupByBlock(packed, rowPages, tagIds.length, mode, (mask) =>
    tagIds.filter((_, slot) => mask & (1 << slot)),
  );
}

/** One entry per block, newest first, its tags as a bit mask, from `eid * 16 + slot` keys. */
function groupByBlock(
  packed: readonly number[],
  rowPages: readonly number[],
  tags: number,
  mode: TagMode,
  tagsOf: (mask: number) => number[],
): TaggedBlocks {
  const order = Int32Array.from(packed.keys()).sort((a, b) => packed[b]! - packed[a]!);
  const eids: number[] = [];
  const masks: number[] = [];
  const pages: number[] = [];
  for (const row of order) {
    const block = Math.floor(packed[row]! / 16);
    if (eids.at(-1) !== block) {
      eids.push(block);
      masks.push(0);
      pages.push(rowPages[row]!);
    }
    masks[masks.length - 1]! |= 1 << (packed[row]! % 16);
  }
  const all = (1 << tags) - 1;
  const kept = mode === 'any' ? eids.map((_, i) => i) : eids.flatMap((_, i) => (masks[i] === all ? [i] : []));
  return {
    eids: kept.map((i) => eids[i]!),
    pageAt: (i) => pages[kept[i]!]!,
    tagsAt: (i) => tagsOf(masks[kept[i]!]!),
  };
}
