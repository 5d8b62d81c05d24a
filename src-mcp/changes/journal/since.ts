/** "Since when" as a person writes it for the change journal: an ISO time, or a span back from now. */

export const SINCE_HINT = 'an ISO time (2026-07-23T14:00:00Z), today, or 30m, 2h, 1d back from now';

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** Epoch ms, or undefined when `value` is none of the forms SINCE_HINT names. */
export function parseSince(value: string, now = Date.now()): number | undefined {
  const text = value.trim().toLowerCase();
  if (text === 'today') return new Date(now).setHours(0, 0, 0, 0);
  const relative = /^(\d+)\s*([mhd])$/.exec(text);
  if (relative) return now - Number(relative[1]) * UNIT_MS[relative[2] as keyof typeof UNIT_MS];
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

/** A `since` as the journal's readers take it: a Date, epoch ms, or any form parseSince reads. */
export type Since = string | number | Date;

/** Epoch ms of a `since`; NaN when it is not a time. */
export function sinceMs(since: Since): number {
  if (since instanceof Date) return since.getTime();
  if (typeof since === 'number') return since;
  return parseSince(since) ?? Number.NaN;
}
