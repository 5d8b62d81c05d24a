/**
 * `Adjacency.without` and its rows (src-mcp/navigation/adjacency.ts), what hubs and paths walk
 * without attribute-only links: against the rule said plainly, on random graphs (seeded),
 * forwards, reversed and counted.
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { Adjacency, type LinkWalk } from '../../../src-mcp/navigation/adjacency.ts';

type Link = [from: number, to: number, weight: number];

/** Distinct links sorted by source then target, as an Adjacency (with its reverse). */
function adjacency(nodes: number, links: readonly Link[]): { out: Adjacency; in: Adjacency } {
  const sorted = [...links].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const outDegree = new Int32Array(nodes);
  for (const [from] of sorted) outDegree[from]!++;
  return Adjacency.both(
    outDegree,
    Int32Array.from(sorted, ([, to]) => to),
    Int32Array.from(sorted, ([, , weight]) => weight),
  );
}

/** The links as [from, to] pairs, in row order. */
function pairsOf(lists: LinkWalk): Array<[number, number]> {
  const pairs: Array<[number, number]> = [];
  for (let from = 0; from < lists.nodes; from++)
    for (const to of lists.neighbors(from)) pairs.push([from, to]);
  return pairs;
}

const byRow = (a: readonly number[], b: readonly number[]) => a[0]! - b[0]! || a[1]! - b[1]!;

const graph = fc.integer({ min: 1, max: 12 }).chain((nodes) =>
  fc
    .uniqueArray(fc.tuple(fc.nat(nodes - 1), fc.nat(nodes - 1)), {
      selector: ([from, to]) => `${from}>${to}`,
      maxLength: 60,
    })
    .chain((pairs) =>
      fc.record({
        nodes: fc.constant(nodes),
        // Each link's references, and how many of them are the part's (0: not in the part).
        links: fc.tuple(
          ...pairs.map(([from, to]) =>
            fc
              .integer({ min: 1, max: 4 })
              .chain((weight) =>
                fc.tuple(fc.constant<Link>([from, to, weight]), fc.integer({ min: 0, max: weight })),
              ),
          ),
        ),
      }),
    ),
);

it('keeps every link but those the part accounts for whole: rows, reversed rows and degrees', () => {
  fc.assert(
    fc.property(graph, ({ nodes, links }) => {
      const all = adjacency(
        nodes,
        links.map(([link]) => link),
      );
      const part = adjacency(
        nodes,
        links
          .filter(([, partWeight]) => partWeight > 0)
          .map(([[from, to], partWeight]) => [from, to, partWeight]),
      );
      const expected = links
        .filter(([[, , weight], partWeight]) => partWeight !== weight)
        .map(([[from, to]]): [number, number] => [from, to])
        .sort(byRow);
      const walked = all.out.without(part.out);
      expect(pairsOf(walked)).toEqual(expected);
      expect(pairsOf(walked.reversed())).toEqual(expected.map(([from, to]) => [to, from]).sort(byRow));
      const incoming = new Int32Array(nodes);
      for (const [, to] of expected) incoming[to]!++;
      expect(walked.inDegrees()).toEqual(incoming);
      expect([...walked.degrees()]).toEqual(
        Array.from({ length: nodes }, (_, p) => expected.filter(([from]) => from === p).length),
      );
    }),
    { seed: 20261126, numRuns: process.env.ROAM_LONG_TESTS === '1' ? 5000 : 300 },
  );
});
