/**
 * Roam's daily-note naming: title "November 22nd, 2026", uid "11-22-2026" (both in UTC here).
 * Kept apart from src-mcp/roam/roam-dates.ts on purpose: the emulator plays Roam, and a shared
 * bug would pass every test.
 */
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

function ordinal(day: number): string {
  if (day >= 11 && day <= 13) return `${day}th`;
  const suffix = ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[day % 10] ?? 'th';
  return `${day}${suffix}`;
}

/** "November 22nd, 2026" */
export function dateToPageTitle(date: Date): string {
  return `${MONTHS[date.getUTCMonth()]} ${ordinal(date.getUTCDate())}, ${date.getUTCFullYear()}`;
}

/** "11-22-2026" */
export function dateToPageUid(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}-${date.getUTCFullYear()}`;
}

/** Parses a daily title back to its date (UTC midnight), or undefined when it is not one. */
export function pageTitleToDate(title: string): Date | undefined {
  const match = /^([A-Z][a-z]+) (\d{1,2})(?:st|nd|rd|th), (\d{4})$/.exec(title);
  if (!match) return undefined;
  const month = MONTHS.indexOf(match[1] ?? '');
  if (month < 0) return undefined;
  return new Date(Date.UTC(Number(match[3]), month, Number(match[2])));
}

/** Accepts what roamAlphaAPI's util functions accept from JSON: a Date, an ISO string or epoch ms. */
export function toDate(value: unknown): Date {
  const date = value instanceof Date ? value : new Date(value as string | number);
  if (value === undefined || value === null || Number.isNaN(date.getTime())) {
    throw new Error(
      `Expected a date (ISO string like "2026-11-22" or epoch milliseconds), got ${JSON.stringify(value)}`,
    );
  }
  return date;
}
