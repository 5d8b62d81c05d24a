/**
 * update_blocks / delete_blocks through the built bin: per-item reports in input order, any
 * failure an unmistakable error naming what was and was not applied, scope and older-Roam paths.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, type PageSpec } from '../../../emulator/index.ts';
import { errorOf, jsonOf, newToken, type McpHandle } from '../../../harness/mcp-bin.ts';
import { startStdioWorld, type StdioWorld } from '../../../harness/stdio-world.ts';

const FULL = newToken();
const APPEND = newToken();
const OLDER = newToken();
const content: PageSpec[] = [
  {
    title: 'Batch',
    uid: 'batchpage',
    children: [
      { string: 'one', uid: 'block0001' },
      { string: 'two', uid: 'block0002', children: [{ string: 'child', uid: 'block0003' }] },
      { string: 'three', uid: 'block0004' },
      { string: 'four', uid: 'block0005' },
    ],
  },
];
let world: StdioWorld | undefined;
let emulator: Emulator;
let mcp: McpHandle;

const text = (uid: string) =>
  emulator
    .graph('main')
    .run('data.q', [`[:find ?s . :where [?b :block/uid "${uid}"] [?b :block/string ?s]]`]);
const batchCalls = () =>
  emulator.requests.filter((r) => r.action?.startsWith('data.block.') && r.action.endsWith('Blocks'));

beforeAll(async () => {
  world = await startStdioWorld({
    emulator: {
      graphs: [
        { name: 'main', content, tokens: [{ token: FULL, accessLevel: 'full' }] },
        { name: 'shared', content, tokens: [{ token: APPEND, accessLevel: 'read-append' }] },
        {
          name: 'older',
          content,
          missingActions: ['data.block.updateBlocks', 'data.block.deleteBlocks'],
          tokens: [{ token: OLDER, accessLevel: 'full' }],
        },
      ],
    },
    config: [
      { name: 'main', token: FULL, accessLevel: 'full' },
      // No level chosen: the token's own limits (Roam's INSUFFICIENT_SCOPE) are tested.
      { name: 'shared', token: APPEND },
      { name: 'older', token: OLDER, accessLevel: 'full' },
    ],
  });
  ({ emulator, mcp } = world);
  for (const graph of ['main', 'shared', 'older']) jsonOf(await mcp.call('select_graph', { graph }));
});

afterAll(() => world?.close());

describe('update_blocks', () => {
  it('updates every block and reports each, with kebab-case fields on the wire', async () => {
    const result = await mcp.call('update_blocks', {
      graph: 'main',
      updates: [
        { uid: 'block0001', string: '__one__' },
        { uid: 'block0004', heading: 2, childrenViewType: 'numbered', textAlign: 'center' },
      ],
    });
    expect(jsonOf(result)).toEqual({
      success: true,
      succeeded: 2,
      failed: 0,
      results: [
        { uid: 'block0001', ok: true },
        { uid: 'block0004', ok: true },
      ],
    });
    expect(result.structuredContent).toEqual(jsonOf(result));
    expect(text('block0001')).toBe('__one__');
    expect((batchCalls().at(-1)!.body as { args: unknown[] }).args[0]).toEqual({
      updates: [
        { uid: 'block0001', string: '__one__' },
        { uid: 'block0004', heading: 2, 'children-view-type': 'numbered', 'text-align': 'center' },
      ],
    });
  });

  it('a partial success is an error that says what was applied and what failed, in input order', async () => {
    const error = errorOf(
      await mcp.call('update_blocks', {
        graph: 'main',
        updates: [
          { uid: 'missing01', string: 'x' },
          { uid: 'block0001', string: 'uno' },
          { uid: 'batchpage', string: 'x' },
        ],
      }),
    );
    expect(error.code).toBe('BATCH_PARTIAL');
    expect(error.message).toContain('Only 1 of 3 blocks were updated; 2 failed');
    expect(error.message).toContain('missing01 (NOT_FOUND');
    expect(error.message).toContain('batchpage (VALIDATION_ERROR');
    expect(error.message).toContain('retry only the failed items');
    expect(error).toMatchObject({ succeeded: 1, failed: 2 });
    expect((error.results as Array<{ uid: string; ok: boolean }>).map((r) => [r.uid, r.ok])).toEqual([
      ['missing01', false],
      ['block0001', true],
      ['batchpage', false],
    ]);
    expect(text('block0001')).toBe('uno');
  });

  it('nothing applied with mixed reasons is BATCH_FAILED; an item that changes nothing is refused before Roam', async () => {
    const failed = errorOf(
      await mcp.call('update_blocks', {
        graph: 'main',
        updates: [
          { uid: 'missing01', string: 'x' },
          { uid: 'batchpage', string: 'x' },
        ],
      }),
    );
    expect(failed.code).toBe('BATCH_FAILED');
    expect(failed.message).toMatch(/^Nothing was updated/);
    const before = batchCalls().length;
    const empty = errorOf(
      await mcp.call('update_blocks', { graph: 'main', updates: [{ uid: 'block0001' }] }),
    );
    expect(empty).toMatchObject({ code: 'INVALID_PARAMS', field: 'updates.0' });
    expect(errorOf(await mcp.call('update_blocks', { graph: 'main', updates: [] })).code).toBe(
      'INVALID_PARAMS',
    );
    expect(batchCalls().length).toBe(before);
  });
});

describe('delete_blocks', () => {
  it('deletes each block with its children; a descendant listed too is reported as gone with it', async () => {
    const result = jsonOf(
      await mcp.call('delete_blocks', { graph: 'main', uids: ['block0002', 'block0003'] }),
    );
    expect(result).toEqual({
      success: true,
      succeeded: 2,
      failed: 0,
      results: [
        { uid: 'block0002', ok: true, deleted: true },
        { uid: 'block0003', ok: true, deleted: true, note: 'deleted with its ancestor block0002' },
      ],
    });
    expect(text('block0002')).toBeNull();
  });

  it('deleting only blocks that are gone is NOT_FOUND, and a partial delete is BATCH_PARTIAL', async () => {
    const gone = errorOf(
      await mcp.call('delete_blocks', { graph: 'main', uids: ['block0002', 'missing01'] }),
    );
    expect(gone.code).toBe('NOT_FOUND');
    expect(gone.message).toMatch(/^Nothing was deleted/);
    const partial = errorOf(
      await mcp.call('delete_blocks', { graph: 'main', uids: ['missing01', 'block0005'] }),
    );
    expect(partial.code).toBe('BATCH_PARTIAL');
    expect(partial.message).toContain('Only 1 of 2 blocks were deleted');
    expect(text('block0005')).toBeNull();
  });
});

describe('scope and older Roam', () => {
  it('a read-append token gets INSUFFICIENT_SCOPE and nothing changes', async () => {
    const error = errorOf(await mcp.call('delete_blocks', { graph: 'shared', uids: ['block0001'] }));
    expect(error.code).toBe('INSUFFICIENT_SCOPE');
  });

  it('an older build answers UNKNOWN_ACTION: use the single-block tools or update Roam Desktop', async () => {
    const update = errorOf(
      await mcp.call('update_blocks', { graph: 'older', updates: [{ uid: 'block0001', string: 'x' }] }),
    );
    expect(update.code).toBe('UNKNOWN_ACTION');
    expect(update.message).toContain('batch block updates (update_blocks)');
    expect(update.message).toContain('use update_block once per block');
    const remove = errorOf(await mcp.call('delete_blocks', { graph: 'older', uids: ['block0001'] }));
    expect(remove.message).toContain('use delete_block once per block');
  });
});
