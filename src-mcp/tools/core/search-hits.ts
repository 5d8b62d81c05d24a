/** The `{items, total, offset, limit, nextOffset}` page of Local API search hits (search, backlinks, Roam queries). */
import * as z from 'zod';
import { LIMITS, truncate } from '../../contract/limits.ts';
import { listOutput } from '../../contract/list-envelope.ts';
import { pathText } from '../../roam/linked-references.ts';

const hitSchema = z.object({
  uid: z.string(),
  type: z.string(),
  path: z.string().optional(),
  markdown: z.string(),
});
export const hitsOutput = {
  ...listOutput(hitSchema),
  shown: z.number().optional(),
  note: z.string().optional(),
};

interface Hit {
  uid?: unknown;
  type?: unknown;
  path?: unknown;
  markdown?: unknown;
}

/** A Local API `{total, results}` page with every item cut to the list-item limit. */
export function hitsPage(result: unknown, start: number, limit: number) {
  const body = (result ?? {}) as {
    total?: unknown;
    shown?: unknown;
    results?: unknown;
    note?: unknown;
    nextOffset?: unknown;
  };
  const hits = Array.isArray(body.results) ? (body.results as Hit[]) : [];
  const total = typeof body.total === 'number' ? body.total : start + hits.length;
  const items = hits.map((h) => ({
    uid: String(h.uid ?? ''),
    // Roam marks only page hits (`type: "page"`); everything else is a block.
    type: h.type === 'page' ? 'page' : 'block',
    ...(pathText(h.path) ? { path: truncate(pathText(h.path), LIMITS.context) } : {}),
    markdown: truncate(String(h.markdown ?? ''), LIMITS.listItem),
  }));
  // Roam hides blocks after paging, so its own nextOffset (when sent) is the one to follow.
  const next = typeof body.nextOffset === 'number' ? body.nextOffset : start + items.length;
  return {
    items,
    total,
    offset: start,
    limit,
    ...(next < total && next > start ? { nextOffset: next } : {}),
    // Roam's own count after hiding (newer builds) and its note when more remain.
    ...(typeof body.shown === 'number' ? { shown: body.shown } : {}),
    ...(typeof body.note === 'string' && body.note ? { note: truncate(body.note, LIMITS.context) } : {}),
  };
}
