/** Unit tests of the pure algorithms behind navigation: Dice, PageRank, bounded BFS, index building, link-graph budget. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { HiddenBlockRow } from '../../../src-mcp/roam/hidden-blocks.ts';
import { bigrams, diceOfBigrams, normalizeName } from '../../../src-mcp/navigation/dice.ts';
import { linkGraph, mostConnected, neighborhood } from '../../../src-mcp/navigation/link-graph.ts';
import {
  buildLinkIndex,
  type BlockRow,
  type PageRow,
  type ReferenceRow,
} from '../../../src-mcp/navigation/link-index-builder.ts';
import { pagerank } from '../../../src-mcp/navigation/pagerank.ts';
import { shortestPath } from '../../../src-mcp/navigation/shortest-path.ts';

/** Random directed graphs as out-neighbour lists (distinct, no self-loops). */
const graphs = fc.integer({ min: 1, max: 25 }).chain((n) =>
  fc.array(fc.tuple(fc.nat(n - 1), fc.nat(n - 1)), { maxLength: 60 }).map((pairs) => {
    const out: number[][] = Array.from({ length: n }, () => []);
    for (const [a, b] of pairs) if (a !== b && !out[a]!.includes(b)) out[a]!.push(b);
    return out;
  }),
);
const reverse = (out: number[][]) => {
  const incoming: number[][] = out.map(() => []);
  out.forEach((targets, from) => targets.forEach((to) => incoming[to]!.push(from)));
  return incoming;
};

/** Plain BFS distances, the reference the bounded search must agree with. */
function distances(
  out: number[][],
  incoming: number[][],
  source: number,
  both: boolean,
): Map<number, number> {
  const dist = new Map([[source, 0]]);
  const queue = [source];
  while (queue.length) {
    const node = queue.shift()!;
    for (const next of [...out[node]!, ...(both ? incoming[node]! : [])]) {
      if (!dist.has(next)) {
        dist.set(next, dist.get(node)! + 1);
        queue.push(next);
      }
    }
  }
  return dist;
}

describe('Dice similarity', () => {
  // Names are compared as page-lookup.ts does: normalized, then the Dice coefficient of their bigrams.
  const dice = (a: string, b: string) => diceOfBigrams(bigrams(normalizeName(a)), bigrams(normalizeName(b)));

  it('matches hand-computed values', () => {
    // night: ni ig gh ht; nacht: na ac ch ht → 2·1 / (4 + 4)
    expect(dice('night', 'nacht')).toBe(0.25);
    expect(dice('Machine Learning', 'machine-learning')).toBe(1);
    expect(dice('abc', 'xyz')).toBe(0);
    expect(dice('', '')).toBe(0);
    // Repeated bigrams count as often as they occur: "aaaa" has aa×3, "aa" has aa×1 → 2·1/4.
    expect(dice('aaaa', 'aa')).toBe(0.5);
  });

  it('is symmetric, within [0, 1], and 1 for equal names of two characters or more', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), fc.string({ maxLength: 30 }), (a, b) => {
        const ab = dice(a, b);
        expect(ab).toBe(dice(b, a));
        expect(ab).toBeGreaterThanOrEqual(0);
        expect(ab).toBeLessThanOrEqual(1);
        if ([...normalizeName(a)].length > 1) expect(dice(a, a)).toBe(1);
      }),
    );
  });

  it('handles characters outside the BMP as single characters', () => {
    expect(bigrams(normalizeName('𝔸𝔹ℂ')).length).toBe(2);
    expect(diceOfBigrams(bigrams('𝔸𝔹'), bigrams('𝔸𝔹'))).toBe(1);
  });
});

describe('pagerank', () => {
  it('sums to 1 with non-negative scores on any graph', () => {
    fc.assert(
      fc.property(graphs, (out) => {
        const rank = pagerank(out);
        expect(rank.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 8);
        for (const r of rank) expect(r).toBeGreaterThan(0);
      }),
    );
  });

  it('is uniform on a cycle and favours the center of a star', () => {
    const cycle = pagerank([[1], [2], [0]]);
    for (const r of cycle) expect(r).toBeCloseTo(1 / 3, 8);
    // Leaves 1..4 all link to 0; 0 links nowhere.
    const star = pagerank([[], [0], [0], [0], [0]]);
    expect(Math.max(...star)).toBe(star[0]);
    expect(star[1]).toBeCloseTo(star[4]!, 12);
  });

  it('returns nothing for an empty graph', () => {
    expect(pagerank([]).length).toBe(0);
  });
});

