/** Bounded breadth-first search: the shortest link path between two pages. */
import { neighborsOf, type NeighborLists } from './adjacency.ts';

/** How a hop was taken: along a link (`out`) or against it, from a page to one that links to it (`in`). */
export type HopDirection = 'out' | 'in';

export interface PathResult {
  /** Node indices from source to target inclusive. */
  nodes: number[];
  /** `hops[k]` is how `nodes[k]` reaches `nodes[k + 1]`. */
  hops: HopDirection[];
}

/**
 * A shortest path of at most `maxLength` edges from `source` to `target`, or null. With
 * `incoming` (the links reversed), edges may also be walked backwards (Roam shows both as links
 * of a page). Neighbour lists are visited in the given order, so the answer is deterministic.
 */
export function shortestPath(
  out: NeighborLists,
  incoming: NeighborLists | undefined,
  source: number,
  target: number,
  maxLength: number,
): PathResult | null {
  if (source === target) return { nodes: [source], hops: [] };
  const parent = new Map<number, { from: number; hop: HopDirection }>([[source, { from: -1, hop: 'out' }]]);
  let frontier = [source];
  for (let depth = 0; depth < maxLength && frontier.length > 0; depth++) {
    const nextFrontier: number[] = [];
    for (const node of frontier) {
      const steps: Array<[ArrayLike<number>, HopDirection]> = [[neighborsOf(out, node), 'out']];
      if (incoming) steps.push([neighborsOf(incoming, node), 'in']);
      for (const [neighbors, hop] of steps) {
        for (let k = 0; k < neighbors.length; k++) {
          const next = neighbors[k]!;
          if (parent.has(next)) continue;
          parent.set(next, { from: node, hop });
          if (next === target) return unwind(parent, target);
          nextFrontier.push(next);
        }
      }
    }
    frontier = nextFrontier;
  }
  return null;
}

function unwind(parent: Map<number, { from: number; hop: HopDirection }>, target: number): PathResult {
  const nodes: number[] = [];
  const hops: HopDirection[] = [];
  for (let node = target; node !== -1;) {
    const step = parent.get(node)!;
    nodes.push(node);
    if (step.from !== -1) hops.push(step.hop);
    node = step.from;
  }
  return { nodes: nodes.reverse(), hops: hops.reverse() };
}
