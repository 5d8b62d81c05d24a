/**
 * delete_page / delete_block through the built bin: Roam's `{deleted: false}` report is NOT_FOUND
 * with isError, never success, on newer builds; older builds (no report) reach NOT_FOUND too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, type PageSpec } from '../../../emulator/index.ts';
import { errorOf, jsonOf, newToken, type McpHandle } from '../../../harness/mcp-bin.ts';
import { startStdioWorld, type StdioWorld } from '../../../harness/stdio-world.ts';

const NEWER = newToken();
const OLDER = newToken();
const content: PageSpec[] = [
  { title: 'Doomed', uid: 'doomedpg1', children: [{ string: 'a', uid: 'blocka001' }] },
  { title: 'Kept', uid: 'keptpage1', children: [{ string: 'b', uid: 'blockb001' }] },
];
let world: StdioWorld | undefined;
let emulator: Emulator;
let mcp: McpHandle;

beforeAll(async () => {
  world = await startStdioWorld({
    emulator: {
      graphs: [
        { name: 'newer', content, tokens: [{ token: NEWER, accessLevel: 'full' }] },
        { name: 'older', content, olderShapes: true, tokens: [{ token: OLDER, accessLevel: 'full' }] },
      ],
    },
    config: [
      { name: 'newer', token: NEWER, accessLevel: 'full' },
      { name: 'older', token: OLDER, accessLevel: 'full' },
    ],
  });
  ({ emulator, mcp } = world);
  for (const graph of ['newer', 'older']) jsonOf(await mcp.call('select_graph', { graph }));
});

afterAll(() => world?.close());

describe.each(['newer', 'older'])('deletes on a %s build', (graph) => {
  it('deletes once, then answers NOT_FOUND (isError) saying nothing was deleted', async () => {
    expect(jsonOf(await mcp.call('delete_block', { graph, uid: 'blocka001' }))).toEqual({
      deleted: 'block',
      uid: 'blocka001',
    });
    const again = errorOf(await mcp.call('delete_block', { graph, uid: 'blocka001' }));
    expect(again.code).toBe('NOT_FOUND');
    expect(again.message).toMatch(/blocka001/);
    expect(jsonOf(await mcp.call('delete_page', { graph, uid: 'doomedpg1' }))).toEqual({
      deleted: 'page',
      uid: 'doomedpg1',
    });
    const page = errorOf(await mcp.call('delete_page', { graph, uid: 'doomedpg1' }));
    expect(page.code).toBe('NOT_FOUND');
    expect(page.message).toMatch(/doomedpg1/);
  });

  it('says plainly that a missing page or block is not there when read', async () => {
    expect(errorOf(await mcp.call('get_block', { graph, uid: 'blocka001' })).code).toBe('NOT_FOUND');
    expect(errorOf(await mcp.call('get_page', { graph, uid: 'doomedpg1' })).code).toBe('NOT_FOUND');
  });
});

describe('the newer report', () => {
  it('says the target is already gone and not to retry', async () => {
    const error = errorOf(await mcp.call('delete_page', { graph: 'newer', uid: 'nosuchpg1' }));
    expect(error).toMatchObject({ code: 'NOT_FOUND', uid: 'nosuchpg1', reason: 'not-found' });
    expect(error.message).toContain('Nothing was deleted');
    expect(error.message).toContain('do not retry');
    expect(emulator.graph('newer').counts().pages).toBeGreaterThan(0);
  });
});
