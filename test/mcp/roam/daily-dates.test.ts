/** Daily-note dates as append_to_daily_note and create_block resolve them (src-mcp/roam/roam-dates.ts). */
import { describe, expect, it } from 'vitest';
import { isDailyDate, resolveDailyNote } from '../../../src-mcp/roam/roam-dates.ts';

/** Noon local time, so the machine's time zone cannot move the calendar day. */
const at = (year: number, month: number, day: number) => new Date(year, month - 1, day, 12);

describe('resolveDailyNote', () => {
  it('resolves relative days on the local calendar across month, leap-day and year boundaries', () => {
    expect(resolveDailyNote('yesterday', at(2026, 3, 1))?.uid).toBe('02-28-2026');
    expect(resolveDailyNote('Yesterday', at(2024, 3, 1))?.uid).toBe('02-29-2024');
    expect(resolveDailyNote(' TOMORROW ', at(2026, 12, 31))).toEqual({
      uid: '01-01-2027',
      title: 'January 1st, 2027',
    });
    expect(resolveDailyNote('today', at(2026, 11, 22))).toEqual({
      uid: '11-22-2026',
      title: 'November 22nd, 2026',
    });
  });

  it('takes MM-DD-YYYY and YYYY-MM-DD, and refuses dates that do not exist', () => {
    expect(resolveDailyNote('03-17-2026')?.title).toBe('March 17th, 2026');
    expect(resolveDailyNote('2026-03-17')?.uid).toBe('03-17-2026');
    expect(resolveDailyNote('02-30-2026')).toBeUndefined();
    expect(resolveDailyNote('13-01-2026')).toBeUndefined();
    expect(resolveDailyNote('2026-3-17')).toBeUndefined();
    expect(isDailyDate('next week')).toBe(false);
    expect(isDailyDate('tomorrow')).toBe(true);
  });
});
