/** Choosing a subgraph that fits the context window: the nodes near a page, or the best connected ones. */
import { LIMITS, truncate } from '../limits.ts';
import { memoized, type LinkIndex } from './link-index.ts';

/** Titles in the graph are labels: this long at most. */
export const LABEL_CHARS = 60;

export interface LinkGraph {
  nodes: Array<{ uid: string; title: string; degree: number; depth?: number }>;
  edges: Array<[string, string, number]>;
  /** Pages eligible before the node cap (within `depth` of the center, or all pages). */
  totalNodes: number;
  /** Links among the chosen nodes before the size budget. */
  totalEdges: number;
  truncated: boolean;
}

function degree(index: LinkIndex, id: number): number {
  return index.inLinks[id]!.size + index.outLinks[id]!.size;
}

/**
 * Pages within `depth` links (either direction) of `center`, nearest first; the map gives each
 * page's distance. Within a ring the best connected come first, as far as the first `shown` pages
 * need it (the rest only count towards totals, so they are not sorted).
 */
export function neighborhood(
  index: LinkIndex,
  center: number,
  depth: number,
  shown = Infinity,
): Map<number, number> {
  const rings = new Map([[center, 0]]);
  let frontier = [center];
  for (let d = 1; d <= depth && frontier.length > 0; d++) {
    const ring: number[] = [];
    const visit = (next: number) => {
      if (rings.has(next)) return;
      rings.set(next, d);
      ring.push(next);
    };
    for (const node of frontier) {
      for (const next of index.outLinks[node]!.keys()) visit(next);
      for (const next of index.inLinks[node]!.keys()) visit(next);
    }
    const before = rings.size - ring.length;
    if (before < shown) {
      ring.sort((a, b) => degree(index, b) - degree(index, a) || a - b);
      // Re-insert in ring order: a Map iterates in insertion order.
      for (const id of ring) rings.delete(id);
      for (const id of ring) rings.set(id, d);
    }
    frontier = ring;
  }
  return rings;
}

/** All pages, best connected first (computed once per index). */
export function mostConnected(index: LinkIndex): number[] {
  return memoized(index, 'most-connected', () =>
    index.pages.map((_, id) => id).sort((a, b) => degree(index, b) - degree(index, a) || a - b),
  );
}

/**
 * Builds `{nodes, edges}` from ranked candidates: at most `limit` nodes, then the strongest links
 * among them while the JSON stays within `budget` characters.
 */
export function linkGraph(
  index: LinkIndex,
  ranked: readonly number[],
  limit: number,
  budget: number = LIMITS.primary,
  depths?: ReadonlyMap<number, number>,
): LinkGraph {
  const chosen = ranked.slice(0, limit);
  const nodes = chosen.map((id) => ({
    uid: index.pages[id]!.uid,
    title: truncate(index.pages[id]!.title, LABEL_CHARS),
    degree: degree(index, id),
    ...(depths ? { depth: depths.get(id) } : {}),
  }));
  let size = JSON.stringify({
    nodes,
    edges: [],
    totalNodes: ranked.length,
    totalEdges: 0,
    truncated: true,
  }).length;
  while (nodes.length > 1 && size > budget) size -= JSON.stringify(nodes.pop()).length + 1;

  const included = new Set(chosen.slice(0, nodes.length));
  const candidates: Array<[number, number, number]> = [];
  for (const from of included) {
    for (const [to, references] of index.outLinks[from]!)
      if (included.has(to)) candidates.push([from, to, references]);
  }
  candidates.sort((a, b) => b[2] - a[2] || a[0] - b[0] || a[1] - b[1]);
  const edges: Array<[string, string, number]> = [];
  for (const [from, to, references] of candidates) {
    const edge: [string, string, number] = [index.pages[from]!.uid, index.pages[to]!.uid, references];
    const cost = JSON.stringify(edge).length + 1;
    if (size + cost > budget) break;
    size += cost;
    edges.push(edge);
  }
  return {
    nodes,
    edges,
    totalNodes: ranked.length,
    totalEdges: candidates.length,
    truncated: nodes.length < ranked.length || edges.length < candidates.length,
  };
}
