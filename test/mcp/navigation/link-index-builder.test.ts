/**
 * The streamed build: references that arrive before the pages and blocks are known (held as rows)
 * and after (turned into page pairs at once, grouped by source at the end) give the same index,
 * and grouping keeps every pair.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { HiddenBlockRow } from '../../../src-mcp/roam/hidden-blocks.ts';
import { PagePairs } from '../../../src-mcp/navigation/int-columns.ts';
import { LinkIndexBuilder, type BlockRow } from '../../../src-mcp/navigation/link-index-builder.ts';
import type { LinkIndex } from '../../../src-mcp/navigation/link-index.ts';

function plain(index: LinkIndex) {
  return {
    pages: index.pages,
    out: index.pages.map((_, id) => [...index.outLinks.of(id)]),
    in: index.pages.map((_, id) => [...index.inLinks.of(id)]),
    totals: index.totals,
  };
}

function build(
  pages: ReadonlyArray<readonly [number, string, string, number, number]>,
  blocks: BlockRow[],
  refs: ReadonlyArray<readonly [number, number]>,
  hidden: HiddenBlockRow[],
  referencesFirst: boolean,
) {
  const builder = new LinkIndexBuilder();
  if (referencesFirst) refs.forEach(builder.addReference);
  pages.forEach(builder.addPage);
  blocks.forEach(builder.addBlock);
  hidden.forEach(builder.addHidden);
  builder.prepare();
  if (!referencesFirst) refs.forEach(builder.addReference);
  return builder.finish();
}

describe('the streamed index build', () => {
  it('gives the same index whether references come before or after the pages and blocks', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 15 }),
        fc.array(fc.tuple(fc.nat(59), fc.nat(80)), { maxLength: 120 }),
        fc.array(fc.nat(59), { maxLength: 6 }),
        (pageCount, refPairs, hiddenBlocks) => {
          const pages = Array.from(
            { length: pageCount },
            (_, i) => [i + 1, `T${(i * 7) % 5} ${i}`, `u${i}`, 0, 0] as const,
          );
          const blocks: BlockRow[] = Array.from({ length: 60 }, (_, i) => [100 + i, (i % pageCount) + 1, i]);
          const refs = refPairs.map(([b, d]) => [100 + b, d] as const);
          const hidden: HiddenBlockRow[] = hiddenBlocks.map((b) => [100 + b, (b % pageCount) + 1]);
          const after = build(pages, blocks, refs, hidden, false);
          const before = build(pages, blocks, refs, hidden, true);
          expect(plain(before)).toEqual(plain(after));
        },
      ),
      { numRuns: 80 },
    );
  });

  it('groups pairs by source, every pair kept, in arrival order within a group', () => {
    const pairs = new PagePairs();
    const sent = Array.from({ length: 150_000 }, (_, i) => [(i * 7919) % 97, (i * 104_729) % 1_000] as const);
    sent.forEach(([from, to]) => pairs.push(from, to));
    const { start, targets } = pairs.groupByFrom(97);
    for (let from = 0; from < 97; from++)
      expect([...targets.subarray(start[from], start[from + 1])]).toEqual(
        sent.filter(([f]) => f === from).map(([, to]) => to),
      );
    expect(pairs.length).toBe(0);
  });
});
