/** Finding pages by what an agent typed: exact title, uid, case-insensitive title, then fuzzy. */
import { notFoundError } from '../contract/not-found.ts';
import { ToolError } from '../contract/tool-errors.ts';
import { bigrams, diceOfBigrams, normalizeName } from './dice.ts';
import { memoized, type LinkIndex } from './link-index.ts';

export interface ScoredPage {
  id: number;
  score: number;
}

/** Exact title, then uid, then case-insensitive title (the first in title order). */
export function findPage(index: LinkIndex, name: string): number | undefined {
  return index.byTitle.get(name) ?? index.byUid.get(name) ?? index.byLowerTitle.get(name.toLowerCase())?.[0];
}

/** Pages whose titles are most similar to `name` (Dice ≥ threshold), best first, ties in title order. */
export function fuzzyMatches(index: LinkIndex, name: string, threshold: number, limit: number): ScoredPage[] {
  const titles = memoized(index, 'title-bigrams', () => packedBigrams(index));
  const normalized = normalizeName(name);
  const grams = bigrams(normalized);
  const scored: ScoredPage[] = [];
  for (let id = 0; id < titles.normalized.length; id++) {
    const own = titles.grams.subarray(titles.start[id], titles.start[id + 1]);
    const score = titles.normalized[id] === normalized ? (normalized ? 1 : 0) : diceOfBigrams(grams, own);
    if (score >= threshold && score > 0) scored.push({ id, score });
  }
  return scored.sort((a, b) => b.score - a.score || a.id - b.id).slice(0, limit);
}

/** Every title's bigrams in one flat array (`grams[start[id] .. start[id + 1])`), not one per page. */
function packedBigrams(index: LinkIndex) {
  const normalized = index.pages.map((page) => normalizeName(page.title));
  const start = new Int32Array(normalized.length + 1);
  normalized.forEach((title, id) => (start[id + 1] = start[id]! + Math.max(0, [...title].length - 1)));
  const grams = new Float64Array(start[normalized.length]!);
  normalized.forEach((title, id) => grams.set(bigrams(title), start[id]));
  return { normalized, start, grams };
}

/** The closest titles, for error messages. */
export function suggestions(
  index: LinkIndex,
  name: string,
): Array<{ title: string; uid: string; score: number }> {
  return fuzzyMatches(index, name, 0.3, 5).map(({ id, score }) => ({
    title: index.pages[id]!.title,
    uid: index.pages[id]!.uid,
    score: round(score),
  }));
}

/** NOT_FOUND (the same answer every tool gives) with the closest titles as suggestions. */
export function pageNotFound(index: LinkIndex, name: string, graph: string): ToolError {
  return notFoundError(`Page ${JSON.stringify(name)}`, graph, suggestions(index, name));
}

/** The page named by `{title}` or `{uid}` (or a bare name), else NOT_FOUND / INVALID_PARAMS. */
export function requirePage(
  index: LinkIndex,
  ref: { title?: string | undefined; uid?: string | undefined },
  graph: string,
): number {
  const name = ref.uid ?? ref.title;
  if (name === undefined) {
    throw new ToolError('INVALID_PARAMS', 'Give the page either as `title` or as `uid`.');
  }
  const id = ref.uid !== undefined ? index.byUid.get(ref.uid) : findPage(index, name);
  if (id === undefined) throw pageNotFound(index, name, graph);
  return id;
}

/** Scores rounded to 3 decimals: enough to rank, short in the context window. */
export function round(score: number): number {
  return Math.round(score * 1000) / 1000;
}
