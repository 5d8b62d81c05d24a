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
