/**
 * The hiding step of the index build (docs/navigation.md "Hidden blocks"), kept apart from the
 * index itself: given the hidden blocks, the build drops the references they make and leaves them
 * out of their page's block count, so the index need not know why.
 */

/** `[blockEid, pageEid]` of every block hidden from AI (src-mcp/roam/hidden-blocks.ts). */
export type HiddenRow = readonly [number, number];

/** Eids of blocks hidden from AI: they give no links, tags, counts or previews. */
export class HiddenBlocks {
  private constructor(
    /** Sorted, distinct. */
    private readonly eids: Int32Array,
    /** Page eid → how many of its blocks are hidden. */
    readonly perPage: ReadonlyMap<number, number>,
  ) {}

  static from(rows: Iterable<HiddenRow>): HiddenBlocks {
    const pageOf = new Map<number, number>();
    for (const [block, page] of rows) pageOf.set(block, page);
    const eids = Int32Array.from(pageOf.keys()).sort();
    const perPage = new Map<number, number>();
    for (const page of pageOf.values()) perPage.set(page, (perPage.get(page) ?? 0) + 1);
    return new HiddenBlocks(eids, perPage);
  }

  static readonly none = HiddenBlocks.from([]);

  /** From the columns `columns()` gave (index-codec.ts): eids sorted, `[page, hidden count]` pairs. */
  static restore(eids: Int32Array, perPage: Int32Array): HiddenBlocks {
    const counts = new Map<number, number>();
    for (let i = 0; i < perPage.length; i += 2) counts.set(perPage[i]!, perPage[i + 1]!);
    return new HiddenBlocks(eids, counts);
  }

  columns(): { eids: Int32Array; perPage: Int32Array } {
    return { eids: this.eids, perPage: Int32Array.from([...this.perPage].flat()) };
  }

  get size(): number {
    return this.eids.length;
  }

  has(eid: number): boolean {
    let lo = 0;
    let hi = this.eids.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const at = this.eids[mid]!;
      if (at === eid) return true;
      if (at < eid) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  }
}
