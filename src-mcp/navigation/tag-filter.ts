/** Which pages and blocks carry a set of tags. In Roam `#tag`, `[[tag]]` and `tag::` are the same reference. */
import { findPage, suggestions } from './page-lookup.ts';
import type { LinkIndex } from './link-index.ts';

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
    for (const [page, references] of index.inLinks[tag]!) {
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

/** Blocks referencing the tags (any or all of them), newest first. */
export function blocksWithTags(index: LinkIndex, tagIds: readonly number[], mode: TagMode): number[] {
  if (tagIds.length === 0) return [];
  const counts = new Map<number, number>();
  for (const tag of tagIds)
    for (const block of index.taggedBlocks[tag]!) counts.set(block, (counts.get(block) ?? 0) + 1);
  const blocks: number[] = [];
  for (const [block, count] of counts) if (mode === 'any' || count === tagIds.length) blocks.push(block);
  return blocks.sort((a, b) => b - a);
}
