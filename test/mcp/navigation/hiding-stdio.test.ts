/**
 * Nothing the user hid from AI reaches the agent: the built roam-mcp over stdio
 * against the emulator, on a graph with blocks tagged #.rm-hide / [[.rm-private]] / #[[.rm-hide]],
 * nested children, a page linked only from hidden blocks and one linked from both.
 */
import { rm } from 'node:fs/promises';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../emulator/index.ts';
import { HIDDEN_GRAPH, SECRET_TEXT, SECRET_UIDS } from './hidden-graph.ts';
import { TEST_TOKEN } from '../../harness/http-context.ts';
import { startStdioClient, type StdioClient } from '../../harness/mcp-bin.ts';
import { tempDir } from '../../harness/temp-dir.ts';

let home: string;
let emulator: Emulator;
let mcp: StdioClient;

beforeAll(async () => {
  home = await tempDir('hiding-stdio-');
  emulator = await startEmulator({
    home,
    port: 0,
    graphs: [
      { name: 'hiding', content: HIDDEN_GRAPH, tokens: [{ token: TEST_TOKEN, accessLevel: 'read-only' }] },
    ],
  });
  mcp = await startStdioClient({ home, graph: 'hiding', nickname: 'Hiding', token: TEST_TOKEN });
});

afterAll(async () => {
  await mcp.close();
  await emulator.close();
  await rm(home, { recursive: true, force: true });
});

function expectNothingHidden(name: string, text: string): void {
  expect(text, name).not.toContain(SECRET_TEXT);
  for (const uid of SECRET_UIDS) expect(text, `${name} shows ${uid}`).not.toContain(uid);
}

async function text(name: string, args: Record<string, unknown>): Promise<string> {
  // Raw callTool: get_page answers markdown, not JSON.
  const result = (await mcp.client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError, `${name}: ${JSON.stringify(result.content)}`).toBeFalsy();
  return JSON.stringify(result.content);
}

describe('hidden blocks give no links, tags, counts or previews', () => {
  it('shows no page linked only from hidden blocks, and counts only visible references', async () => {
    const outlinks = (await mcp.call('get_outlinks', { title: 'Journal' })).json;
    expect((outlinks.items as Array<{ title: string; references: number }>).map((i) => i.title)).toEqual([
      'Public Topic',
      'Shared Topic',
    ]);
    expect(outlinks.items).toContainEqual(expect.objectContaining({ title: 'Shared Topic', references: 1 }));
    const neighbors = (await mcp.call('get_neighbors', { title: 'Hidden Project' })).json;
    expect(neighbors).toMatchObject({ incomingCount: 0, outgoingCount: 0, items: [] });
    const deep = (await mcp.call('get_neighbors', { title: 'Deep Secret' })).json;
    expect(deep).toMatchObject({ incomingCount: 0, items: [] });
    const shared = (await mcp.call('get_neighbors', { title: 'Shared Topic' })).json;
    expect((shared.items as Array<{ title: string; referencesIn: number }>).map((i) => i.title)).toEqual([
      'Journal',
      'Notes',
    ]);
  });

  it('finds no path through a hidden link', async () => {
    const { json } = await mcp.call('find_path', { source: 'Journal', target: 'Hidden Project' });
    expect(json).toMatchObject({ found: false, path: null, reason: 'disconnected' });
  });

  it('leaves hidden links out of the link graph, hubs, tags, lists, stats and the link index', async () => {
    const graph = (await mcp.call('get_link_graph', { center: 'Journal', depth: 2 })).json;
    const titles = (graph.nodes as Array<{ title: string }>).map((n) => n.title);
    expect(titles).not.toContain('Hidden Project');
    expect(titles).not.toContain('Deep Secret');
    const tagged = (await mcp.call('search_by_tags', { tags: ['.rm-hide', '.rm-private'] })).json;
    expect(tagged.total).toBe(0);
    const taggedBlocks = (await mcp.call('search_by_tags', { tags: ['.rm-hide'], target: 'blocks' })).json;
    expect(taggedBlocks.total).toBe(0);
    const listed = (await mcp.call('list_pages', { prefix: 'Journal' })).json;
    expect(listed.items).toEqual([expect.objectContaining({ blockCount: 2, outgoingCount: 2 })]);
    const stats = await mcp.client.readResource({ uri: 'roam://Hiding/stats' });
    // 17 blocks in the graph, 8 of them hidden (4 tagged roots and their subtrees).
    expect(JSON.parse((stats.contents[0] as { text: string }).text)).toMatchObject({ blocks: 9 });
    const index = await mcp.client.readResource({ uri: 'roam://Hiding/link-index' });
    const journal = (
      JSON.parse((index.contents[0] as { text: string }).text) as {
        items: Array<{ title: string; links: unknown[] }>;
      }
    ).items.find((i) => i.title === 'Journal');
    expect(journal?.links).toEqual([
      ['public', 1],
      ['shared', 1],
    ]);
  });

  it('shows no hidden text or uid in any navigation tool, resource or content read', async () => {
    const calls: Array<[string, Record<string, unknown>]> = [
      ['get_outlinks', { title: 'Notes' }],
      ['get_neighbors', { title: 'Journal' }],
      ['get_neighbors', { title: 'Shared Topic' }],
      ['get_neighbors', { title: 'Notes' }],
      ['find_path', { source: 'Notes', target: 'Deep Secret' }],
      ['get_hubs', { metric: 'pagerank', limit: 50 }],
      ['get_hubs', {}],
      ['search_by_tags', { tags: ['Shared Topic', 'Deep Secret', 'Hidden Project'] }],
      ['search_by_tags', { tags: ['Shared Topic', 'Deep Secret', 'Hidden Project'], target: 'blocks' }],
      ['random_page', { tags: ['Shared Topic'] }],
      ['random_page', { tags: ['Deep Secret'] }],
      ['list_pages', { limit: 100 }],
      ['resolve_pages', { names: ['Hidden Project', 'Deep Secret'] }],
      ['get_link_graph', { limit: 100 }],
      ['get_link_graph', { center: 'Shared Topic', depth: 3 }],
      ['get_page', { title: 'Journal' }],
      ['get_page', { title: 'Notes' }],
      ['get_backlinks', { title: 'Shared Topic' }],
      ['get_backlinks', { title: 'Deep Secret' }],
      ['search', { query: 'secret' }],
      ['search_templates', {}],
    ];
    for (const [name, args] of calls) expectNothingHidden(name, await text(name, args));
    for (let i = 0; i < 10; i++) expectNothingHidden('random_page', await text('random_page', {}));
    for (const uri of [
      'roam://Hiding/stats',
      'roam://Hiding/link-index',
      'roam://Hiding/page/Journal',
      'roam://Hiding/page/Notes',
    ]) {
      expectNothingHidden(uri, JSON.stringify(await mcp.client.readResource({ uri })));
    }
  });
});

