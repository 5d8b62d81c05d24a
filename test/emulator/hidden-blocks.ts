/**
 * Roam's hiding rule for its `data.ai.*` reads: a block that references
 * the page `.rm-hide` or `.rm-private` (`#.rm-hide`, `[[.rm-hide]]`, `#[[.rm-hide]]` all become
 * `:block/refs`) is hidden with everything nested under it. Raw queries and searchTemplates are
 * not filtered.
 */
import type { RoamGraph } from './roam-graph.ts';

export const HIDING_TAGS = ['.rm-hide', '.rm-private'] as const;

const cache = new WeakMap<RoamGraph, { version: number; hidden: ReadonlySet<number> }>();

/** Every hidden block of the graph (roots and descendants), computed once per graph version. */
export function hiddenBlocks(graph: RoamGraph): ReadonlySet<number> {
  const cached = cache.get(graph);
  if (cached?.version === graph.version) return cached.hidden;
  const hidden = new Set<number>();
  for (const title of HIDING_TAGS) {
    const tag = graph.eidByTitle(title);
    if (tag === undefined) continue;
    for (const root of graph.referrers(tag)) {
      if (!graph.isPage(root)) for (const eid of graph.subtree(root)) hidden.add(eid);
    }
  }
  cache.set(graph, { version: graph.version, hidden });
  return hidden;
}

export function isHidden(graph: RoamGraph, eid: number): boolean {
  return hiddenBlocks(graph).has(eid);
}
