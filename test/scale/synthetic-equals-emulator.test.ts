/**
 * The synthetic Local API answers what the emulator answers: every navigation query, row for row
 * (as sets), and every navigation tool's output, on a generated 10,000-block graph and on the
 * hand-written graph with hidden blocks. (100,000 blocks were checked the same way by hand, see
 * docs/navigation.md "Measured".)
 */
import { rm } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HIDDEN_BLOCKS_QUERY, HIDING_TAGS } from '../../src-mcp/roam/hidden-blocks.ts';
import { navigationTools } from '../../src-mcp/tools/navigation/index.ts';
import {
  BLOCK_COUNT_QUERY,
  EDITED_SINCE_QUERY,
  PAGE_COUNT_QUERY,
  UID_AT_QUERY,
} from '../../src-mcp/navigation/index-freshness.ts';
import {
  ATTRIBUTES_QUERY,
  BLOCKS_QUERY,
  PAGES_QUERY,
  REFERENCES_QUERY,
} from '../../src-mcp/navigation/index-queries.ts';
import { BLOCK_TEXT_QUERY, PAGE_PREVIEW_QUERY } from '../../src-mcp/navigation/previews.ts';
import { TAG_BLOCKS_QUERY } from '../../src-mcp/navigation/tag-filter.ts';
import type { ToolContext } from '../../src-mcp/contract/tool-definition.ts';
import { startEmulator, type Emulator, type PageSpec } from '../emulator/index.ts';
import { HIDDEN_GRAPH } from '../mcp/navigation/hidden-graph.ts';
import { startSyntheticLocalApi, type SyntheticLocalApi } from './synthetic-local-api.ts';
import { tempDir } from '../harness/temp-dir.ts';
import { ownServices } from '../harness/http-context.ts';

const TOKEN = 'roam-graph-local-token-SCALEscaleSCALEscaleSCALEsc';

/** Each side is a server of its own: its own link index, checked on every call. */
function context(url: string, graph: string): ToolContext {
  return {
    ...ownServices(0),
    graph: { name: graph, nickname: graph },
    signal: new AbortController().signal,
    progress: () => {},
    notice: () => {},
    async call<T>(action: string, args: unknown[] = []): Promise<T> {
      const response = await fetch(`${url}/api/${graph}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${TOKEN}` },
        body: JSON.stringify({ action, args }),
      });
      const body = (await response.json()) as { success: boolean; result?: T; error?: { message?: string } };
      if (!body.success) throw new Error(`${action} (${response.status}): ${body.error?.message}`);
      return body.result as T;
    },
  };
}

const asSet = (rows: unknown[][] | null) => (rows ?? []).map((row) => JSON.stringify(row)).sort();

interface Pair {
  emulator: Emulator;
  synthetic: SyntheticLocalApi;
  homes: string[];
}

async function startPair(
  graph: string,
  content: PageSpec[] | { generate: { blocks: number; seed: number } },
) {
  const homes = [await tempDir('scale-emu-'), await tempDir('scale-syn-')];
  const emulator = await startEmulator({
    home: homes[0]!,
    port: 0,
    graphs: [{ name: graph, content, tokens: [{ token: TOKEN, accessLevel: 'read-only' }] }],
  });
  const synthetic = await startSyntheticLocalApi({ home: homes[1]!, graph, token: TOKEN, content });
  return { emulator, synthetic, homes };
}

