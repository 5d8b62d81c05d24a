/**
 * The hiding step of the index build (docs/navigation.md "Hidden blocks"), kept apart from the
 * index itself: given the hidden blocks, the raw rows lose what those blocks contributed.
 */
import type { HiddenRow, PageStatsRow, ReferenceRow } from './index-rows.ts';

/**
 * Applies Roam's hiding rule to the raw rows: references made by hidden blocks are dropped and
 * hidden blocks leave their page's block count. A separate step, so the index need not know why.
 */
export function withoutHidden(
  statsRows: readonly PageStatsRow[],
  referenceRows: readonly ReferenceRow[],
  hiddenRows: readonly HiddenRow[],
): { hidden: Set<number>; stats: PageStatsRow[]; references: ReferenceRow[] } {
  const hidden = new Set<number>();
  const hiddenPerPage = new Map<number, number>();
  for (const [block, page] of hiddenRows) {
    if (hidden.has(block)) continue;
    hidden.add(block);
    hiddenPerPage.set(page, (hiddenPerPage.get(page) ?? 0) + 1);
  }
  if (hidden.size === 0) return { hidden, stats: [...statsRows], references: [...referenceRows] };
  return {
    hidden,
    stats: statsRows.map(([page, count, newest]) => [page, count - (hiddenPerPage.get(page) ?? 0), newest]),
    references: referenceRows.filter(([block]) => !hidden.has(block)),
  };
}