describe('shortestPath', () => {
  it('agrees with plain BFS distances, respects the bound and only uses real links', () => {
    fc.assert(
      fc.property(
        graphs,
        fc.nat(),
        fc.nat(),
        fc.integer({ min: 1, max: 6 }),
        fc.boolean(),
        (out, s, t, max, both) => {
          const n = out.length;
          const [source, target] = [s % n, t % n];
          const incoming = reverse(out);
          const found = shortestPath(out, both ? incoming : undefined, source, target, max);
          const expected = distances(out, incoming, source, both).get(target);
          if (expected === undefined || expected > max) {
            expect(found).toBeNull();
            return;
          }
          expect(found!.hops.length).toBe(expected);
          expect(found!.nodes[0]).toBe(source);
          expect(found!.nodes.at(-1)).toBe(target);
          found!.hops.forEach((hop, k) => {
            const [a, b] = [found!.nodes[k]!, found!.nodes[k + 1]!];
            expect(hop === 'out' ? out[a]!.includes(b) : both && out[b]!.includes(a)).toBe(true);
          });
        },
      ),
    );
  });
});

describe('buildLinkIndex', () => {
  // Pages: 1 "B", 2 "a", 3 "C"; blocks 10, 11 on B; 12 on C.
  const pages: PageRow[] = [
    [1, 'B', 'uid-b', 100, 0],
    [2, 'a', 'uid-a', 50, 0],
    [3, 'C', 'uid-c', 0, 1767225600000],
  ];
  const blocks: BlockRow[] = [
    [10, 1, 300],
    [11, 1, 250],
    [12, 3, 200],
  ];
  const refs: ReferenceRow[] = [
    [10, 2],
    [11, 2],
    [11, 3],
    [11, 1],
    [12, 2],
    [13, 99],
    [12, 10],
  ];
  const index = buildLinkIndex(pages, blocks, refs);
  const id = (title: string) => index.byTitle.get(title)!;

  it('orders pages by title, case-insensitively, and keeps their stats', () => {
    expect(index.pages.map((p) => p.title)).toEqual(['a', 'B', 'C']);
    expect(index.pages[id('B')]).toEqual({
      uid: 'uid-b',
      title: 'B',
      daily: false,
      blockCount: 2,
      lastEdit: 300,
    });
    expect(index.pages[id('C')]!.daily).toBe(true);
  });

  it('counts references per link, leaves self-references and unknown targets out', () => {
    expect([...index.outLinks.of(id('B'))]).toEqual([
      [id('a'), 2],
      [id('C'), 1],
    ]);
    expect(index.inLinks.of(id('a')).get(id('C'))).toBe(1);
    expect(index.outLinks.of(id('B')).has(id('B'))).toBe(false);
    expect(index.totals).toEqual({ pages: 3, blocks: 3, references: 4, links: 3, lastEdit: 300 });
  });

  it('keeps the page eids, to ask about the blocks of one page', () => {
    expect([...index.pageEids]).toEqual([2, 1, 3]);
  });

  it('gives the same links, counts and totals as a plain Map per page, hidden blocks left out', () => {
    const rows = fc.record({
      pages: fc.integer({ min: 1, max: 12 }),
      blocks: fc.array(fc.tuple(fc.nat(11), fc.nat(1000)), { maxLength: 40 }),
      refs: fc.array(fc.tuple(fc.nat(45), fc.nat(60)), { maxLength: 80 }),
      hidden: fc.array(fc.nat(45), { maxLength: 6 }),
    });
    fc.assert(
      fc.property(rows, (g) => {
        // Page eids 1..pages, block eids 100 + i on page (page % pages) + 1.
        const pages: PageRow[] = Array.from({ length: g.pages }, (_, i) => [
          i + 1,
          `P${(i * 7) % 13} ${i}`,
          `u${i}`,
          i,
          0,
        ]);
        const blocks: BlockRow[] = g.blocks.map(([page, time], i) => [100 + i, (page % g.pages) + 1, time]);
        const pageOf = new Map(blocks.map(([b, p]) => [b, p]));
        const refs = [...new Set(g.refs.map(([b, d]) => `${100 + b},${d < 20 ? d : 100 + d}`))].map(
          (key) => key.split(',').map(Number) as unknown as ReferenceRow,
        );
        const hidden: HiddenBlockRow[] = g.hidden
          .filter((b) => pageOf.has(100 + b))
          .map((b) => [100 + b, pageOf.get(100 + b)!]);
        const index = buildLinkIndex(pages, blocks, refs, hidden);
        const hiddenSet = new Set(hidden.map(([b]) => b));
        const expected = new Map<string, number>();
        let references = 0;
        for (const [b, d] of [...new Set(refs.map((r) => r.join()))].map((r) => r.split(',').map(Number))) {
          const from = pageOf.get(b!);
          if (from === undefined || hiddenSet.has(b!) || d! < 1 || d! > g.pages || from === d) continue;
          references++;
          const key = `${index.pages[index.byUid.get(`u${from - 1}`)!]!.title}>${index.pages[index.byUid.get(`u${d! - 1}`)!]!.title}`;
          expected.set(key, (expected.get(key) ?? 0) + 1);
        }
        const got = new Map<string, number>();
        index.pages.forEach((page, id) => {
          for (const [to, weight] of index.outLinks.of(id))
            got.set(`${page.title}>${index.pages[to]!.title}`, weight);
          for (const [from, weight] of index.inLinks.of(id))
            expect(index.outLinks.of(from).get(id)).toBe(weight);
          const count = blocks.filter(([b, p]) => p === index.pageEids[id] && !hiddenSet.has(b)).length;
          expect(page.blockCount).toBe(count);
        });
        expect(got).toEqual(expected);
        expect(index.totals.references).toBe(references);
        expect(index.totals.links).toBe(expected.size);
      }),
    );
  });

  it('resolves uids and lower-cased titles', () => {
    expect(index.byUid.get('uid-c')).toBe(id('C'));
    expect(index.byLowerTitle.get('b')).toEqual([id('B')]);
  });
});

