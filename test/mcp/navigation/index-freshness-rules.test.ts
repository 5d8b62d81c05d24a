/**
 * The freshness rule's pure parts (docs/navigation.md, "Freshness"): what a check compares, how the
 * baseline moves, and the bounded memory of edits in the future. The end-to-end behaviour is in
 * test/mcp/navigation/other-clients-stdio.test.ts.
 */
import { describe, expect, it } from 'vitest';
import {
  CLOCK_MARGIN_MS,
  MAX_REMEMBERED_EDITS,
  rebase,
  unchanged,
  type Check,
} from '../../../src-mcp/navigation/index-freshness.ts';
import { parseStaleness, stalenessFrom } from '../../../src-mcp/navigation/index-staleness.ts';
import { parseCliArgs } from '../../../src-mcp/cli/cli-args.ts';

const NOW = Date.UTC(2026, 10, 23, 12);
const check = (since: number, edited: Array<[number, number]>, pages = 10, blocks?: number): Check => ({
  since,
  editedCount: edited.length,
  edited: edited.map(([e, t]) => `${e}:${t}`).sort(),
  newest: Math.max(since, ...edited.map(([, t]) => t)),
  pages,
  blocks,
});

describe('the freshness check', () => {
  const future = NOW + 86_400_000 * 365; // a daily note planned a year ahead, or a fast clock
  const baseline = rebase(check(NOW - CLOCK_MARGIN_MS, [[7, future]]), 10, NOW);

  it('keeps an entity edited in the future in the baseline instead of moving past it', () => {
    expect(baseline.since).toBe(NOW - CLOCK_MARGIN_MS);
    expect(baseline.edited).toEqual([`7:${future}`]);
    expect(unchanged(baseline, check(baseline.since, [[7, future]]), { blocks: 50 })).toBe(true);
  });

  it("sees another client's edit stamped before that future time", () => {
    const later = check(baseline.since, [
      [7, future],
      [12, NOW + 1000],
    ]);
    expect(unchanged(baseline, later, { blocks: 50 })).toBe(false);
  });

  it('sees a page deletion by the page count, and a block deletion when it recounts', () => {
    expect(unchanged(baseline, check(baseline.since, [[7, future]], 9), { blocks: 50 })).toBe(false);
    expect(unchanged(baseline, check(baseline.since, [[7, future]], 10, 49), { blocks: 50 })).toBe(false);
    expect(unchanged(baseline, check(baseline.since, [[7, future]], 10, 50), { blocks: 50 })).toBe(true);
  });

  it('moves the baseline up to the newest edit, never past our clock minus the margin', () => {
    const old = rebase(check(NOW - 100_000, [[3, NOW - 50_000]]), 10, NOW);
    expect(old).toMatchObject({ since: NOW - 50_000, editedCount: 0, edited: [] });
  });

  it('falls back to the newest edit time when too many edits lie in the future', () => {
    const many = Array.from({ length: MAX_REMEMBERED_EDITS + 5 }, (_, i): [number, number] => [
      i,
      future + i,
    ]);
    const flood = {
      ...check(NOW - CLOCK_MARGIN_MS, many.slice(0, MAX_REMEMBERED_EDITS)),
      editedCount: many.length,
      newest: future + many.length - 1,
    };
    const based = rebase(flood, 10, NOW);
    expect(based).toMatchObject({ since: future + many.length - 1, editedCount: 0, edited: [] });
    expect(unchanged(based, check(based.since, []), { blocks: 1 })).toBe(true);
    expect(unchanged(based, check(based.since, [[1, future + 10_000]]), { blocks: 1 })).toBe(false);
  });
});

describe('the staleness window setting', () => {
  it('takes whole milliseconds from 0 to an hour, and says what to write instead', () => {
    expect(parseStaleness('0', 'x')).toBe(0);
    expect(parseStaleness('2500', 'x')).toBe(2500);
    for (const bad of ['', '-1', '1.5', 'soon', '3600001'])
      expect(parseStaleness(bad, '--index-staleness-ms')).toMatch(
        /--index-staleness-ms must be a whole number/,
      );
  });

  it('prefers the flag, then the env var; a bad env value keeps the default with a warning', () => {
    expect(stalenessFrom(100, { ROAM_MCP_INDEX_STALENESS_MS: '5' })).toEqual({ ms: 100 });
    expect(stalenessFrom(undefined, { ROAM_MCP_INDEX_STALENESS_MS: '5' })).toEqual({ ms: 5 });
    expect(stalenessFrom(undefined, {})).toEqual({ ms: 2000 });
    const bad = stalenessFrom(undefined, { ROAM_MCP_INDEX_STALENESS_MS: 'fast' });
    expect(bad.ms).toBe(2000);
    expect(bad.warning).toMatch(/ROAM_MCP_INDEX_STALENESS_MS must be .* Using 2000/);
  });

  it('is a server flag', () => {
    expect(parseCliArgs(['--index-staleness-ms', '0'])).toMatchObject({
      command: 'serve',
      indexStalenessMs: 0,
    });
    expect(parseCliArgs(['--index-staleness-ms=750', '--read-only'])).toMatchObject({
      indexStalenessMs: 750,
      readOnly: true,
    });
    expect(parseCliArgs(['--index-staleness-ms'])).toMatchObject({ command: 'error' });
  });
});
