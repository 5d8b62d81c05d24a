/**
 * The id of a line too long to parse, read off its first and last kilobyte: for any request, in
 * any member order, with `id` members nested in its params, the answer is the request's own id
 * or none, never an id from inside the params.
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { requestIdOfCutLine } from '../../src-mcp/process/oversized-line.ts';

const KEPT = 1024;
const id = fc.oneof(fc.integer({ min: -1e9, max: 1e9 }), fc.string({ maxLength: 20 }));
const nested = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.jsonValue(),
    fc.record({ id, inner: tie('value') }),
    fc.array(tie('value'), { maxLength: 3 }),
  ),
})).value;

it('finds the request id at either end, or none, never one from the params', () => {
  fc.assert(
    fc.property(
      id,
      nested,
      fc.nat({ max: 4000 }),
      fc.constantFrom('id-first', 'id-last', 'id-middle', 'no-id'),
      (requestId, params, padding, order) => {
        const body = { params: { pad: 'x'.repeat(padding), nested: params } };
        const members: Array<[string, unknown]> =
          order === 'id-first'
            ? [
                ['jsonrpc', '2.0'],
                ['id', requestId],
                ['method', 'tools/call'],
                ['params', body],
              ]
            : order === 'id-last'
              ? [
                  ['method', 'tools/call'],
                  ['params', body],
                  ['jsonrpc', '2.0'],
                  ['id', requestId],
                ]
              : order === 'id-middle'
                ? [
                    ['method', 'tools/call'],
                    ['params', body],
                    ['id', requestId],
                    ['jsonrpc', '2.0'],
                  ]
                : [
                    ['jsonrpc', '2.0'],
                    ['method', 'notifications/x'],
                    ['params', body],
                  ];
        const line = JSON.stringify(Object.fromEntries(members));
        const found = requestIdOfCutLine(line.slice(0, KEPT), line.slice(-KEPT));
        if (order === 'no-id') expect(found).toBeUndefined();
        else if (found !== undefined) expect(found).toEqual(requestId);
        if (order === 'id-first' || order === 'id-last') expect(found).toEqual(requestId);
      },
    ),
    { numRuns: 2000 },
  );
});
