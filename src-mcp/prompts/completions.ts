/**
 * Argument completion (completion/complete): page titles and daily-note dates from the graph's
 * link index (no request within its staleness window), graph nicknames from the configuration.
 * A client asks on every keystroke, so each answer is a scan of titles held in memory.
 */
import { loadLinkIndex } from '../navigation/index-cache.ts';
import { mostConnected } from '../navigation/link-graph.ts';
import { degree, memoized, type LinkIndex } from '../navigation/link-index.ts';
import { fuzzyMatches } from '../navigation/page-lookup.ts';
import type { ToolContext } from '../contract/tool-definition.ts';
import type { Completer, Completion } from './prompt-definition.ts';

/** The protocol's cap on values per answer. */
export const MAX_VALUES = 100;

/** Fewer matches than this and close spellings (typos) are offered after them. */
const FUZZY_BELOW = 10;

/** The first values of `total` found (at most 100 are sent). */
export function completion(values: readonly string[], total = values.length): Completion {
  return { values: values.slice(0, MAX_VALUES), total, hasMore: total > MAX_VALUES };
}

/** Values starting with what was typed (any case), in their given order. */
export function startingWith(values: readonly string[], typed: string): Completion {
  const needle = typed.trim().toLowerCase();
  return completion(values.filter((value) => value.toLowerCase().startsWith(needle)));
}

/**
 * Page titles for what was typed: titles starting with it, then titles with a word starting with
 * it, then titles containing it (each best connected first), then close spellings; nothing typed:
 * the best connected pages.
 */
export const pageTitles: Completer = async (typed: string, roam: ToolContext) => {
  const index = await loadLinkIndex(roam);
  const needle = typed.trim().toLowerCase();
  if (!needle) {
    return completion(titlesOf(index, mostConnected(index)), index.pages.length);
  }
  const lower = memoized(index, 'lower-titles', () => index.pages.map((page) => page.title.toLowerCase()));
  const tiers: number[][] = [[], [], []];
  lower.forEach((title, id) => {
    const at = title.indexOf(needle);
    if (at === 0) tiers[0]!.push(id);
    else if (at > 0 && title.includes(` ${needle}`)) tiers[1]!.push(id);
    else if (at > 0) tiers[2]!.push(id);
  });
  const byDegree = (a: number, b: number) => degree(index, b) - degree(index, a) || a - b;
  const ranked = tiers.flatMap((tier) => tier.sort(byDegree));
  if (ranked.length < FUZZY_BELOW) {
    const found = new Set(ranked);
    for (const { id } of fuzzyMatches(index, typed, 0.5, FUZZY_BELOW)) if (!found.has(id)) ranked.push(id);
  }
  return completion(titlesOf(index, ranked), ranked.length);
};

function titlesOf(index: LinkIndex, ids: readonly number[]): string[] {
  return ids.slice(0, MAX_VALUES).map((id) => index.pages[id]!.title);
}

const RELATIVE_DAYS = ['today', 'yesterday', 'tomorrow'];

/**
 * Dates for a daily note: today, yesterday, tomorrow, then the graph's daily notes as YYYY-MM-DD,
 * newest first, matched on that form or on the page title ("nov" finds November's notes).
 */
export const dailyDates: Completer = async (typed: string, roam: ToolContext) => {
  const needle = typed.trim().toLowerCase();
  const index = await loadLinkIndex(roam);
  const notes = memoized(index, 'daily-dates', () =>
    index.pages
      .filter((page) => page.daily && /^\d{2}-\d{2}-\d{4}$/.test(page.uid))
      .map((page) => ({ iso: isoOf(page.uid), title: page.title.toLowerCase() }))
      .sort((a, b) => (a.iso < b.iso ? 1 : a.iso > b.iso ? -1 : 0)),
  );
  const relative = RELATIVE_DAYS.filter((day) => day.startsWith(needle));
  const dated = notes.filter((note) => note.iso.startsWith(needle) || note.title.startsWith(needle));
  return completion([...relative, ...dated.map((note) => note.iso)]);
};

/** "11-22-2026" (a daily note's uid) → "2026-11-22". */
function isoOf(uid: string): string {
  return `${uid.slice(6)}-${uid.slice(0, 5)}`;
}
