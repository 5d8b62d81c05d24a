/**
 * Shaping a Datalog answer for the agent (docs/mcp.md "datalog_query"): it always fits
 * LIMITS.primary characters (far below the 25,000-token cap), saying what was cut and how much
 * there was, and what the graph holds that the query could not reach.
 */
import { LIMITS, truncate } from '../../contract/limits.ts';

/** Room kept for the envelope (total, offsets, notes) around the rows. */
const ENVELOPE = 1_200;
export const DATALOG_BUDGET = LIMITS.primary - ENVELOPE;

/** Cuts every string so one huge block cannot flood the context. */
export function cutStrings(value: unknown): unknown {
  if (typeof value === 'string') return truncate(value, LIMITS.listItem);
  if (Array.isArray(value)) return value.map(cutStrings);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cutStrings(v)]));
  }
  return value;
}

const size = (value: unknown): number => JSON.stringify(value ?? null).length;

/**
 * `value` cut until its JSON fits `budget` characters: arrays and objects keep their first
 * elements/entries, the first one itself cut when even it does not fit; strings are shortened.
 */
export function fitValue(value: unknown, budget: number): { value: unknown; cut: boolean } {
  if (size(value) <= budget) return { value, cut: false };
  if (typeof value === 'string') {
    let text = truncate(value, Math.max(0, budget - 2));
    while (text.length > 0 && size(text) > budget) text = truncate(text, Math.floor(text.length / 2));
    return { value: text, cut: true };
  }
  if (Array.isArray(value)) {
    const kept: unknown[] = [];
    let used = 2;
    for (const item of value) {
      const cost = size(item) + (kept.length ? 1 : 0);
      if (used + cost > budget) break;
      kept.push(item);
      used += cost;
    }
    if (kept.length === 0 && value.length > 0) kept.push(fitValue(value[0], budget - 2).value);
    return { value: kept, cut: true };
  }
  if (value && typeof value === 'object') {
    const kept: Record<string, unknown> = {};
    let used = 2;
    for (const [key, item] of Object.entries(value)) {
      const head = size(key) + 1 + (used > 2 ? 1 : 0);
      if (used + head + size(item) > budget) {
        // The first entry that does not fit is cut into the room left (a pull's long list).
        const room = budget - used - head;
        if (room > 2) kept[key] = fitValue(item, room).value;
        break;
      }
      const cost = head + size(item);
      kept[key] = item;
      used += cost;
    }
    return { value: kept, cut: true };
  }
  return { value: null, cut: true };
}

interface Paging {
  offset: number;
  limit: number;
}

/** The rows from `offset` that fit the budget (at least one, itself cut when needed). */
function fitRows(rows: readonly unknown[], budget: number): { rows: unknown[]; cut: boolean } {
  const kept: unknown[] = [];
  let used = 2;
  for (const row of rows) {
    const cost = size(row) + (kept.length ? 1 : 0);
    if (used + cost > budget) break;
    kept.push(row);
    used += cost;
  }
  if (kept.length > 0 || rows.length === 0) return { rows: kept, cut: kept.length < rows.length };
  return { rows: [fitValue(rows[0], budget - 2).value], cut: true };
}

/** The agent's answer: paginated rows (or the scalar/map result), bounded, with what was cut. */
export function boundedAnswer(
  result: unknown,
  paging: Paging,
  hiddenBlocks: number,
): Record<string, unknown> {
  const characters = size(result);
  const hiddenNote =
    hiddenBlocks > 0
      ? {
          hidden: {
            blocks: hiddenBlocks,
            note: `The graph has ${hiddenBlocks} block(s) hidden from AI (#.rm-hide / #.rm-private and everything under them); the query ran as if they were not there.`,
          },
        }
      : {};
  if (!Array.isArray(result)) {
    const { value, cut } = fitValue(cutStrings(result), DATALOG_BUDGET);
    const truncated = cut
      ? {
          truncated: {
            characters,
            message: `The answer is ${characters} characters as JSON and was cut to fit ${LIMITS.primary}. Narrow the query (fewer :find variables, more :where clauses), or :find rows instead of one collection so it can be paged.`,
          },
        }
      : {};
    return { result: value, ...truncated, ...hiddenNote };
  }
  const window = result.slice(paging.offset, paging.offset + paging.limit).map(cutStrings);
  const fitted = fitRows(window, DATALOG_BUDGET);
  const stringsCut =
    JSON.stringify(window) !== JSON.stringify(result.slice(paging.offset, paging.offset + paging.limit));
  const next = paging.offset + fitted.rows.length;
  const cut = fitted.cut || stringsCut;
  const truncated = cut
    ? {
        truncated: {
          rowsShown: fitted.rows.length,
          rowsTotal: result.length,
          characters,
          message: `The answer has ${result.length} row(s), ${characters} characters as JSON; rows ${paging.offset + 1}-${next} are shown, cut to fit ${LIMITS.primary} characters (long texts end with "... [truncated]").${next < result.length ? ` Continue with offset ${next}, or narrow the query.` : ' Narrow the query to see less at once.'}`,
        },
      }
    : {};
  return {
    items: fitted.rows,
    total: result.length,
    offset: paging.offset,
    limit: paging.limit,
    ...(next < result.length ? { nextOffset: next } : {}),
    ...truncated,
    ...hiddenNote,
  };
}
