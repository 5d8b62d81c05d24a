/**
 * How the change-review app reads what the host hands it (src-mcp/apps/change-review/results.ts):
 * list_changes' page, undo_changes' report, an error's message, and anything else as plain text,
 * from the text JSON or structuredContent alike; nothing a tool might send makes it throw.
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { readResult } from '../../../../src-mcp/apps/change-review/results.ts';

const text = (value: unknown) => ({ content: [{ type: 'text', text: JSON.stringify(value) }] });
const list = { changes: [{ id: 'c1', summary: 's' }], total: 1, offset: 0, limit: 20 };
const report = { dryRun: true, undone: 1, conflicts: 0, changes: [] };

it('reads a list, a report and an error, from text or structuredContent', () => {
  expect(readResult(text(list))).toMatchObject({ kind: 'list', total: 1 });
  expect(readResult({ content: [], structuredContent: list })).toMatchObject({ kind: 'list' });
  expect(readResult(text(report))).toMatchObject({ kind: 'undo', dryRun: true, undone: 1 });
  expect(readResult({ ...text({ error: { code: 'X', message: 'Nope.' } }), isError: true })).toEqual({
    kind: 'message',
    text: 'Nope.',
    error: true,
  });
  expect(readResult({ content: [{ type: 'text', text: 'Not done: declined.' }] })).toEqual({
    kind: 'message',
    text: 'Not done: declined.',
    error: false,
  });
});

it('never throws, whatever the result holds', () => {
  fc.assert(
    fc.property(
      fc.jsonValue(),
      fc.string(),
      fc.boolean(),
      fc.jsonValue(),
      (structured, raw, isError, meta) => {
        const shown = readResult({
          content: [{ type: 'text', text: raw }],
          structuredContent: structured,
          isError,
          _meta: { 'roam-mcp/change-review': meta },
        });
        expect(['list', 'undo', 'message']).toContain(shown.kind);
      },
    ),
  );
});

it('takes each change’s ops from the result’s _meta, and only entries that have an ops list', () => {
  const ops = [{ n: 0, kind: 'edit', before: 'a', after: 'b' }];
  const shown = readResult({
    ...text(list),
    _meta: { 'roam-mcp/change-review': { changes: { c1: { ops }, c2: { ops: 'no' }, c3: null } } },
  });
  expect(shown).toMatchObject({ kind: 'list', described: { c1: { ops } } });
  expect(Object.keys((shown as { described: object }).described)).toEqual(['c1']);
  expect(readResult(text(list))).toMatchObject({ kind: 'list', described: {} });
});
