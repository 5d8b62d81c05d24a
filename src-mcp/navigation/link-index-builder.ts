/**
 * Builds a LinkIndex from rows as they stream in (docs/navigation.md, "The link index"): every
 * row is copied into growing typed arrays at once, so no answer is ever held as JSON or as one
 * array per row. The four answers may arrive interleaved; `finish` joins them.
 */
import { Adjacency } from './adjacency.ts';
import { HiddenBlocks, type HiddenRow } from './hidden-rows.ts';

export type { HiddenRow };
import { IntByKey, IntList } from './int-columns.ts';
import { compareTitles, type LinkIndex, type PageNode } from './link-index.ts';

/** `[eid, title, uid, :edit/time or 0, :log/id or 0]` for every page. */
export type PageRow = readonly [number, string, string, number, number];
/** `[blockEid, pageEid, :edit/time or 0]` for every block. */
export type BlockRow = readonly [number, number, number];
/** `[blockEid, referenced eid]` for every reference (to pages or blocks; only pages count). */
export type ReferenceRow = readonly [number, number];

export class LinkIndexBuilder {
  private readonly pageEids: number[] = [];
  private readonly titles: string[] = [];
  private readonly uids: string[] = [];
  private readonly pageTimes: number[] = [];
  private readonly daily: boolean[] = [];
  /** Block eid → its page's eid + 1 (0: not a block). */
  private blockPage = new IntByKey();
  private blockCount = 0;
  /** Page eid → slot in `blocksOf` / `newestOf`. */
  private readonly statSlot = new Map<number, number>();
  private readonly blocksOf: number[] = [];
  private readonly newestOf: number[] = [];
  private referrers = new IntList();
  private referenced = new IntList();
  private readonly hiddenRows: Array<[number, number]> = [];

  readonly addPage = (row: readonly unknown[]): void => {
    const [eid, title, uid, time, log] = row as PageRow;
    this.pageEids.push(eid);
    this.titles.push(title);
    this.uids.push(uid);
    this.pageTimes.push(time || 0);
    this.daily.push(Boolean(log));
  };

  readonly addBlock = (row: readonly unknown[]): void => {
    const [block, page, time] = row as BlockRow;
    this.blockPage.set(block, page + 1);
    this.blockCount++;
    let slot = this.statSlot.get(page);
    if (slot === undefined) {
      slot = this.statSlot.size;
      this.statSlot.set(page, slot);
      this.blocksOf.push(0);
      this.newestOf.push(0);
    }
    this.blocksOf[slot]!++;
    if ((time || 0) > this.newestOf[slot]!) this.newestOf[slot] = time;
  };

  readonly addReference = (row: readonly unknown[]): void => {
    const [block, target] = row as ReferenceRow;
    this.referrers.push(block);
    this.referenced.push(target);
  };

  readonly addHidden = (row: readonly unknown[]): void => {
    const [block, page] = row as HiddenRow;
    this.hiddenRows.push([block, page]);
  };

  finish(): LinkIndex {
    const hidden = HiddenBlocks.from(this.hiddenRows);
    const order = this.titles
      .map((_, i) => i)
      .sort((a, b) => compareTitles(this.titles[a]!, this.titles[b]!));
    const idOfEid = new Map<number, number>();
    const pageEids = new Int32Array(order.length);
    let blocks = 0;
    let lastEdit = 0;
    for (const [page, slot] of this.statSlot) {
      blocks += this.blocksOf[slot]! - (hidden.perPage.get(page) ?? 0);
      lastEdit = Math.max(lastEdit, this.newestOf[slot]!);
    }
    const pages: PageNode[] = order.map((row, id) => {
      const eid = this.pageEids[row]!;
      idOfEid.set(eid, id);
      pageEids[id] = eid;
      const slot = this.statSlot.get(eid);
      const newest = Math.max(this.pageTimes[row]!, slot === undefined ? 0 : this.newestOf[slot]!);
      lastEdit = Math.max(lastEdit, newest);
      return {
        uid: this.uids[row]!,
        title: this.titles[row]!,
        daily: this.daily[row]!,
        blockCount: slot === undefined ? 0 : this.blocksOf[slot]! - (hidden.perPage.get(eid) ?? 0),
        lastEdit: newest,
      };
    });
    const { out, in: incoming, references } = this.links(pages.length, idOfEid, hidden);
    const lookups = titleLookups(pages);
    return {
      pages,
      pageEids,
      outLinks: out,
      inLinks: incoming,
      hidden,
      ...lookups,
      totals: { pages: pages.length, blocks, references, links: out.linkCount, lastEdit },
      memo: new Map(),
    };
  }

  /** Page → page links with their strength: one sort of packed (from, to) keys, then runs. */
  private links(nodes: number, idOfEid: ReadonlyMap<number, number>, hidden: HiddenBlocks) {
    const keys = new Float64Array(this.referrers.length);
    let kept = 0;
    for (let i = 0; i < keys.length; i++) {
      const block = this.referrers.at(i);
      const to = idOfEid.get(this.referenced.at(i));
      if (to === undefined || hidden.has(block)) continue;
      const from = idOfEid.get(this.blockPage.get(block) - 1);
      if (from === undefined || from === to) continue;
      keys[kept++] = from * nodes + to;
    }
    // The rows are spent: let them go before the links are laid out.
    [this.referrers, this.referenced, this.blockPage] = [new IntList(), new IntList(), new IntByKey()];
    const sorted = keys.subarray(0, kept).sort();
    let distinct = 0;
    for (let i = 0; i < kept; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) distinct++;
    const to = new Int32Array(distinct);
    const weight = new Int32Array(distinct);
    const outDegree = new Int32Array(nodes);
    for (let i = 0, link = -1; i < kept; i++) {
      if (i === 0 || sorted[i] !== sorted[i - 1]) {
        const from = Math.floor(sorted[i]! / nodes);
        to[++link] = sorted[i]! - from * nodes;
        outDegree[from]!++;
      }
      weight[link]!++;
    }
    return { ...Adjacency.both(outDegree, to, weight), references: kept };
  }
}

/** The uid and title maps of pages in title order. */
export function titleLookups(pages: readonly PageNode[]) {
  const byUid = new Map<string, number>();
  const byTitle = new Map<string, number>();
  const byLowerTitle = new Map<string, number[]>();
  pages.forEach((page, id) => {
    byUid.set(page.uid, id);
    byTitle.set(page.title, id);
    const lower = page.title.toLowerCase();
    const same = byLowerTitle.get(lower);
    if (same) same.push(id);
    else byLowerTitle.set(lower, [id]);
  });
  return { byUid, byTitle, byLowerTitle };
}

/** Builds the index from whole row sets (tests; the server streams into a LinkIndexBuilder). */
export function buildLinkIndex(
  pageRows: readonly PageRow[],
  blockRows: readonly BlockRow[],
  referenceRows: readonly ReferenceRow[],
  hiddenRows: readonly HiddenRow[] = [],
): LinkIndex {
  const builder = new LinkIndexBuilder();
  pageRows.forEach(builder.addPage);
  blockRows.forEach(builder.addBlock);
  referenceRows.forEach(builder.addReference);
  hiddenRows.forEach(builder.addHidden);
  return builder.finish();
}
