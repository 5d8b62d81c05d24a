/**
 * The datalog behind the link index. Every query aggregates or projects inside Roam, so each one is
 * a single Local API round trip whatever the graph's size.
 */
import { fetchHiddenBlocks } from '../hidden-blocks.ts';
import type { ToolContext } from '../tool-definition.ts';
import {
  buildLinkIndex,
  type LinkIndex,
  type PageRow,
  type PageStatsRow,
  type ReferenceRow,
} from './link-index.ts';

/**
 * Freshness: the newest `:edit/time` and how many entities carry one. An edit moves the first,
 * a deletion changes the second.
 */
export const FINGERPRINT_QUERY = '[:find (max ?t) (count ?e) :where [?e :edit/time ?t]]';

export const PAGES_QUERY =
  '[:find ?p ?title ?uid ?t ?log :where [?p :node/title ?title] [?p :block/uid ?uid]' +
  ' [(get-else $ ?p :edit/time 0) ?t] [(get-else $ ?p :log/id 0) ?log]]';

export const PAGE_STATS_QUERY =
  '[:find ?p (count ?b) (max ?t) :where [?b :block/page ?p] [(get-else $ ?b :edit/time 0) ?t]]';

export const REFERENCES_QUERY =
  '[:find ?b ?p ?d :where [?b :block/refs ?d] [?d :node/title] [?b :block/page ?p]]';

/** One round trip: the graph's current freshness fingerprint. */
export async function fetchFingerprint(ctx: ToolContext): Promise<string> {
  const rows = await ctx.call<Array<[number | null, number]>>('data.q', [FINGERPRINT_QUERY]);
  const [newest, count] = rows?.[0] ?? [0, 0];
  return `${newest ?? 0}:${count ?? 0}`;
}

/**
 * Four round trips, sent together: pages, per-page block stats, block → page references, and the
 * blocks hidden from AI (whose references and counts the index leaves out).
 */
export async function fetchLinkIndex(ctx: ToolContext, fingerprint: string): Promise<LinkIndex> {
  const [pages, stats, references, hidden] = await Promise.all([
    ctx.call<PageRow[]>('data.q', [PAGES_QUERY]),
    ctx.call<PageStatsRow[]>('data.q', [PAGE_STATS_QUERY]),
    ctx.call<ReferenceRow[]>('data.q', [REFERENCES_QUERY]),
    fetchHiddenBlocks(ctx),
  ]);
  return buildLinkIndex(fingerprint, pages ?? [], stats ?? [], references ?? [], hidden);
}
