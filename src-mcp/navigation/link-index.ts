/**
 * The per-graph link index: pages are nodes, a page links to another when one of its blocks
 * references it (`[[..]]`, `#tag` and `attr::` all become `:block/refs`; attribute references are
 * also counted apart). Built once from five
 * `data.q` answers read row by row (index-queries.ts) into flat typed arrays
 * (link-index-builder.ts), blocks hidden from AI taken out (roam/hidden-blocks.ts), then every navigation
 * tool answers from memory. Which blocks carry a tag is not kept: tag-filter.ts asks for one tag's
 * blocks when a tool needs them.
 */
import { LinkRows, type Adjacency, type LinkWalk } from './adjacency.ts';
import type { HiddenBlocks } from '../roam/hidden-blocks.ts';

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
  /** Pages in title order; a page's position is its id everywhere below. */
  readonly pages: readonly PageNode[];
  /** Entity id of every page, by page id (for queries about one page's blocks). */
  readonly pageEids: Int32Array;
  /** `outLinks.of(p)`: page id → number of blocks of p referencing it. Self-references are left out. */
  readonly outLinks: Adjacency;
  /** `inLinks.of(p)`: page id → number of its blocks referencing p. */
  readonly inLinks: Adjacency;
  /**
   * `attributeLinks.of(p)`: page id → number of blocks of p that are that page's attribute
   * (`role:: engineer` → role). A link all of whose references are attributes is attribute-only.
   */
  readonly attributeLinks: Adjacency;
  /** Blocks hidden from AI: they give no links, tags, counts or previews. */
  readonly hidden: HiddenBlocks;
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

/**
 * The links hubs and paths walk: all of them with `includeAttributes`, else without the
 * attribute-only ones, which would make every attribute name (`role`, `type`) a top hub and a
 * shortcut between any two pages that share it. Those rows are derived once per index, and
 * walked backwards only once a walk asks for it (`in`).
 */
export function walkedLinks(index: LinkIndex, includeAttributes: boolean): { out: LinkWalk; in: LinkWalk } {
  if (includeAttributes || index.attributeLinks.linkCount === 0)
    return { out: index.outLinks, in: index.inLinks };
  const out = memoized(index, 'links:no-attributes', () => index.outLinks.without(index.attributeLinks));
  return {
    out,
    get in() {
      return memoized(index, 'links:no-attributes:in', () => out.reversed());
    },
  };
}

/** How many pages link to each page, along `walkedLinks`. */
export function inDegrees(index: LinkIndex, includeAttributes: boolean): Int32Array {
  const { out } = walkedLinks(index, includeAttributes);
  return out instanceof LinkRows ? out.inDegrees() : index.inLinks.degrees();
}

/** Distinct linked pages (either direction) of a page. */
export function degree(index: LinkIndex, id: number): number {
  return index.inLinks.degree(id) + index.outLinks.degree(id);
}
