/** Roam's daily-note naming: uid "11-22-2026", title "November 22nd, 2026" (local date). */
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
  if (day % 100 >= 11 && day % 100 <= 13) return `${day}th`;
  return `${day}${['th', 'st', 'nd', 'rd'][day % 10] ?? 'th'}`;
}

export interface DailyNote {
  uid: string;
  title: string;
}

/** `date` is `YYYY-MM-DD`, or undefined for today. */
export function dailyNote(date?: string, now: Date = new Date()): DailyNote {
  let year = now.getFullYear();
  let month = now.getMonth() + 1;
  let day = now.getDate();
  if (date) [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const pad = (n: number) => String(n).padStart(2, '0');
  return {
    uid: `${pad(month)}-${pad(day)}-${year}`,
    title: `${MONTHS[month - 1]} ${ordinal(day)}, ${year}`,
  };
}

const SHIFT: Record<string, number> = { today: 0, yesterday: -1, tomorrow: 1 };

/** What a daily-note date argument accepts: a relative day (any case), MM-DD-YYYY or YYYY-MM-DD. */
export function isDailyDate(value: string): boolean {
  const text = value.trim().toLowerCase();
  return text in SHIFT || /^\d{2}-\d{2}-\d{4}$/.test(text) || /^\d{4}-\d{2}-\d{2}$/.test(text);
}

export const DAILY_DATE_HINT = 'use today, yesterday, tomorrow, MM-DD-YYYY or YYYY-MM-DD';

/**
 * A daily-note date resolved on this machine's local calendar before any request (Roam only ever
 * sees MM-DD-YYYY); ±1 day is counted in UTC so a daylight-saving change cannot shift it.
 * Undefined for a date that does not exist (13-01-2026, 02-30-2026).
 */
export function resolveDailyNote(value: string, now: Date = new Date()): DailyNote | undefined {
  const text = value.trim().toLowerCase();
  let parts: number[];
  if (text in SHIFT) parts = [now.getFullYear(), now.getMonth() + 1, now.getDate() + (SHIFT[text] ?? 0)];
  else if (/^\d{4}-\d{2}-\d{2}$/.test(text)) parts = text.split('-').map(Number);
  else if (/^\d{2}-\d{2}-\d{4}$/.test(text)) {
    const [month, day, year] = text.split('-').map(Number) as [number, number, number];
    parts = [year, month, day];
  } else return undefined;
  const [year, month, day] = parts as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (!(text in SHIFT) && (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day)) return undefined;
  const iso = date.toISOString().slice(0, 10);
  return dailyNote(iso);
}
