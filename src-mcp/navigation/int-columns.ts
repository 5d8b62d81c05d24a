/**
 * Growing integer storage for the index build (docs/navigation.md, "The link index"): fixed-size
 * chunks, so growing never copies nor doubles the memory, the way one typed array grown by
 * reallocation would at a million rows.
 */

const CHUNK = 1 << 16;

/** An append-only list of int32 values. */
export class IntList {
  private readonly chunks: Int32Array[] = [];
  length = 0;

  push(value: number): void {
    const at = this.length++ & (CHUNK - 1);
    if (at === 0) this.chunks.push(new Int32Array(CHUNK));
    this.chunks[this.chunks.length - 1]![at] = value;
  }

  at(index: number): number {
    return this.chunks[index >>> 16]![index & (CHUNK - 1)]!;
  }
}

/** A sparse int32 map over small non-negative keys (entity ids), 0 where never set. */
export class IntByKey {
  private readonly pages: Array<Int32Array | undefined> = [];

  set(key: number, value: number): void {
    const page = key >>> 16;
    const chunk = (this.pages[page] ??= new Int32Array(CHUNK));
    chunk[key & (CHUNK - 1)] = value;
  }

  get(key: number): number {
    return this.pages[key >>> 16]?.[key & (CHUNK - 1)] ?? 0;
  }
}

/**
 * Page → page references as `(from, to)` pairs, kept as they arrive in chunked columns, then
 * grouped by `from` with a counting sort: no comparison sort of every reference, no contiguous
 * copy of the pairs.
 */
export class PagePairs {
  private from = new IntList();
  private to = new IntList();

  get length(): number {
    return this.from.length;
  }

  push(from: number, to: number): void {
    this.from.push(from);
    this.to.push(to);
  }

  /**
   * Every pair's `to`, grouped by `from` (`targets[start[p] .. start[p + 1])`, in arrival order
   * within a group). The pairs are let go.
   */
  groupByFrom(nodes: number): { start: Int32Array; targets: Int32Array } {
    const count = this.from.length;
    const start = new Int32Array(nodes + 1);
    for (let i = 0; i < count; i++) start[this.from.at(i) + 1]!++;
    for (let p = 0; p < nodes; p++) start[p + 1]! += start[p]!;
    const fill = start.slice(0, nodes);
    const targets = new Int32Array(count);
    for (let i = 0; i < count; i++) targets[fill[this.from.at(i)]!++] = this.to.at(i);
    [this.from, this.to] = [new IntList(), new IntList()];
    return { start, targets };
  }
}
