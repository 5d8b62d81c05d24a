/**
 * A missing page, block or uid gets the same answer from every tool: NOT_FOUND,
 * naming the graph and the next step, never "Roam failed, restart Roam Desktop". Block hits are
 * labelled as blocks. The built roam-mcp over stdio against the emulator.
 */
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../emulator/index.ts';
import { TEST_TOKEN } from '../../harness/http-context.ts';
import { KNOWLEDGE_GRAPH } from './knowledge-graph.ts';
import { startStdioClient, type StdioClient } from '../../harness/mcp-bin.ts';
import { tempDir } from '../../harness/temp-dir.ts';

let home: string;
let emulator: Emulator;
let mcp: StdioClient;

beforeAll(async () => {
  home = await tempDir('not-found-');
  emulator = await startEmulator({
    home,
    port: 0,
    graphs: [{ name: 'nf', content: KNOWLEDGE_GRAPH, tokens: [{ token: TEST_TOKEN, accessLevel: 'full' }] }],
  });
  mcp = await startStdioClient({ home, graph: 'nf', nickname: 'Notes', token: TEST_TOKEN });
  expect((await mcp.call('select_graph', { graph: 'Notes' })).result.isError).toBeFalsy();
});

afterAll(async () => {
  await mcp.close();
  await emulator.close();
  await rm(home, { recursive: true, force: true });
});

describe('missing pages, blocks and uids', () => {
  it('answers NOT_FOUND with the same next step from every read and write tool', async () => {
    const calls: Array<[string, Record<string, unknown>]> = [
      ['get_page', { title: 'No Such Page' }],
      ['get_page', { uid: 'nosuchuid' }],
      ['get_block', { uid: 'nosuchuid' }],
      ['get_backlinks', { title: 'No Such Page' }],
      ['get_backlinks', { uid: 'nosuchuid' }],
      ['get_outlinks', { title: 'No Such Page' }],
      ['get_neighbors', { uid: 'nosuchuid' }],
      ['find_path', { source: 'No Such Page', target: 'Cooking' }],
      ['list_pages', { tag: 'No Such Page' }],
      ['get_link_graph', { center: 'No Such Page' }],
      ['update_block', { uid: 'nosuchuid', string: 'x' }],
      ['move_block', { uid: 'nosuchuid', parentUid: 'ml' }],
      ['move_block', { uid: 'ml-4', parentUid: 'nosuchuid' }],
      ['delete_block', { uid: 'nosuchuid' }],
      ['update_page', { uid: 'nosuchuid', title: 'New' }],
      ['delete_page', { uid: 'nosuchuid' }],
      ['create_block', { parentUid: 'nosuchuid', markdown: 'x' }],
    ];
    for (const [name, args] of calls) {
      const { result, json } = await mcp.call(name, args);
      expect(result.isError, name).toBe(true);
      const error = json.error as { code: string; message: string; suggested_next_tool: string };
      expect({ name, code: error.code }).toEqual({ name, code: 'NOT_FOUND' });
      expect(error.message, name).toMatch(/does not exist in graph "Notes"\. .*search/);
      expect(error.message, name).not.toMatch(/restart Roam/);
      expect(error.suggested_next_tool, name).toBe('search');
    }
    await expect(mcp.client.readResource({ uri: 'roam://Notes/page/No%20Such%20Page' })).rejects.toThrow(
      /NOT_FOUND.*does not exist/,
    );
    // Nothing was changed by the refused move.
    expect((await mcp.call('get_outlinks', { title: 'Machine Learning' })).json.total).toBe(4);
  });

  it('labels block hits as blocks and page hits as pages', async () => {
    const backlinks = (await mcp.call('get_backlinks', { title: 'Neural Networks' })).json;
    expect((backlinks.items as Array<{ type: string }>).map((r) => r.type)).toEqual(['block', 'block']);
    const hits = (await mcp.call('search', { query: 'neural networks' })).json;
    const types = (hits.items as Array<{ uid: string; type: string }>).map((r) => [r.uid, r.type]);
    expect(types).toContainEqual(['nn', 'page']);
    expect(types).toContainEqual(['ml-3', 'block']);
  });
});
