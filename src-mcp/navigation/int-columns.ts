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
 * Numeric keys kept as sorted runs of CHUNK: each key goes into the current run as it arrives, a
 * full run is sorted at once, and the keys are read back in order by merging the runs. No
 * contiguous array of every key is ever made, nor a second copy for sorting it.
 */
export class KeyRuns {
  private readonly runs: Float64Array[] = [];
  private current = new Float64Array(CHUNK);
  private fill = 0;

  push(key: number): void {
    this.current[this.fill++] = key;
    if (this.fill === CHUNK) {
      this.runs.push(this.current.sort());
      this.current = new Float64Array(CHUNK);
      this.fill = 0;
    }
  }

  /** Every key in ascending order (duplicates included). */
  forEach(visit: (key: number) => void): void {
    const runs = [...this.runs, this.current.subarray(0, this.fill).sort()].filter((r) => r.length > 0);
    const at = new Int32Array(runs.length);
    const heap = runs.map((_, r) => r);
    const less = (a: number, b: number) => runs[heap[a]!]![at[heap[a]!]!]! < runs[heap[b]!]![at[heap[b]!]!]!;
    const down = (from: number) => {
      for (let i = from; ;) {
        const [l, r] = [2 * i + 1, 2 * i + 2];
        let least = i;
        if (l < heap.length && less(l, least)) least = l;
        if (r < heap.length && less(r, least)) least = r;
        if (least === i) return;
        [heap[i], heap[least]] = [heap[least]!, heap[i]!];
        i = least;
      }
    };
    for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
    while (heap.length > 0) {
      const run = heap[0]!;
      visit(runs[run]![at[run]!++]!);
      if (at[run] === runs[run]!.length) {
        const last = heap.pop()!;
        if (heap.length === 0) break;
        heap[0] = last;
      }
      down(0);
    }
  }
}