describe('linkGraph', () => {
  it('always fits the budget and only has edges between its nodes', () => {
    fc.assert(
      fc.property(
        graphs,
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 300, max: 3000 }),
        (out, limit, budget) => {
          const rows: ReferenceRow[] = [];
          const blocks: BlockRow[] = [];
          out.forEach((targets, from) =>
            targets.forEach((to, k) => {
              blocks.push([1000 * (from + 1) + k, from, 0]);
              rows.push([1000 * (from + 1) + k, to]);
            }),
          );
          const pages: PageRow[] = out.map((_, i) => [
            i,
            `Page number ${i} ${'x'.repeat(i * 3)}`,
            `u${i}`,
            0,
            0,
          ]);
          const index = buildLinkIndex(pages, blocks, rows);
          const graph = linkGraph(index, mostConnected(index), limit, budget);
          expect(JSON.stringify(graph).length).toBeLessThanOrEqual(budget);
          expect(graph.nodes.length).toBeLessThanOrEqual(limit);
          const uids = new Set(graph.nodes.map((n) => n.uid));
          for (const [a, b] of graph.edges) expect(uids.has(a) && uids.has(b)).toBe(true);
          expect(graph.truncated).toBe(
            graph.nodes.length < out.length || graph.edges.length < graph.totalEdges,
          );
        },
      ),
    );
  });

  it('neighbourhood rings grow by distance', () => {
    const blocks: BlockRow[] = [
      [10, 0, 0],
      [11, 1, 0],
      [12, 3, 0],
    ];
    const rows: ReferenceRow[] = [
      [10, 1],
      [11, 2],
      [12, 2],
    ];
    const pages: PageRow[] = [0, 1, 2, 3, 4].map((i) => [i, `p${i}`, `u${i}`, 0, 0]);
    const index = buildLinkIndex(pages, blocks, rows);
    const { ranked, depthOf } = neighborhood(index, 0, 3);
    expect(ranked).toEqual([0, 1, 2, 3]);
    expect([...depthOf]).toEqual([0, 1, 2, 3, -1]);
    expect(neighborhood(index, 0, 1).ranked).toEqual([0, 1]);
  });
});
