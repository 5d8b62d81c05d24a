/**
 * Weighted page → page links in compressed rows (docs/navigation.md, "The link index"): the links
 * of page p are `targets[start[p] .. start[p + 1])`, in ascending page order, with `weights` the
 * number of referencing blocks. Three flat typed arrays instead of a Map per page.
 */

/** One page's links, read like a `ReadonlyMap<page, references>`. */
export class Links implements Iterable<[number, number]> {
  constructor(
    private readonly targets: Int32Array,
    private readonly weights: Int32Array,
    private readonly from: number,
    private readonly to: number,
  ) {}

  get size(): number {
    return this.to - this.from;
  }

  /** References to `other`, or undefined when there is no link. */
  get(other: number): number | undefined {
    let lo = this.from;
    let hi = this.to - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const at = this.targets[mid]!;
      if (at === other) return this.weights[mid];
      if (at < other) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  has(other: number): boolean {
    return this.get(other) !== undefined;
  }

  /** Linked pages, ascending. A view, not a copy. */
  keys(): Int32Array {
    return this.targets.subarray(this.from, this.to);
  }

  *[Symbol.iterator](): IterableIterator<[number, number]> {
    for (let i = this.from; i < this.to; i++) yield [this.targets[i]!, this.weights[i]!];
  }
}

/** Where each row starts, from each row's length (and the end of the last). */
function rowStarts(lengths: Int32Array): Int32Array {
  const start = new Int32Array(lengths.length + 1);
  for (let p = 0; p < lengths.length; p++) start[p + 1] = start[p]! + lengths[p]!;
  return start;
}

/** Links to walk, one direction: each page's linked pages, ascending. */
export interface LinkWalk {
  readonly nodes: number;
  neighbors(id: number): Int32Array;
  degree(id: number): number;
  degrees(): Int32Array;
}

/**
 * Compressed rows of linked pages: page p's are `targets[start[p] .. start[p + 1])`, ascending.
 * Without weights, what hubs and paths walk (Adjacency.without); an Adjacency adds the weights.
 */
export class LinkRows implements LinkWalk {
  constructor(
    protected readonly start: Int32Array,
    protected readonly targets: Int32Array,
  ) {}

  get nodes(): number {
    return this.start.length - 1;
  }

  /** Distinct links in total. */
  get linkCount(): number {
    return this.targets.length;
  }

  degree(id: number): number {
    return this.start[id + 1]! - this.start[id]!;
  }

  /** Every page's degree. */
  degrees(): Int32Array {
    const out = new Int32Array(this.nodes);
    for (let p = 0; p < out.length; p++) out[p] = this.degree(p);
    return out;
  }

  /** Linked pages of `id`, ascending (a view). */
  neighbors(id: number): Int32Array {
    return this.targets.subarray(this.start[id], this.start[id + 1]);
  }

  /** How many pages link to each page. */
  inDegrees(): Int32Array {
    const counts = new Int32Array(this.nodes);
    for (const target of this.targets) counts[target]!++;
    return counts;
  }

  /** The same links walked backwards (sources in ascending order, so each row is too). */
  reversed(): LinkRows {
    const nodes = this.nodes;
    const start = rowStarts(this.inDegrees());
    const targets = new Int32Array(this.targets.length);
    const fill = start.slice(0, nodes);
    for (let from = 0; from < nodes; from++)
      for (const to of this.neighbors(from)) targets[fill[to]!++] = from;
    return new LinkRows(start, targets);
  }
}

export class Adjacency extends LinkRows {
  private constructor(
    start: Int32Array,
    targets: Int32Array,
    private readonly weights: Int32Array,
  ) {
    super(start, targets);
  }

  /**
   * From distinct links sorted by source then target, given as each source's link count
   * (`outDegree`) and the targets and weights in that order: the links as given, and reversed.
   */
  static both(outDegree: Int32Array, to: Int32Array, weight: Int32Array): { out: Adjacency; in: Adjacency } {
    const nodes = outDegree.length;
    const outStart = rowStarts(outDegree);
    const out = new Adjacency(outStart, to, weight);
    const inStart = rowStarts(out.inDegrees());
    // Sources come in ascending order, so each page's in-links come out ascending too.
    const inTargets = new Int32Array(to.length);
    const inWeights = new Int32Array(to.length);
    const fill = inStart.slice(0, nodes);
    for (let from = 0; from < nodes; from++) {
      for (let i = outStart[from]!; i < outStart[from + 1]!; i++) {
        const slot = fill[to[i]!]!++;
        inTargets[slot] = from;
        inWeights[slot] = weight[i]!;
      }
    }
    return { out, in: new Adjacency(inStart, inTargets, inWeights) };
  }

