/** Choosing a subgraph that fits the context window: the nodes near a page, or the best connected ones. */
import { LIMITS, truncate } from '../contract/limits.ts';
import { degree, memoized, type LinkIndex } from './link-index.ts';

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

export interface Neighborhood {
  /** Pages within reach, nearest first. */
  ranked: number[];
  /** Distance of every page from the center, -1 when out of reach. */
  depthOf: Int8Array;
}

/**
 * Pages within `depth` links (either direction) of `center`, nearest first. Within a ring the best
 * connected come first, as far as the first `shown` pages need it (the rest only count towards
 * totals, so they are not sorted).
 */
export function neighborhood(
  index: LinkIndex,
  center: number,
  depth: number,
  shown = Infinity,
): Neighborhood {
  const [out, incoming] = [index.outLinks, index.inLinks];
  const depthOf = new Int8Array(index.pages.length).fill(-1);
  depthOf[center] = 0;
  const ranked = [center];
  let frontier = [center];
  for (let d = 1; d <= depth && frontier.length > 0; d++) {
    const ring: number[] = [];
    for (const node of frontier) {
      for (const adjacency of [out.neighbors(node), incoming.neighbors(node)]) {
        for (const next of adjacency) {
          if (depthOf[next] !== -1) continue;
          depthOf[next] = d;
          ring.push(next);
        }
      }
    }
    if (ranked.length < shown) ring.sort((a, b) => degree(index, b) - degree(index, a) || a - b);
    for (const id of ring) ranked.push(id);
    frontier = ring;
  }
  return { ranked, depthOf };
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
  depthOf?: Int8Array,
): LinkGraph {
  const chosen = ranked.slice(0, limit);
  const nodes = chosen.map((id) => ({
    uid: index.pages[id]!.uid,
    title: truncate(index.pages[id]!.title, LABEL_CHARS),
    degree: degree(index, id),
    ...(depthOf ? { depth: depthOf[id] } : {}),
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
    for (const [to, references] of index.outLinks.of(from))
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
