/**
 * The per-graph link index: pages are nodes, a page links to another when one of its blocks
 * references it (`[[..]]`, `#tag` and `attr::` all become `:block/refs`). Built once from four
 * `data.q` result sets (see index-queries.ts), blocks hidden from AI taken out first
 * (hidden-rows.ts), then every navigation tool answers from memory.
 */
import { withoutHidden } from './hidden-rows.ts';

export type { HiddenRow, PageRow, PageStatsRow, ReferenceRow } from './index-rows.ts';
import type { HiddenRow, PageRow, PageStatsRow, ReferenceRow } from './index-rows.ts';

export interface PageNode {
  uid: string;
  title: string;
  /** A daily note page (`:log/id` set). */
  daily: boolean;
  blockCount: number;
  /** Newest `:edit/time` of the page or its blocks, ms since epoch (0 when unknown). */
  lastEdit: number;
}

export interface LinkIndex {
  /** Freshness fingerprint of the graph this index was built from (see index-queries.ts). */
  readonly fingerprint: string;
  /** Pages in title order; a page's position is its id everywhere below. */
  readonly pages: readonly PageNode[];
  /** `outLinks[p]`: page id → number of blocks of p referencing it. Self-references are left out. */
  readonly outLinks: readonly ReadonlyMap<number, number>[];
  /** `inLinks[p]`: page id → number of its blocks referencing p. */
  readonly inLinks: readonly ReadonlyMap<number, number>[];
  /** `taggedBlocks[p]`: eids of blocks referencing p (self-references included), newest first. */
  readonly taggedBlocks: readonly (readonly number[])[];
  /** Eids of blocks hidden from AI: they give no links, tags, counts or previews. */
  readonly hidden: ReadonlySet<number>;
  /** Page id of every block that references a page. */
  readonly blockPages: ReadonlyMap<number, number>;
  readonly byUid: ReadonlyMap<string, number>;
  readonly byTitle: ReadonlyMap<string, number>;
  /** Lower-cased title → page ids (Roam titles are case-sensitive, so several may share one). */
  readonly byLowerTitle: ReadonlyMap<string, readonly number[]>;
  readonly totals: {
    pages: number;
    blocks: number;
    /** Block → page references between different pages. */
    references: number;
    /** Distinct page → page links. */
    links: number;
    lastEdit: number;
  };
  /** Values derived on first use (pagerank, orderings, bigrams), dropped with the index. */
  readonly memo: Map<string, unknown>;
}

/** Builds the index from the raw `data.q` rows. Pure: no I/O. */
export function buildLinkIndex(
  fingerprint: string,
  pageRows: readonly PageRow[],
  rawStatsRows: readonly PageStatsRow[],
  rawReferenceRows: readonly ReferenceRow[],
  hiddenRows: readonly HiddenRow[] = [],
): LinkIndex {
  const {
    hidden,
    stats: statsRows,
    references: referenceRows,
  } = withoutHidden(rawStatsRows, rawReferenceRows, hiddenRows);
  const sorted = [...pageRows].sort((a, b) => compareTitles(a[1], b[1]));
  const idByEid = new Map<number, number>();
  const pages: PageNode[] = sorted.map(([eid, title, uid, editTime, logId], id) => {
    idByEid.set(eid, id);
    return { uid, title, daily: Boolean(logId), blockCount: 0, lastEdit: editTime || 0 };
  });

  let blocks = 0;
  let lastEdit = pages.reduce((max, page) => Math.max(max, page.lastEdit), 0);
  for (const [pageEid, count, newest] of statsRows) {
    blocks += count;
    lastEdit = Math.max(lastEdit, newest || 0);
    const page = pages[idByEid.get(pageEid) ?? -1];
    if (!page) continue;
    page.blockCount = count;
    page.lastEdit = Math.max(page.lastEdit, newest || 0);
  }

  const outLinks = pages.map(() => new Map<number, number>());
  const inLinks = pages.map(() => new Map<number, number>());
  const taggedBlocks: number[][] = pages.map(() => []);
  const blockPages = new Map<number, number>();
  let references = 0;
  for (const [blockEid, pageEid, targetEid] of referenceRows) {
    const from = idByEid.get(pageEid);
    const to = idByEid.get(targetEid);
    if (to === undefined || from === undefined) continue;
    taggedBlocks[to]!.push(blockEid);
    blockPages.set(blockEid, from);
    if (from === to) continue;
    references++;
    outLinks[from]!.set(to, (outLinks[from]!.get(to) ?? 0) + 1);
    inLinks[to]!.set(from, (inLinks[to]!.get(from) ?? 0) + 1);
  }
  for (const list of taggedBlocks) list.sort((a, b) => b - a);

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

  const links = outLinks.reduce((sum, targets) => sum + targets.size, 0);
  return {
    fingerprint,
    pages,
    outLinks,
    inLinks,
    taggedBlocks,
    hidden,
    blockPages,
    byUid,
    byTitle,
    byLowerTitle,
    totals: { pages: pages.length, blocks, references, links, lastEdit },
    memo: new Map(),
  };
}

/** Case-insensitive title order, ties broken case-sensitively so the order is total. */
export function compareTitles(a: string, b: string): number {
  const la = a.toLowerCase();
  const lb = b.toLowerCase();
  if (la !== lb) return la < lb ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A value derived from the index, computed once per index. */
export function memoized<T>(index: LinkIndex, key: string, compute: () => T): T {
  if (!index.memo.has(key)) index.memo.set(key, compute());
  return index.memo.get(key) as T;
}

/** Distinct out-neighbours of every page, in title order (for BFS and pagerank). */
export function outNeighborLists(index: LinkIndex): number[][] {
  return memoized(index, 'out-lists', () => index.outLinks.map((m) => [...m.keys()].sort((a, b) => a - b)));
}

/** Distinct in-neighbours of every page, in title order. */
export function inNeighborLists(index: LinkIndex): number[][] {
  return memoized(index, 'in-lists', () => index.inLinks.map((m) => [...m.keys()].sort((a, b) => a - b)));
}
