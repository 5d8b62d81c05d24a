/**
 * A graph held as column arrays indexed by entity id, with no DataScript: the generator's graph
 * at a million blocks fits in a few hundred MB and answers the link index's queries in
 * milliseconds. Eids are the emulator's (the same datoms, in the same order, from
 * emitGraphDatoms), so its answers can be compared row for row with the emulator's.
 */
import { emitGraphDatoms, type Datom } from '../emulator/graph-loader.ts';
import type { PageSpec } from '../emulator/types.ts';

class Column<T extends Int32Array | Float64Array> {
  constructor(public data: T) {}
  set(eid: number, value: number): void {
    if (eid >= this.data.length) {
      const next = new (this.data.constructor as new (n: number) => T)(
        Math.max(eid + 1, this.data.length * 2),
      );
      next.set(this.data);
      this.data = next;
    }
    this.data[eid] = value;
  }
  get(eid: number): number {
    return this.data[eid] ?? 0;
  }
}

export class ColumnGraph {
  maxEid = 0;
  readonly uid: string[] = [];
  readonly string: string[] = [];
  readonly title = new Map<number, string>();
  readonly eidByTitle = new Map<string, number>();
  readonly eidByUid = new Map<string, number>();
  readonly page = new Column(new Int32Array(1024));
  readonly parent = new Column(new Int32Array(1024));
  readonly order = new Column(new Int32Array(1024));
  readonly editTime = new Column(new Float64Array(1024));
  readonly logId = new Column(new Float64Array(1024));
  readonly refFrom: number[] = [];
  readonly refTo: number[] = [];
  /** Children of each entity, in order: `children[start[e] .. start[e + 1])`. */
  private childStart = new Int32Array(0);
  private childList = new Int32Array(0);
  readonly pages: number[] = [];
  readonly blocks: number[] = [];

  static from(pages: readonly PageSpec[]): ColumnGraph {
    const graph = new ColumnGraph();
    emitGraphDatoms('scale', pages, (datom) => graph.add(datom));
    graph.seal();
    return graph;
  }

  private add([e, a, v]: Datom): void {
    this.maxEid = Math.max(this.maxEid, e);
    if (a === ':block/uid') {
      this.uid[e] = v as string;
      this.eidByUid.set(v as string, e);
    } else if (a === ':node/title') {
      this.title.set(e, v as string);
      this.eidByTitle.set(v as string, e);
      this.pages.push(e);
    } else if (a === ':block/string') this.string[e] = v as string;
    else if (a === ':block/page') {
      this.page.set(e, v as number);
      this.blocks.push(e);
    } else if (a === ':block/children') this.parent.set(v as number, e);
    else if (a === ':block/order') this.order.set(e, v as number);
    else if (a === ':edit/time') this.editTime.set(e, v as number);
    else if (a === ':log/id') this.logId.set(e, v as number);
    else if (a === ':block/refs') {
      this.refFrom.push(e);
      this.refTo.push(v as number);
    }
  }

  private seal(): void {
    const start = new Int32Array(this.maxEid + 2);
    for (const block of this.blocks) start[this.parent.get(block) + 1]!++;
    for (let e = 0; e <= this.maxEid; e++) start[e + 1]! += start[e]!;
    const list = new Int32Array(this.blocks.length);
    const fill = start.slice();
    for (const block of this.blocks) list[fill[this.parent.get(block)]!++] = block;
    for (let e = 0; e <= this.maxEid; e++) {
      const slice = list.subarray(start[e], start[e + 1]);
      if (slice.length > 1) slice.sort((x, y) => this.order.get(x) - this.order.get(y));
    }
    this.childStart = start;
    this.childList = list;
  }

  children(eid: number): Int32Array {
    if (eid > this.maxEid) return new Int32Array(0);
    return this.childList.subarray(this.childStart[eid], this.childStart[eid + 1]);
  }

  isPage(eid: number): boolean {
    return this.title.has(eid);
  }
}
