/**
 * Builds a LinkIndex from rows as they stream in (docs/navigation.md, "The link index"): every
 * row is copied into growing typed arrays at once, so no answer is ever held as JSON or as one
 * array per row. Pages, blocks and hidden blocks come first; `prepare` then fixes the page ids,
 * so each reference that arrives after it becomes its `(from page, to page)` pair at once (or is
 * dropped), and `finish` groups the pairs by source straight into the adjacency. References that
 * come earlier wait as rows until `prepare`.
 */
import { Adjacency } from './adjacency.ts';
import { HiddenBlocks, type HiddenBlockRow } from '../roam/hidden-blocks.ts';

import { IntByKey, IntList, PagePairs } from './int-columns.ts';
import { compareTitles, type LinkIndex, type PageNode } from './link-index.ts';

/** `[eid, title, uid, :edit/time or 0, :log/id or 0]` for every page. */
export type PageRow = readonly [number, string, string, number, number];
/** `[blockEid, pageEid, :edit/time or 0]` for every block. */
export type BlockRow = readonly [number, number, number];
/** `[blockEid, referenced eid]` for every reference (to pages or blocks; only pages count). */
export type ReferenceRow = readonly [number, number];
/** `[blockEid, attribute page eid]` for every block that is an attribute (`role:: …` → role). */
export type AttributeRow = readonly [number, number];

/** What `prepare` fixed: the pages in title order and their ids. */
interface Prepared {
  pages: PageNode[];
  pageEids: Int32Array;
  /** Page eid → its id + 1 (0: not a page). */
  idOf: IntByKey;
  hidden: HiddenBlocks;
  blocks: number;
  lastEdit: number;
}

export class LinkIndexBuilder {
  private readonly pageEids: number[] = [];
  private readonly titles: string[] = [];
  private readonly uids: string[] = [];
  private readonly pageTimes: number[] = [];
  private readonly daily: boolean[] = [];
  /** Block eid → its page's eid + 1 (0: not a block). */
  private blockPage = new IntByKey();
  /** Page eid → slot in `blocksOf` / `newestOf`. */
  private readonly statSlot = new Map<number, number>();
  private readonly blocksOf: number[] = [];
  private readonly newestOf: number[] = [];
  private readonly hiddenRows: Array<[number, number]> = [];
  /** References that came before `prepare`. */
  private early = { referrers: new IntList(), referenced: new IntList() };
  private prepared: Prepared | undefined;
  private pairs = new PagePairs();
  private attributePairs = new PagePairs();
  /** Attribute references that came before `prepare`. */
  private earlyAttributes: Array<[number, number]> = [];

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
    if (this.prepared) this.link(this.prepared, block, target);
    else {
      this.early.referrers.push(block);
      this.early.referenced.push(target);
    }
  };

  /** An attribute reference; the same reference also arrives through `addReference`. */
  readonly addAttribute = (row: readonly unknown[]): void => {
    const [block, target] = row as AttributeRow;
    if (this.prepared) this.link(this.prepared, block, target, this.attributePairs);
    else this.earlyAttributes.push([block, target]);
  };

  readonly addHidden = (row: readonly unknown[]): void => {
    const [block, page] = row as HiddenBlockRow;
    this.hiddenRows.push([block, page]);
  };

  /** A reference between two different pages, from a visible block, as its key. */
  private link(p: Prepared, block: number, target: number, pairs = this.pairs): void {
    const to = p.idOf.get(target) - 1;
    const pageEid = this.blockPage.get(block) - 1;
    if (to < 0 || pageEid < 0 || p.hidden.has(block)) return;
    const from = p.idOf.get(pageEid) - 1;
    if (from < 0 || from === to) return;
    pairs.push(from, to);
  }

  /** Every page, block and hidden block is in: fixes the page ids (references may still come). */
  prepare(): void {
    if (this.prepared) return;
    const hidden = HiddenBlocks.from(this.hiddenRows);
    const order = this.titles
      .map((_, i) => i)
      .sort((a, b) => compareTitles(this.titles[a]!, this.titles[b]!));
    const idOf = new IntByKey();
    const pageEids = new Int32Array(order.length);
    let blocks = 0;
    let lastEdit = 0;
    for (const [page, slot] of this.statSlot) {
      blocks += this.blocksOf[slot]! - (hidden.perPage.get(page) ?? 0);
      lastEdit = Math.max(lastEdit, this.newestOf[slot]!);
    }
    const pages: PageNode[] = order.map((row, id) => {
      const eid = this.pageEids[row]!;
      idOf.set(eid, id + 1);
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
    const prepared: Prepared = { pages, pageEids, idOf, hidden, blocks, lastEdit };
    this.prepared = prepared;
    const { referrers, referenced } = this.early;
    for (let i = 0; i < referrers.length; i++) this.link(prepared, referrers.at(i), referenced.at(i));
    this.early = { referrers: new IntList(), referenced: new IntList() };
    for (const [block, target] of this.earlyAttributes)
      this.link(prepared, block, target, this.attributePairs);
    this.earlyAttributes = [];
  }

  finish(): LinkIndex {
    this.prepare();
    const { pages, pageEids, hidden, blocks, lastEdit } = this.prepared!;
    // The rows are spent: let them go before the links are laid out.
    this.blockPage = new IntByKey();
    const references = this.pairs.length;
    const grouped = this.pairs.groupByFrom(pages.length);
    const links = Adjacency.fromGrouped(grouped.start, grouped.targets);
    const attributes = this.attributePairs.groupByFrom(pages.length);
    return {
      pages,
      pageEids,
      outLinks: links.out,
      inLinks: links.in,
      attributeLinks: Adjacency.forwardFromGrouped(attributes.start, attributes.targets),
      hidden,
      ...titleLookups(pages),
      totals: {
        pages: pages.length,
        blocks,
        references,
        links: links.out.linkCount,
        lastEdit,
      },
      memo: new Map(),
    };
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
  hiddenRows: readonly HiddenBlockRow[] = [],
  attributeRows: readonly AttributeRow[] = [],
): LinkIndex {
  const builder = new LinkIndexBuilder();
  pageRows.forEach(builder.addPage);
  blockRows.forEach(builder.addBlock);
  hiddenRows.forEach(builder.addHidden);
  builder.prepare();
  referenceRows.forEach(builder.addReference);
  attributeRows.forEach(builder.addAttribute);
  return builder.finish();
}
