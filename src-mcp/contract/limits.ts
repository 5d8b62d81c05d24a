/**
 * Context-window limits (docs/mcp.md, Tools: Limits): every text is cut at its limit with
 * `... [truncated]`, every list is paginated and reports `total`.
 */
export const LIMITS = {
  /** A primary result: a page, a block, a query result. */
  primary: 10_000,
  /** One item of a list (search hits, backlinks). */
  listItem: 500,
  /** Neighbour / context previews. */
  context: 200,
} as const;

export const TRUNCATION_MARK = '... [truncated]';

/** Cuts `text` so the result (mark included) is at most `max` UTF-16 units, never inside a surrogate pair. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - TRUNCATION_MARK.length);
  const last = text.charCodeAt(end - 1);
  if (end > 0 && last >= 0xd800 && last <= 0xdbff) end -= 1;
  return text.slice(0, end) + TRUNCATION_MARK;
}

export interface Page<T> {
  items: T[];
  total: number;
  offset: number;
  limit: number;
  /** Offset of the next page, absent on the last one. */
  nextOffset?: number;
}

export function paginate<T>(all: readonly T[], offset: number, limit: number): Page<T> {
  const items = all.slice(offset, offset + limit);
  const page: Page<T> = { items, total: all.length, offset, limit };
  if (offset + items.length < all.length) page.nextOffset = offset + items.length;
  return page;
}
