/**
 * A write whose answer is a malformed 200 may have landed: the agent is told to
 * check with get_block/search before retrying, never to just try again. Reads may still say so.
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
  home = await tempDir('write-unconfirmed-');
  emulator = await startEmulator({
    home,
    port: 0,
    graphs: [{ name: 'wu', content: KNOWLEDGE_GRAPH, tokens: [{ token: TEST_TOKEN, accessLevel: 'full' }] }],
  });
  mcp = await startStdioClient({ home, graph: 'wu', nickname: 'Work', token: TEST_TOKEN });
  expect((await mcp.call('select_graph', { graph: 'Work' })).result.isError).toBeFalsy();
});

afterAll(async () => {
  await mcp.close();
  await emulator.close();
  await rm(home, { recursive: true, force: true });
});

type ErrorBody = { code: string; message: string; suggested_next_tool?: string; retryable?: boolean };

describe('a malformed 200', () => {
  it('to a write says the change may have landed and how to check', async () => {
    const writes: Array<[string, string, Record<string, unknown>]> = [
      ['data.block.update', 'update_block', { uid: 'ml-4', string: 'changed' }],
      ['data.block.fromMarkdown', 'create_block', { parentUid: 'ml', markdown: 'new' }],
      ['data.block.delete', 'delete_block', { uid: 'ml-4' }],
    ];
    for (const [action, tool, args] of writes) {
      emulator.setFault({ kind: 'malformed-json' }, { action, times: 1 });
      const { result, json } = await mcp.call(tool, args);
      expect(result.isError, tool).toBe(true);
      const error = json.error as ErrorBody;
      expect(error.message, tool).toMatch(/may or may not have been applied/);
      expect(error.message, tool).toMatch(/get_block or search before retrying/);
      expect(error.message, tool).not.toMatch(/then try again/);
      expect(error).toMatchObject({ retryable: false, suggested_next_tool: 'get_block' });
    }
  });

  it('to a read still says to try again', async () => {
    emulator.setFault({ kind: 'malformed-json' }, { action: 'data.ai.getBlock', times: 1 });
    const { json } = await mcp.call('get_block', { uid: 'ml-4' });
    expect((json.error as ErrorBody).message).toMatch(/try again/);
  });
});