describe('search_templates (Roam does not filter it: we do)', () => {
  it('drops templates inside hidden blocks and hidden lines inside templates, and says so', async () => {
    const { json } = await mcp.call('search_templates', {});
    expect(json.items).toEqual([
      { name: 'Meeting', uid: 'tpl-meeting', content: expect.stringContaining('Agenda') },
    ]);
    const content = (json.items as Array<{ content: string }>)[0]!.content;
    expect(content).toContain('Actions');
    expect(content).not.toContain(SECRET_TEXT);
    expect(json.hiddenNote).toMatch(/hid from AI/);
  });
});

describe('datalog_query answers as if hidden blocks were not there (Roam does not filter q)', () => {
  /** The leaks and their cousins: each computes hidden text or uids another way. */
  const leaks: Array<[string, unknown[]?]> = [
    ['[:find ?x :where [?b :block/string ?s] [(str ?s "|") ?x]]'],
    ['[:find ?x :where [?b :block/string ?s] [(subs ?s 1) ?x]]'],
    ['[:find ?x :where [?b :block/string ?s] [(re-pattern "SECRET.*") ?re] [(re-find ?re ?s) ?x]]'],
    ['[:find ?x :where [?b :block/uid ?u] [(str ?u "/") ?x]]'],
    ['[:find ?uid ?s :where [?b :block/uid ?uid] [?b :block/string ?s]]'],
    ['[:find ?s :where [_ :block/string ?s]]'],
    ['[:find (pull ?b [:block/string :block/uid]) . :where [?b :block/uid "hid-grand1"]]'],
    ['[:find ?s . :in $ ?u :where [?b :block/uid ?u] [?b :block/string ?s]]', ['hid-root3']],
    ['[:find ?s :where [[:block/uid "hid-child1"] :block/string ?s]]'],
    ['[:find ?u :where [?r :block/uid "hid-root1"] [?b :block/parents ?r] [?b :block/uid ?u]]'],
    [
      '[:find ?t :where [?p :node/title ?t] (not-join [?p] [?c :block/page ?p] [?c :block/string ?s] [(clojure.string/includes? ?s "SECRET")])]',
    ],
  ];

  it.each(leaks)('%s reaches nothing hidden', async (query, inputs) => {
    const { result, json } = await mcp.call('datalog_query', { query, inputs: inputs ?? [] });
    expect(result.isError, JSON.stringify(json)).toBeFalsy();
    expectNothingHidden('datalog_query', JSON.stringify(json));
    expect(json.hidden).toMatchObject({ blocks: 8 });
  });

  it('answers a not-join over hidden text as the visible graph does: every page passes', async () => {
    const { json } = await mcp.call('datalog_query', { query: leaks.at(-1)![0] });
    expect((json.items as string[][]).flat()).toEqual(
      expect.arrayContaining(['Journal', 'Notes', 'Templates']),
    );
  });

  it('still answers visible content', async () => {
    const visible = (
      await mcp.call('datalog_query', {
        query: '[:find ?u . :in $ ?t :where [?p :node/title ?t] [?p :block/uid ?u]]',
        inputs: ['Public Topic'],
      })
    ).json;
    expect(visible).toMatchObject({ result: 'public' });
  });

  it('refuses what it cannot guard, saying what to write instead', async () => {
    const { result, json } = await mcp.call('datalog_query', {
      query: '[:find (pull ?b [:block/string {:block/children ...}]) :where [?b :block/uid "journal"]]',
    });
    expect(result.isError).toBe(true);
    expect(json.error).toMatchObject({ code: 'INVALID_PARAMS', field: 'query' });
    expect((json.error as { message: string }).message).toMatch(/Join the children instead|cannot follow/);
  });
});
