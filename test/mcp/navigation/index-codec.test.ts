/** A link index as bytes and back: the same index, or a doubt for anything that does not match. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { HiddenBlockRow } from '../../../src-mcp/roam/hidden-blocks.ts';
import {
  decodeIndex,
  encodeIndex,
  INDEX_FORMAT,
  type PersistedIndex,
} from '../../../src-mcp/navigation/index-codec.ts';
import type { Check } from '../../../src-mcp/navigation/index-freshness.ts';
import { buildLinkIndex, type BlockRow } from '../../../src-mcp/navigation/link-index-builder.ts';
import type { LinkIndex } from '../../../src-mcp/navigation/link-index.ts';

const identity = { name: 'codec', type: 'hosted' };
const baseline: Check = { since: 1_000, editedCount: 1, edited: ['7:2000'], newest: 2_000, pages: 4 };

function sample(): PersistedIndex {
  const pages = [
    [1, 'Beta', 'b-uid', 10, 0],
    [2, 'alpha', 'a-uid', 0, 1],
    [3, 'Ünïcode “page”', 'u-uid', 5, 0],
    [4, 'Alpha', 'A-uid', 0, 0],
  ] as const;
  const blocks: BlockRow[] = [
    [10, 1, 100],
    [11, 1, 200],
    [12, 2, 300],
    [13, 3, 0],
  ];
  const refs = [
    [10, 2],
    [11, 2],
    [11, 3],
    [12, 1],
    [13, 4],
    [13, 12],
  ] as const;
  const hidden: HiddenBlockRow[] = [[13, 3]];
  // Block 11 is `alpha:: …`: its reference to page 2 is an attribute.
  const index = buildLinkIndex(pages, blocks, refs, hidden, [[11, 2]]);
  return {
    identity,
    builtAt: 5_000,
    anchor: { eid: 1, uid: 'b-uid' },
    baseline,
    built: { index, pages: 4, blocks: 4 },
  };
}

/** Everything a tool reads from an index, as plain values. */
function plain(index: LinkIndex) {
  const links = (adjacency: LinkIndex['outLinks']) => index.pages.map((_, id) => [...adjacency.of(id)]);
  return {
    pages: index.pages,
    pageEids: [...index.pageEids],
    out: links(index.outLinks),
    in: links(index.inLinks),
    attributes: links(index.attributeLinks),
    hidden: [10, 11, 12, 13, 14].map((eid) => index.hidden.has(eid)),
    hiddenPerPage: [...index.hidden.perPage],
    byUid: [...index.byUid],
    byTitle: [...index.byTitle],
    byLowerTitle: [...index.byLowerTitle],
    totals: index.totals,
  };
}

describe('the index codec', () => {
  it('gives back the same index, baseline, anchor and row counts', () => {
    const kept = sample();
    const decoded = decodeIndex(encodeIndex(kept), identity);
    if (!('kept' in decoded)) throw new Error(decoded.doubt);
    expect(plain(decoded.kept.built.index)).toEqual(plain(kept.built.index));
    expect(decoded.kept.baseline).toEqual(baseline);
    expect(decoded.kept.anchor).toEqual(kept.anchor);
    expect([decoded.kept.built.pages, decoded.kept.built.blocks, decoded.kept.builtAt]).toEqual([
      4, 4, 5_000,
    ]);
  });

  it('round-trips random graphs', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 12 }),
        fc.array(fc.tuple(fc.nat(40), fc.nat(40)), { maxLength: 60 }),
        fc.array(fc.nat(40), { maxLength: 5 }),
        (pageCount, refPairs, hiddenBlocks) => {
          const pages = Array.from(
            { length: pageCount },
            (_, i) => [i + 1, `P${i % 5} ${i}`, `u${i}`, i, i % 2] as const,
          );
          const blocks: BlockRow[] = Array.from({ length: 40 }, (_, i) => [
            100 + i,
            (i % Math.max(pageCount, 1)) + 1,
            i,
          ]);
          const refs = refPairs.map(([b, d]) => [100 + b, (d % 14) + 1] as const);
          const hidden: HiddenBlockRow[] = hiddenBlocks.map((b) => [
            100 + b,
            (b % Math.max(pageCount, 1)) + 1,
          ]);
          const attributes = refs.filter((_, i) => i % 3 === 0);
          const index = buildLinkIndex(pages, blocks, refs, hidden, attributes);
          const kept = { ...sample(), built: { index, pages: pageCount, blocks: 40 } };
          const decoded = decodeIndex(encodeIndex(kept), identity);
          return (
            'kept' in decoded &&
            JSON.stringify(plain(decoded.kept.built.index)) === JSON.stringify(plain(index))
          );
        },
      ),
      { numRuns: 60 },
    );
  });

  it('doubts a changed byte anywhere, a cut file, another format and another graph', () => {
    const bytes = encodeIndex(sample());
    for (const at of [0, 9, 20, Math.floor(bytes.length / 2), bytes.length - 40, bytes.length - 1]) {
      const changed = Buffer.from(bytes);
      changed[at] = changed[at]! ^ 0x01;
      expect(decodeIndex(changed, identity)).toHaveProperty('doubt');
    }
    expect(decodeIndex(bytes.subarray(0, bytes.length - 5), identity)).toHaveProperty('doubt');
    expect(decodeIndex(Buffer.alloc(0), identity)).toHaveProperty('doubt');
    const older = Buffer.from(bytes);
    older.writeUInt32LE(INDEX_FORMAT + 1, 8);
    expect(decodeIndex(older, identity)).toEqual({ doubt: `format ${INDEX_FORMAT + 1}` });
    // Format 1 kept no attribute links: such a file is rebuilt, never read as format 2.
    expect(INDEX_FORMAT).toBe(2);
    older.writeUInt32LE(1, 8);
    expect(decodeIndex(older, identity)).toEqual({ doubt: 'format 1' });
    expect(decodeIndex(bytes, { name: 'codec', type: 'offline' })).toEqual({ doubt: 'another graph' });
    expect(decodeIndex(bytes, { name: 'Codec', type: 'hosted' })).toEqual({ doubt: 'another graph' });
  });
});
