/**
 * Every datalog_query answer fits the primary-item limit, says that it was cut
 * and how much there was: the built roam-mcp over stdio against a generated 20,000-block graph.
 */
import { rm } from 'node:fs/promises';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../../src-mcp/contract/limits.ts';
import { startEmulator, type Emulator } from '../../emulator/index.ts';
import { TEST_TOKEN } from '../../harness/http-context.ts';
import { startStdioClient, type StdioClient } from '../../harness/mcp-bin.ts';
import { tempDir } from '../../harness/temp-dir.ts';

let home: string;
let emulator: Emulator;
let mcp: StdioClient;

beforeAll(async () => {
  home = await tempDir('datalog-bounds-');
  emulator = await startEmulator({
    home,
    port: 0,
    graphs: [
      {
        name: 'big',
        content: { generate: { blocks: 20_000, seed: 7 } },
        tokens: [{ token: TEST_TOKEN, accessLevel: 'read-only' }],
      },
    ],
  });
  mcp = await startStdioClient({ home, graph: 'big', nickname: 'Big', token: TEST_TOKEN });
}, 120_000);

afterAll(async () => {
  await mcp.close();
  await emulator.close();
  await rm(home, { recursive: true, force: true });
});

/** The answer's text, checked against the limit (10,000 characters is far below 25,000 tokens). */
async function query(args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = (await mcp.client.callTool({ name: 'datalog_query', arguments: args })) as CallToolResult;
  expect(result.isError, JSON.stringify(result.content).slice(0, 300)).toBeFalsy();
  const text = (result.content[0] as { text: string }).text;
  expect(text.length).toBeLessThanOrEqual(LIMITS.primary);
  return JSON.parse(text) as Record<string, unknown>;
}

describe('datalog_query answers are bounded', () => {
  it('cuts one row holding a whole collection and says how big it was', async () => {
    const answer = await query({ query: '[:find (distinct ?s) :where [?b :block/string ?s]]' });
    expect(answer).toMatchObject({ total: 1, truncated: { rowsShown: 1, rowsTotal: 1 } });
    const truncated = answer.truncated as { characters: number; message: string };
    expect(truncated.characters).toBeGreaterThan(500_000);
    expect(truncated.message).toMatch(/Narrow the query/);
    expect(((answer.items as unknown[][])[0]![0] as string[]).length).toBeGreaterThan(10);
  });

  it('returns the rows that fit, with the total and where to continue', async () => {
    const answer = await query({
      query: '[:find ?uid ?s :where [?b :block/uid ?uid] [?b :block/string ?s]]',
      limit: 1000,
    });
    const rows = answer.items as unknown[];
    expect(answer.total).toBe(20_000);
    expect(rows.length).toBeLessThan(1000);
    expect(answer.nextOffset).toBe(rows.length);
    expect(answer.truncated).toMatchObject({ rowsShown: rows.length, rowsTotal: 20_000 });
    const next = await query({
      query: '[:find ?uid ?s :where [?b :block/uid ?uid] [?b :block/string ?s]]',
      limit: 1000,
      offset: answer.nextOffset,
    });
    expect(next.offset).toBe(rows.length);
  });

  it("cuts a pulled answer (the most referenced page's referrers)", async () => {
    const counts = await query({
      query: '[:find ?t (count ?b) :where [?p :node/title ?t] [?b :block/refs ?p]]',
      limit: 1000,
    });
    const [hub, referrers] = (counts.items as Array<[string, number]>).sort((a, b) => b[1] - a[1])[0]!;
    const pulled = await query({
      query:
        '[:find (pull ?b [:block/string :block/uid {:block/page [:node/title]}]) :in $ ?t :where [?p :node/title ?t] [?b :block/refs ?p]]',
      inputs: [hub],
      limit: 1000,
    });
    expect(pulled.total).toBe(referrers);
    expect((pulled.items as unknown[]).length).toBeLessThan(referrers);
    expect((pulled.truncated as { characters: number }).characters).toBeGreaterThan(LIMITS.primary);
  });

  it('pages a collection answer', async () => {
    const collection = await query({ query: '[:find [?s ...] :where [?b :block/string ?s]]', limit: 5 });
    expect(collection).toMatchObject({ total: 20_000, nextOffset: 5 });
  });
});
