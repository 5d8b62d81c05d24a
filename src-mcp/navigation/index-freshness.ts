/**
 * The freshness check of a cached link index (docs/navigation.md, "Freshness"): which entities
 * were edited after a point in time, and how many pages there are; now and then also how many
 * blocks. Each is a scan inside Roam, but a cheap one (no aggregate over every block's rows).
 */
import type { ToolContext } from '../contract/tool-definition.ts';
import { queryRows } from './index-queries.ts';

export const EDITED_SINCE_QUERY = '[:find ?e ?t :in $ ?since :where [?e :edit/time ?t] [(> ?t ?since)]]';
export const PAGE_COUNT_QUERY = '[:find (count ?p) :where [?p :node/title]]';
export const BLOCK_COUNT_QUERY = '[:find (count ?b) :where [?b :block/page]]';

/** The uid at one entity id: a kept index's anchor (index-codec.ts). */
export const UID_AT_QUERY = '[:find ?uid :in $ ?e :where [?e :block/uid ?uid]]';

/**
 * How far back the edited-since window reaches behind our clock when it is re-based: Roam stamps
 * `:edit/time` with the same machine's clock, so an edit made after a check is newer than this.
 */
export const CLOCK_MARGIN_MS = 5_000;

/**
 * At most this many entities edited after `since` are remembered. A graph with more edit times
 * in the future than this (another device's clock far ahead) falls back to `since` = the newest
 * edit time, where an edit stamped earlier by another client is seen only once a count moves,
 * a later edit comes, or our own write drops the index.
 */
export const MAX_REMEMBERED_EDITS = 1_000;

/** What a check saw: entities edited after `since` (as sorted "eid:time" keys) and counts. */
export interface Check {
  since: number;
  /** How many entities were edited after `since`; their keys only up to MAX_REMEMBERED_EDITS. */
  editedCount: number;
  edited: string[];
  newest: number;
  pages: number;
  /** Only when the check recounted blocks. */
  blocks?: number;
}

async function count(ctx: ToolContext, query: string): Promise<number> {
  const rows = await ctx.call<Array<[number]> | null>('data.q', [query]);
  return rows?.[0]?.[0] ?? 0;
}

/** One round of requests, sent together: 2, or 3 with `recount`. */
export async function runCheck(ctx: ToolContext, since: number, recount: boolean): Promise<Check> {
  const edited: string[] = [];
  let editedCount = 0;
  let newest = since;
  const [, pages, blocks] = await Promise.all([
    queryRows(ctx, [EDITED_SINCE_QUERY, since], ([eid, time]) => {
      if (++editedCount <= MAX_REMEMBERED_EDITS) edited.push(`${String(eid)}:${String(time)}`);
      newest = Math.max(newest, Number(time));
    }),
    count(ctx, PAGE_COUNT_QUERY),
    recount ? count(ctx, BLOCK_COUNT_QUERY) : undefined,
  ]);
  return { since, editedCount, edited: edited.sort(), newest, pages, blocks };
}

/** True when `check` saw nothing the baseline did not. */
export function unchanged(baseline: Check, check: Check, indexed: { blocks: number }): boolean {
  if (check.pages !== baseline.pages) return false;
  if (check.blocks !== undefined && check.blocks !== indexed.blocks) return false;
  if (check.editedCount !== baseline.editedCount || check.editedCount > MAX_REMEMBERED_EDITS) return false;
  return check.edited.every((key, i) => key === baseline.edited[i]);
}

/**
 * The baseline for the next checks: `since` moves up to the newest edit seen, but never past our
 * clock minus the margin (a graph may hold edit times in the future: those stay in the baseline
 * rather than hide later edits), and the edited set keeps only what is still after it.
 */
export function rebase(check: Check, pages: number, now: number): Check {
  const since = Math.max(check.since, Math.min(check.newest, now - CLOCK_MARGIN_MS));
  if (check.editedCount <= MAX_REMEMBERED_EDITS) {
    const edited = check.edited.filter((key) => Number(key.slice(key.indexOf(':') + 1)) > since);
    return { since, editedCount: edited.length, edited, newest: check.newest, pages };
  }
  return { since: check.newest, editedCount: 0, edited: [], newest: check.newest, pages };
}

/** The page with the lowest entity id (the oldest): its uid changes when the graph is replaced. */
export function anchorOf(index: {
  pageEids: Int32Array;
  pages: readonly { uid: string }[];
}): { eid: number; uid: string } | undefined {
  let oldest = -1;
  for (let id = 0; id < index.pageEids.length; id++)
    if (oldest < 0 || index.pageEids[id]! < index.pageEids[oldest]!) oldest = id;
  return oldest < 0 ? undefined : { eid: index.pageEids[oldest]!, uid: index.pages[oldest]!.uid };
}

/** True when the anchor's entity still has the anchor's uid (no anchor: an empty graph, nothing to compare). */
export async function anchorHolds(
  ctx: ToolContext,
  anchor: { eid: number; uid: string } | undefined,
): Promise<boolean> {
  if (!anchor) return true;
  const rows = await ctx.call<Array<[string]> | null>('data.q', [UID_AT_QUERY, anchor.eid]);
  return rows?.length === 1 && rows[0]![0] === anchor.uid;
}
