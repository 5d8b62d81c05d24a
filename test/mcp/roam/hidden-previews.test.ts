/**
 * A visible block that refers to a hidden one (`see ((hidq))`) reads back without the hidden
 * block's text in its preview, in every reader that returns Roam's text — tools, the page
 * resource, the prompts — in both of Roam's preview formats (`[text](((uid)))` and
 * `((uid))<ref>…</ref>`), also when the reference is nested inside another block's preview, and
 * when the agent writes the reference itself. Through the built bin against the emulator.
 *
 * A reader added to READERS is covered; each must show the redacted preview (so the test cannot
 * pass on an answer that never carried the reference).
 */
import type { GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageSpec } from '../../emulator/types.ts';
import { allTextOf, jsonOf, type McpHandle } from '../../harness/mcp-bin.ts';
import { graphWithToken, startStdioWorld, type StdioWorld } from '../../harness/stdio-world.ts';

const SECRETS = ['SALARY 1234', 'CHILD 5678'];
const MARK = 'hidden from AI';
const DAY = { title: 'January 15th, 2026', uid: '01-15-2026', date: '2026-01-15' };

const content: PageSpec[] = [
  {
    title: 'Vault',
    children: [
      { string: 'SALARY 1234 #.rm-hide', uid: 'hidq' },
      { string: 'Parent [[.rm-private]]', uid: 'hidp', children: [{ string: 'CHILD 5678', uid: 'hidc' }] },
      { string: 'Mentions ((hidq)) in passing', uid: 'nested' },
    ],
  },
  {
    title: 'Notes',
    children: [
      { string: 'see ((hidq)) and ((hidc)) about [[Topic]]', uid: 'vis1' },
      { string: '{{[[TODO]]}} ask about ((hidq)) [[Topic]]', uid: 'vis2' },
      { string: 'quoting ((nested))', uid: 'vis3' },
    ],
  },
  { title: 'Topic', children: ['plain'] },
  {
    title: DAY.title,
    uid: DAY.uid,
    daily: true,
    children: [{ string: '{{[[TODO]]}} follow up ((hidq)) [[Topic]]', uid: 'day1' }],
  },
  { title: 'roam/agent guidelines', children: ['Mind ((hidq))'] },
];

const comments = [
  { block: 'vis1', author: 'Grace', createdTime: '2026-01-06T10:00:00.000Z', text: 're ((hidq))' },
];

const alias = graphWithToken({ name: 'alias', content, comments }, { nickname: 'alias' });
const reftag = graphWithToken(
  { name: 'reftag', content, comments, refPreviews: 'ref-tag' },
  { nickname: 'reftag' },
);
let world: StdioWorld;
let mcp: McpHandle;

beforeAll(async () => {
  world = await startStdioWorld({
    emulator: { semanticSearch: true, graphs: [alias.graph, reftag.graph] },
    config: [alias.config, reftag.config],
    prefix: 'roam-previews-',
  });
  mcp = world.mcp;
  // semantic_search is listed once the capability probe (after a first call) found it.
  const listed = mcp.nextToolListChange();
  await mcp.call('get_page', { title: 'Topic', graph: 'alias' });
  await listed;
}, 60_000);

afterAll(() => world?.close());

function promptText(result: GetPromptResult): string {
  return JSON.stringify(result.messages);
}

async function tool(name: string, args: Record<string, unknown>): Promise<string> {
  const result = await mcp.call(name, args);
  expect(result.isError, `${name}: ${allTextOf(result)}`).toBeFalsy();
  return allTextOf(result);
}

/** Every reader that returns Roam's text, by what it reads. */
const READERS: Record<string, (graph: string) => Promise<string>> = {
  get_page: (graph) => tool('get_page', { graph, title: 'Notes' }),
  'get_page (linked references)': (graph) => tool('get_page', { graph, title: 'Topic' }),
  get_block: (graph) => tool('get_block', { graph, uid: 'vis1' }),
  'get_block (nested reference)': (graph) => tool('get_block', { graph, uid: 'vis3' }),
  get_comments: (graph) => tool('get_comments', { graph, blockUid: 'vis1' }),
  get_backlinks: (graph) => tool('get_backlinks', { graph, title: 'Topic' }),
  search: (graph) => tool('search', { graph, query: 'about' }),
  semantic_search: (graph) => tool('semantic_search', { graph, query: 'see about topic' }),
  roam_query: (graph) => tool('roam_query', { graph, query: '{and: [[TODO]] [[Topic]]}' }),
  select_graph: (graph) => tool('select_graph', { graph }),
  'roam://{graph}/page/{title}': async (graph) =>
    JSON.stringify((await mcp.client.readResource({ uri: `roam://${graph}/page/Notes` })).contents),
  'backlinks prompt': async (graph) =>
    promptText(await mcp.client.getPrompt({ name: 'backlinks', arguments: { graph, page: 'Topic' } })),
  'daily-review prompt': async (graph) =>
    promptText(await mcp.client.getPrompt({ name: 'daily-review', arguments: { graph, date: DAY.date } })),
};

/** Readers that show Roam's raw text (`((uid))`, no preview), which must stay so. */
const RAW_READERS: Record<string, (graph: string) => Promise<string>> = {
  find_blocks: (graph) => tool('find_blocks', { graph, text: 'see' }),
  datalog_query: (graph) =>
    tool('datalog_query', {
      graph,
      query: '[:find ?s :where [?b :block/uid "vis1"] [?b :block/string ?s]]',
    }),
};

describe.each(['alias', 'reftag'])('previews of hidden blocks in the %s format', (graph) => {
  it.each(Object.keys(READERS))('%s shows the reference, never the hidden text', async (reader) => {
    const text = await READERS[reader]!(graph);
    for (const secret of SECRETS) expect(text, `${reader} leaks '${secret}'`).not.toContain(secret);
    expect(text, `${reader} shows the redacted preview`).toContain(MARK);
  });

  it.each(Object.keys(RAW_READERS))('%s shows the raw reference, never the hidden text', async (reader) => {
    const text = await RAW_READERS[reader]!(graph);
    for (const secret of SECRETS) expect(text, `${reader} leaks '${secret}'`).not.toContain(secret);
    expect(text, `${reader} shows the reference`).toContain('((hidq))');
  });

  it('a reference the agent writes itself reads back without the hidden text', async () => {
    jsonOf(await mcp.call('select_graph', { graph }));
    jsonOf(await mcp.call('create_block', { graph, pageTitle: 'Topic', markdown: 'probe ((hidc))' }));
    const text = await tool('get_page', { graph, title: 'Topic' });
    expect(text).toContain('probe');
    expect(text).toContain(MARK);
    expect(text).not.toContain('CHILD 5678');
  });
});
