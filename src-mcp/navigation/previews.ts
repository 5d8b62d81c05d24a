/**
 * Content fetched lazily, only for the items a tool is about to show: one batched `data.q` for all
 * of them, never one request per page.
 */
import { LIMITS, truncate } from '../contract/limits.ts';
import type { ToolContext } from '../contract/tool-definition.ts';

/** How many top-level blocks make a page preview. */
const PREVIEW_BLOCKS = 3;

export const PAGE_PREVIEW_QUERY =
  '[:find ?uid ?o ?s ?c :in $ [?uid ...] :where [?p :block/uid ?uid] [?p :block/children ?c]' +
  ` [?c :block/order ?o] [(< ?o ${PREVIEW_BLOCKS})] [?c :block/string ?s]]`;

export const BLOCK_TEXT_QUERY =
  '[:find ?b ?uid ?s :in $ [?b ...] :where [?b :block/uid ?uid] [?b :block/string ?s]]';

/**
 * Page uid → its first top-level blocks, one per line, cut at LIMITS.context; blocks hidden from
 * AI (`hidden`, from the link index) are left out. One round trip (none for no uids).
 */
export async function fetchPagePreviews(
  ctx: ToolContext,
  uids: readonly string[],
  hidden: { has(eid: number): boolean },
): Promise<Map<string, string>> {
  const previews = new Map<string, string>();
  if (uids.length === 0) return previews;
  const rows = await ctx.call<Array<[string, number, string, number]>>('data.q', [
    PAGE_PREVIEW_QUERY,
    [...uids],
  ]);
  const byPage = new Map<string, Array<[number, string]>>();
  for (const [uid, order, text, block] of rows ?? []) {
    if (hidden.has(block)) continue;
    const blocks = byPage.get(uid) ?? [];
    blocks.push([order, text]);
    byPage.set(uid, blocks);
  }
  for (const uid of uids) {
    const blocks = (byPage.get(uid) ?? []).sort((a, b) => a[0] - b[0]);
    previews.set(uid, truncate(blocks.map(([, text]) => text).join('\n'), LIMITS.context));
  }
  return previews;
}

/** Block eid → its uid and text cut at `max`, hidden blocks left out. One round trip (none for no eids). */
export async function fetchBlockTexts(
  ctx: ToolContext,
  eids: readonly number[],
  max: number,
  hidden: { has(eid: number): boolean },
): Promise<Map<number, { uid: string; text: string }>> {
  const texts = new Map<number, { uid: string; text: string }>();
  if (eids.length === 0) return texts;
  const rows = await ctx.call<Array<[number, string, string]>>('data.q', [BLOCK_TEXT_QUERY, [...eids]]);
  for (const [eid, uid, text] of rows ?? [])
    if (!hidden.has(eid)) texts.set(eid, { uid, text: truncate(text, max) });
  return texts;
}
