/**
 * find_blocks' time bounds (docs/mcp.md, "Finding blocks"): an ISO time, an ISO date (local
 * midnight, as Roam's daily notes count days), `today`, `yesterday`, or `7d` (that many days
 * before now), as epoch milliseconds.
 */
import { ToolError } from '../../contract/tool-errors.ts';

const DAY = 86_400_000;

const localMidnight = (now: Date, daysBack = 0) =>
  new Date(now.getFullYear(), now.getMonth(), now.getDate() - daysBack).getTime();

export function timeBound(field: string, value: string, now: Date = new Date()): number {
  const text = value.trim().toLowerCase();
  if (text === 'today') return localMidnight(now);
  if (text === 'yesterday') return localMidnight(now, 1);
  const days = /^(\d{1,5})d$/.exec(text);
  if (days) return now.getTime() - Number(days[1]) * DAY;
  const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (date) return new Date(Number(date[1]), Number(date[2]) - 1, Number(date[3])).getTime();
  const time = /^\d{4}-\d{2}-\d{2}t/.test(text) ? Date.parse(value.trim()) : Number.NaN;
  if (!Number.isNaN(time)) return time;
  throw new ToolError(
    'INVALID_PARAMS',
    `${field} '${value}' is not a time: use an ISO date or time (2026-11-20, 2026-11-20T09:30:00Z), today, yesterday, or a number of days back like 7d.`,
    { field },
  );
}