/** The tools' arguments, picked from the graph's own hubs and pages. */
async function toolCalls(ctx: ToolContext): Promise<Array<[string, Record<string, unknown>]>> {
  const run = (name: string, args: Record<string, unknown>) => {
    const tool = navigationTools.find((t) => t.name === name)!;
    return tool.handler(z.object(tool.inputSchema).parse(args), ctx) as Promise<{
      items: Array<{ title: string }>;
    }>;
  };
  const hubs = (await run('get_hubs', { limit: 20 })).items.map((i) => i.title);
  const listed = (await run('list_pages', { limit: 5, offset: 3 })).items.map((i) => i.title);
  const [hub, second] = [hubs[0]!, hubs[1] ?? hubs[0]!];
  return [
    ['get_outlinks', { title: listed[0]!, limit: 100 }],
    ['get_neighbors', { title: hub, limit: 50 }],
    ['find_path', { source: listed[1]!, target: second }],
    ['get_hubs', { metric: 'pagerank', limit: 50 }],
    ['get_hubs', { metric: 'out_degree', limit: 50 }],
    ['search_by_tags', { tags: [hub, second], mode: 'any', limit: 100 }],
    ['search_by_tags', { tags: [hub, second], mode: 'all', target: 'blocks', limit: 100 }],
    ['search_by_tags', { tags: [hub], target: 'blocks', limit: 100, offset: 10 }],
    ['list_pages', { tag: hub, limit: 100 }],
    ['resolve_pages', { names: [hub.toLowerCase(), `${listed[2]}x`, 'Quantum'], strategy: 'fuzzy' }],
    ['get_link_graph', { center: hub, depth: 2, limit: 100 }],
    ['get_link_graph', { limit: 100 }],
  ];
}

async function compare(pair: Pair, graph: string) {
  const [emu, syn] = [context(pair.emulator.url, graph), context(pair.synthetic.url, graph)];
  const blocks = (await emu.call<number[][]>('data.q', [BLOCKS_QUERY])) ?? [];
  const pages = (await emu.call<Array<[number, string, string]>>('data.q', [PAGES_QUERY])) ?? [];
  const times = blocks.map((b) => b[2]!).sort((a, b) => a - b);
  const queries: unknown[][] = [
    [PAGES_QUERY],
    [BLOCKS_QUERY],
    [REFERENCES_QUERY],
    [ATTRIBUTES_QUERY],
    [HIDDEN_BLOCKS_QUERY, [...HIDING_TAGS]],
    [EDITED_SINCE_QUERY, times[Math.floor(times.length * 0.9)] ?? 0],
    [PAGE_COUNT_QUERY],
    [BLOCK_COUNT_QUERY],
    [UID_AT_QUERY, pages[0]?.[0] ?? 0],
    [UID_AT_QUERY, blocks[0]?.[0] ?? 0],
    [UID_AT_QUERY, 999_999_999],
    [PAGE_PREVIEW_QUERY, pages.slice(0, 40).map((p) => p[2])],
    [BLOCK_TEXT_QUERY, blocks.slice(0, 40).map((b) => b[0])],
    [TAG_BLOCKS_QUERY, pages.slice(0, 5).map((p) => p[0])],
  ];
  for (const args of queries) {
    const label = String(args[0]).slice(0, 60);
    expect({ label, rows: asSet(await syn.call('data.q', args)) }).toEqual({
      label,
      rows: asSet(await emu.call('data.q', args)),
    });
  }
  // Each side has its own link index: every emulator answer comes from an index built from the
  // emulator, every synthetic one from the synthetic API's. Within a side, the unchanged graph's
  // index is built once and reused, as a session does.
  const calls = (await toolCalls(emu)).map(([name, args]) => {
    const tool = navigationTools.find((t) => t.name === name)!;
    return { name, args, tool, parsed: z.object(tool.inputSchema).parse(args) };
  });
  const expected: unknown[] = [];
  for (const { tool, parsed } of calls) expected.push(await tool.handler(parsed, emu));
  for (const [i, { name, args, tool, parsed }] of calls.entries()) {
    expect({ name, args, answer: await tool.handler(parsed, syn) }).toEqual({
      name,
      args,
      answer: expected[i],
    });
  }
}

describe('the synthetic Local API answers as the emulator does', () => {
  const pairs: Pair[] = [];
  afterAll(async () => {
    for (const pair of pairs) {
      await Promise.all([pair.emulator.close(), pair.synthetic.close()]);
      for (const home of pair.homes) await rm(home, { recursive: true, force: true });
    }
  });

  it('on a generated graph of 10,000 blocks', async () => {
    const pair = await startPair('scale-10k', { generate: { blocks: 10_000, seed: 11 } });
    pairs.push(pair);
    await compare(pair, 'scale-10k');
  }, 120_000);

  it('on the graph with hidden blocks (both tags, all forms, nested children)', async () => {
    const pair = await startPair('scale-hidden', HIDDEN_GRAPH);
    pairs.push(pair);
    await compare(pair, 'scale-hidden');
  }, 60_000);
});
