/** The batch report is checked strictly: a report we cannot match item by item is never trusted. */
import { describe, expect, it } from 'vitest';
import { readReport } from '../../../../src-mcp/tools/core/batch-report.ts';
import { ToolError } from '../../../../src-mcp/contract/tool-errors.ts';

const uids = ['a', 'b'];

describe('readReport', () => {
  it.each([
    ['no results list', null],
    ['a short list', { results: [{ uid: 'a', ok: true }] }],
    [
      'items out of order',
      {
        results: [
          { uid: 'b', ok: true },
          { uid: 'a', ok: true },
        ],
      },
    ],
    [
      'a missing ok flag',
      {
        results: [
          { uid: 'a', ok: true },
          { uid: 'b', ok: 'yes' },
        ],
      },
    ],
  ])('answers WRITE_UNCONFIRMED for %s', (_label, payload) => {
    let error: unknown;
    try {
      readReport('data.block.updateBlocks', uids, payload);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ToolError);
    expect((error as ToolError).code).toBe('WRITE_UNCONFIRMED');
    expect((error as ToolError).message).toContain('get_block');
  });

  it('reads deleted:false as NOT_FOUND', () => {
    expect(
      readReport('data.block.deleteBlocks', ['a'], { results: [{ uid: 'a', ok: false, deleted: false }] }),
    ).toEqual([{ uid: 'a', ok: false, code: 'NOT_FOUND', deleted: false }]);
  });
});
