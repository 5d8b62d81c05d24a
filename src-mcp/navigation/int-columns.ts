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
