/** The streaming row reader gives exactly what JSON.parse gives, however the answer is cut. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MalformedRowsError,
  ResultRowStream,
  type RowStreamEnd,
} from '../../../src-shared/local-api/result-row-stream.ts';

function read(text: string, cuts: number[]): { rows: unknown[][]; end: RowStreamEnd } {
  const bytes = Buffer.from(text, 'utf8');
  const rows: unknown[][] = [];
  const stream = new ResultRowStream((row) => rows.push([...row]));
  let at = 0;
  for (const cut of [...cuts.map((c) => c % (bytes.length + 1))].sort((a, b) => a - b)) {
    stream.push(bytes.subarray(at, cut));
    at = cut;
  }
  stream.push(bytes.subarray(at));
  return { rows, end: stream.end() };
}

const scalar = fc.oneof(
  fc.integer({ min: -(2 ** 31), max: 2 ** 31 }),
  fc.maxSafeInteger(),
  fc.constantFrom(1700000000000, 0, -0, 2 ** 53 + 2),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary' }),
  fc.constantFrom(null, true, false, '"]', '\\', '[1,2]', '}'),
);
const row = fc.array(
  fc.oneof({ weight: 5, arbitrary: scalar }, fc.array(scalar), fc.dictionary(fc.string(), scalar)),
  {
    maxLength: 5,
  },
);
const cuts = fc.array(fc.nat(), { maxLength: 8 });

describe('ResultRowStream', () => {
  it('streams the rows of a success envelope, equal to JSON.parse, at any chunk boundaries', () => {
    fc.assert(
      fc.property(
        fc.array(row, { maxLength: 30 }),
        cuts,
        fc.constantFrom(undefined, 1, '\t'),
        (rows, at, space) => {
          const text = JSON.stringify({ success: true, result: rows }, null, space);
          const got = read(text, at);
          expect(got.end).toEqual({ streamed: true, rows: rows.length });
          expect(got.rows).toEqual(JSON.parse(text).result);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('keeps other answers whole for the ordinary path', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.record({ success: fc.constant(false), error: fc.record({ message: fc.string() }) }),
          fc.record({
            success: fc.constant(true),
            result: fc.oneof(fc.constant(null), scalar, fc.dictionary(fc.string(), scalar)),
          }),
          fc.record({ result: fc.array(row), success: fc.constant(true) }),
        ),
        cuts,
        (body, at) => {
          const text = JSON.stringify(body);
          const { rows, end } = read(text, at);
          expect(rows).toEqual([]);
          expect(end.streamed).toBe(false);
          if (!end.streamed) expect(end.raw.toString('utf8')).toBe(text);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('accepts keys after the result and rejects broken or cut answers', () => {
    expect(read('{"success":true,"result":[[1,2]],"apiVersion":"1"}', []).rows).toEqual([[1, 2]]);
    for (const broken of [
      '{"success":true,"result":[[1,2]',
      '{"success":true,"result":[[1,2]]',
      '{"success":true,"result":[[1,2],3]}',
      '{"success":true,"result":[[01]]}',
      '{"success":true,"result":[[1 2]]}',
      '{"success":true,"result":[[1,]]}',
      '{"success":true,"result":[[- 1]]}',
      '{"success":true,"result":[[1]] x}',
    ])
      expect(() => read(broken, []), broken).toThrow(MalformedRowsError);
  });

  it('never accepts what JSON.parse rejects, and agrees with it on what it accepts', () => {
    const pieces = fc.array(
      fc.constantFrom('[', ']', ',', '1', '0', '-', ' ', '"', 'a', '\\', 'null', '{', '}', '.5', 'e3'),
      {
        maxLength: 20,
      },
    );
    fc.assert(
      fc.property(pieces, cuts, (parts, at) => {
        const text = `{"success":true,"result":[${parts.join('')}]}`;
        let expected: unknown;
        try {
          expected = JSON.parse(text);
        } catch {
          expected = undefined;
        }
        let got: unknown[][] | undefined;
        try {
          got = read(text, at).rows;
        } catch (error) {
          expect(error).toBeInstanceOf(Error);
          got = undefined;
        }
        if (expected === undefined) expect(got).toBeUndefined();
        else if (
          Array.isArray((expected as { result: unknown }).result) &&
          (expected as { result: unknown[] }).result.every(Array.isArray)
        )
          expect(got).toEqual((expected as { result: unknown }).result);
        else expect(got).toBeUndefined();
      }),
      { numRuns: 2000 },
    );
  });
});
