/**
 * What the synthetic Local API answers: the navigation queries (matched by their exact text, as
 * the server sends them) from a ColumnGraph, with DataScript's set semantics (distinct rows).
 * Anything else is an error that names the query, so a new query in the server fails loudly here.
 */
import { HIDDEN_BLOCKS_QUERY } from '../../src-mcp/roam/hidden-blocks.ts';
import {
  BLOCK_COUNT_QUERY,
  EDITED_SINCE_QUERY,
  PAGE_COUNT_QUERY,
  UID_AT_QUERY,
} from '../../src-mcp/navigation/index-freshness.ts';
import {
  ATTRIBUTES_QUERY,
  BLOCKS_QUERY,
  PAGES_QUERY,
  REFERENCES_QUERY,
} from '../../src-mcp/navigation/index-queries.ts';
import { BLOCK_TEXT_QUERY, PAGE_PREVIEW_QUERY } from '../../src-mcp/navigation/previews.ts';
import { TAG_BLOCKS_QUERY } from '../../src-mcp/navigation/tag-filter.ts';
import type { ColumnGraph } from './column-graph.ts';

export type Row = unknown[];

/** Distinct `[block, referenced]` pairs (a block may name a page twice). */
function* references(g: ColumnGraph): Generator<[number, number]> {
  let seen = new Set<number>();
  let block = -1;
  for (let i = 0; i < g.refFrom.length; i++) {
    if (g.refFrom[i] !== block) [block, seen] = [g.refFrom[i]!, new Set()];
    if (seen.has(g.refTo[i]!)) continue;
    seen.add(g.refTo[i]!);
    yield [block, g.refTo[i]!];
  }
}

/** References from a block whose text starts with the referenced page's title and `::`. */
function* attributes(g: ColumnGraph): Generator<[number, number]> {
  for (const [block, target] of references(g)) {
    const title = g.title.get(target);
    const text = g.string[block];
    if (title !== undefined && typeof text === 'string' && text.startsWith(`${title}::`))
      yield [block, target];
  }
}

function* hiddenBlocks(g: ColumnGraph, tags: readonly string[]): Generator<Row> {
  const tagEids = new Set(tags.flatMap((t) => (g.eidByTitle.has(t) ? [g.eidByTitle.get(t)!] : [])));
  const hidden = new Set<number>();
  const hide = (eid: number) => {
    if (hidden.has(eid)) return;
    hidden.add(eid);
    for (const child of g.children(eid)) hide(child);
  };
  for (const [block, target] of references(g)) if (tagEids.has(target) && !g.isPage(block)) hide(block);
  for (const block of hidden) yield [block, g.page.get(block)];
}

function* count(n: number): Generator<Row> {
  if (n > 0) yield [n];
}

/** Rows of a `data.q` the navigation sends, or undefined for a query it does not know. */
export function answerQuery(g: ColumnGraph, query: string, inputs: unknown[]): Iterable<Row> | undefined {
  switch (query) {
    case PAGES_QUERY:
      return g.pages.map((p) => [p, g.title.get(p), g.uid[p], g.editTime.get(p), g.logId.get(p)]);
    case BLOCKS_QUERY:
      return g.blocks.map((b) => [b, g.page.get(b), g.editTime.get(b)]);
    case REFERENCES_QUERY:
      return references(g);
    case ATTRIBUTES_QUERY:
      return attributes(g);
    case HIDDEN_BLOCKS_QUERY:
      return hiddenBlocks(g, inputs[0] as string[]);
    case EDITED_SINCE_QUERY:
      return editedSince(g, inputs[0] as number);
    case PAGE_COUNT_QUERY:
      return count(g.pages.length);
    case BLOCK_COUNT_QUERY:
      return count(g.blocks.length);
    case UID_AT_QUERY:
      return g.uid[inputs[0] as number] === undefined ? [] : [[g.uid[inputs[0] as number]]];
    case PAGE_PREVIEW_QUERY:
      return previews(g, inputs[0] as string[]);
    case BLOCK_TEXT_QUERY:
      return (inputs[0] as number[]).flatMap((b) =>
        g.uid[b] !== undefined && g.string[b] !== undefined ? [[b, g.uid[b], g.string[b]]] : [],
      );
    case TAG_BLOCKS_QUERY:
      return tagBlocks(g, new Set(inputs[0] as number[]));
    default:
      return undefined;
  }
}

function* editedSince(g: ColumnGraph, since: number): Generator<Row> {
  for (let e = 1; e <= g.maxEid; e++) if (g.editTime.get(e) > since) yield [e, g.editTime.get(e)];
}

/**
 * What an answer depends on, for keeping answers: the query and its inputs, except that every
 * `since` between the same two edit times gives the same rows (a benchmark's checks hit the cache).
 */
export function answerKey(g: ColumnGraph, query: string, inputs: unknown[]): string {
  if (query !== EDITED_SINCE_QUERY) return JSON.stringify([query, ...inputs]);
  const since = inputs[0] as number;
  let newer = 0;
  for (let e = 1; e <= g.maxEid; e++) if (g.editTime.get(e) > since) newer++;
  return `edited-since:${newer}`;
}

function* previews(g: ColumnGraph, uids: readonly string[]): Generator<Row> {
  for (const uid of new Set(uids)) {
    const eid = g.eidByUid.get(uid);
    if (eid === undefined) continue;
    for (const child of g.children(eid)) {
      const order = g.order.get(child);
      if (order < 3 && g.string[child] !== undefined) yield [uid, order, g.string[child], child];
    }
  }
}

function* tagBlocks(g: ColumnGraph, tags: ReadonlySet<number>): Generator<Row> {
  for (const [block, target] of references(g))
    if (tags.has(target) && !g.isPage(block)) yield [block, target, g.page.get(block)];
}
