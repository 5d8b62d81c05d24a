/** PageRank over the page link graph (`get_hubs` metric `pagerank`, docs/navigation.md). */
import { neighborsOf, nodeCount, type NeighborLists } from './adjacency.ts';

export interface PageRankOptions {
  damping?: number;
  /** Stop once the L1 change of one iteration falls below this. */
  tolerance?: number;
  maxIterations?: number;
}

/**
 * PageRank of every node of a directed graph given as distinct out-neighbour lists. Scores sum to 1;
 * dangling nodes (no out-links) spread their rank evenly, so nothing leaks.
 */
export function pagerank(outNeighbors: NeighborLists, options: PageRankOptions = {}): Float64Array {
  const { damping = 0.85, tolerance = 1e-10, maxIterations = 100 } = options;
  const n = nodeCount(outNeighbors);
  let rank = new Float64Array(n).fill(n ? 1 / n : 0);
  let next = new Float64Array(n);
  for (let iteration = 0; iteration < maxIterations && n > 0; iteration++) {
    let dangling = 0;
    next.fill(0);
    for (let i = 0; i < n; i++) {
      const targets = neighborsOf(outNeighbors, i);
      if (targets.length === 0) {
        dangling += rank[i]!;
        continue;
      }
      const share = rank[i]! / targets.length;
      for (let k = 0; k < targets.length; k++) next[targets[k]!]! += share;
    }
    const base = (1 - damping) / n + (damping * dangling) / n;
    let change = 0;
    for (let i = 0; i < n; i++) {
      next[i] = base + damping * next[i]!;
      change += Math.abs(next[i]! - rank[i]!);
    }
    [rank, next] = [next, rank];
    if (change < tolerance) break;
  }
  return rank;
}