  /**
   * From every reference's target grouped by source page (`targets[start[p] .. start[p + 1])`,
   * any order within a group, repeats included): each group is sorted in place, each distinct
   * target is a link and its repeats its weight.
   */
  static fromGrouped(start: Int32Array, targets: Int32Array) {
    return Adjacency.both(...Adjacency.distinct(start, targets));
  }

  /** As `fromGrouped`, one direction only (the attribute links: nothing walks them backwards). */
  static forwardFromGrouped(start: Int32Array, targets: Int32Array): Adjacency {
    const [outDegree, to, weight] = Adjacency.distinct(start, targets);
    return Adjacency.forwardFromColumns(rowStarts(outDegree), to, weight);
  }

  /** Each group sorted in place; its distinct targets, their repeats as weights. */
  private static distinct(start: Int32Array, targets: Int32Array): [Int32Array, Int32Array, Int32Array] {
    const nodes = start.length - 1;
    const outDegree = new Int32Array(nodes);
    let distinct = 0;
    for (let p = 0; p < nodes; p++) {
      const group = targets.subarray(start[p], start[p + 1]).sort();
      for (let i = 0; i < group.length; i++) if (i === 0 || group[i] !== group[i - 1]) outDegree[p]!++;
      distinct += outDegree[p]!;
    }
    const to = new Int32Array(distinct);
    const weight = new Int32Array(distinct);
    let link = -1;
    for (let p = 0; p < nodes; p++) {
      for (let i = start[p]!; i < start[p + 1]!; i++) {
        if (i === start[p] || targets[i] !== targets[i - 1]) to[++link] = targets[i]!;
        weight[link]!++;
      }
    }
    return [outDegree, to, weight];
  }

  /** From an out-adjacency's own columns (index-codec.ts), one direction only. */
  static forwardFromColumns(start: Int32Array, targets: Int32Array, weights: Int32Array): Adjacency {
    return new Adjacency(start, targets, weights);
  }

  /** From an out-adjacency's own columns (index-codec.ts), with its reverse. */
  static fromColumns(start: Int32Array, targets: Int32Array, weights: Int32Array) {
    return Adjacency.both(new LinkRows(start, targets).degrees(), targets, weights);
  }

  /**
   * These links less the ones `part` accounts for whole (the same source and target, and all of
   * its references), as rows to walk: no weights, no reverse until one is asked for. One merge of
   * the two sorted rows per page: at a million blocks, a copy through plain arrays with both
   * directions and weights cost ~60 MB at its peak; these rows cost ~5 MB.
   */
  without(part: Adjacency): LinkRows {
    const nodes = this.nodes;
    const kept = new Uint8Array(this.targets.length);
    const start = new Int32Array(nodes + 1);
    for (let p = 0; p < nodes; p++) {
      let j = part.start[p]!;
      const partEnd = part.start[p + 1]!;
      let degree = 0;
      for (let i = this.start[p]!; i < this.start[p + 1]!; i++) {
        const target = this.targets[i]!;
        while (j < partEnd && part.targets[j]! < target) j++;
        if (j < partEnd && part.targets[j] === target && part.weights[j] === this.weights[i]) continue;
        kept[i] = 1;
        degree++;
      }
      start[p + 1] = start[p]! + degree;
    }
    const targets = new Int32Array(start[nodes]!);
    for (let i = 0, k = 0; i < kept.length; i++) if (kept[i]) targets[k++] = this.targets[i]!;
    return new LinkRows(start, targets);
  }

  /** The three columns, as kept (not copies): for writing the index to disk. */
  columns(): { start: Int32Array; targets: Int32Array; weights: Int32Array } {
    return { start: this.start, targets: this.targets, weights: this.weights };
  }

  of(id: number): Links {
    return new Links(this.targets, this.weights, this.start[id]!, this.start[id + 1]!);
  }
}

/** Neighbour lists as plain arrays or links to walk: what shortest paths and pagerank walk. */
export type NeighborLists = readonly (readonly number[])[] | LinkWalk;

export function nodeCount(lists: NeighborLists): number {
  return isWalk(lists) ? lists.nodes : lists.length;
}

export function neighborsOf(lists: NeighborLists, id: number): ArrayLike<number> {
  return isWalk(lists) ? lists.neighbors(id) : (lists[id] ?? []);
}

const isWalk = (lists: NeighborLists): lists is LinkWalk => !Array.isArray(lists);
