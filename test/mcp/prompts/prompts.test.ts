/**
 * The prompts (slash commands) through the built bin with real SDK clients against the emulator:
 * prompts/list with typed arguments, prompts/get with arguments (the facts embedded, hidden
 * blocks left out), completion of page titles, dates and graph nicknames, prompts following the
 * toolsets (also live, under the tray), and the same answers in both protocol eras.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  PromptListChangedNotificationSchema,
  type GetPromptResult,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ParentMessage } from '../../../src-shared/child-ipc.ts';
import { type Emulator } from '../../emulator/index.ts';
import { ChildStdioTransport } from '../../harness/child-transport.ts';
import { binCommand, binEnv, jsonOf, newToken, startMcp, type McpHandle } from '../../harness/mcp-bin.ts';
import { startStdioWorld, type StdioWorld } from '../../harness/stdio-world.ts';
import { connectStdioClient, type TestClient } from '../../harness/sdk-client.ts';
import { HIDDEN_DAY_TITLE, HIDDEN_PROMPT_GRAPH, HIDDEN_PROMPT_UIDS } from './prompt-graphs.ts';

const DEMO = newToken();
const HIDE = newToken();
const INVALID_PARAMS = -32602;
let home: string;
let world: StdioWorld | undefined;
let emulator: Emulator;
let mcp: McpHandle;

beforeAll(async () => {
  world = await startStdioWorld({
    emulator: {
      graphs: [
        { name: 'demo', content: 'demo', tokens: [{ token: DEMO, accessLevel: 'full' }] },
        { name: 'hiding', content: HIDDEN_PROMPT_GRAPH, tokens: [{ token: HIDE, accessLevel: 'read-only' }] },
      ],
    },
    config: [
      { name: 'demo', token: DEMO, nickname: 'Demo' },
      { name: 'hiding', token: HIDE, nickname: 'Hidden' },
    ],
    prefix: 'roam-prompts-',
  });
  ({ home, emulator, mcp } = world);
});

afterAll(() => world?.close());

function get(name: string, args: Record<string, string>, client: TestClient = mcp.client) {
  return client.getPrompt({ name, arguments: args });
}

/** Everything a prompt puts before the model: text and embedded resources' text. */
function allText(result: GetPromptResult): string {
  return result.messages
    .map(({ content }) =>
      content.type === 'text'
        ? content.text
        : content.type === 'resource'
          ? ((content.resource as { text?: string }).text ?? '')
          : JSON.stringify(content),
    )
    .join('\n');
}

async function failure(promise: Promise<unknown>): Promise<{ code: number; message: string }> {
  const error = (await promise.then(
    () => undefined,
    (e: unknown) => e,
  )) as { code: number; message: string } | undefined;
  if (!error) throw new Error('expected the request to fail');
  // The v1 client prefixes the server's message with "MCP error <code>: ".
  return { code: error.code, message: error.message.replace(/^MCP error -?\d+: /, '') };
}

async function completions(
  ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string },
  name: string,
  value: string,
  graph?: string,
): Promise<string[]> {
  const result = await mcp.client.complete({
    ref,
    argument: { name, value },
    ...(graph ? { context: { arguments: { graph } } } : {}),
  });
  return result.completion.values;
}

const prompt = (name: string) => ({ type: 'ref/prompt' as const, name });

// First: nothing is selected yet (two graphs, no select_graph).
it('with two graphs and none selected, a prompt without `graph` says to pass one, and nothing is completed', async () => {
  const error = await failure(get('backlinks', { page: 'Project Apollo' }));
  expect(error.code).toBe(INVALID_PARAMS);
  expect(error.message).toMatch(/GRAPH_NOT_SELECTED: .*pass `graph`/);
  expect(await completions(prompt('backlinks'), 'page', 'proj')).toEqual([]);
});

it('lists the prompts in catalogue order, each with its typed arguments and `graph`', async () => {
  const { prompts } = await mcp.client.listPrompts();
  expect(prompts.map((p) => [p.name, p.arguments?.map((a) => `${a.name}${a.required ? '*' : ''}`)])).toEqual([
    ['backlinks', ['page*', 'graph']],
    ['graph', ['page', 'depth', 'graph']],
    ['related', ['query*', 'graph']],
    ['daily-review', ['date', 'graph']],
    ['review-changes', ['since', 'chat', 'graph']],
  ]);
  for (const p of prompts) {
    expect(p.title).toBeTruthy();
    expect(p.description).toBeTruthy();
    for (const argument of p.arguments ?? []) expect(argument.description).toBeTruthy();
  }
});

describe('prompts/get embeds the facts', () => {
  it('backlinks: every linked reference of the page (named in any case), with its path', async () => {
    const result = await get('backlinks', { graph: 'Demo', page: 'project apollo' });
    expect(result.description).toBe('Backlinks of [[Project Apollo]] in Demo');
    expect(result.messages).toHaveLength(1);
    expect(result.messages[0]!.role).toBe('user');
    const text = allText(result);
    const roam = emulator
      .graph('demo')
      .run('data.ai.getBacklinks', [{ title: 'Project Apollo', limit: 100 }]) as {
      total: number;
      results: Array<{ uid: string; path: string }>;
    };
    expect(roam.total).toBeGreaterThan(2);
    expect(text).toContain(`${roam.total} linked references, newest first`);
    for (const hit of roam.results) {
      expect(text).toContain(`<roam uid="${hit.uid}"`);
      expect(text).toContain(hit.path);
    }
  });

  it('backlinks: a page that does not exist is an invalid argument naming the closest titles', async () => {
    const error = await failure(get('backlinks', { graph: 'Demo', page: 'Projet Apolo' }));
    expect(error.code).toBe(INVALID_PARAMS);
    expect(error.message).toMatch(/^NOT_FOUND: Page "Projet Apolo" does not exist .*"Project Apollo"/);
  });

  it('graph: the link graph around the page as get_link_graph answers it, written out by distance', async () => {
    const text = allText(await get('graph', { graph: 'Demo', page: 'Project Apollo', depth: '2' }));
    const tool = jsonOf<{ nodes: Array<{ title: string; depth: number }>; edges: unknown[] }>(
      await mcp.call('get_link_graph', { graph: 'Demo', center: 'Project Apollo', depth: 2, limit: 40 }),
    );
    expect(text).toContain('center: [[Project Apollo]] (');
    for (const node of tool.nodes) expect(text).toContain(`[[${node.title}]] (`);
    expect(tool.nodes.some((n) => n.depth === 2)).toBe(true);
    expect(text).toMatch(/\n- 2 away: /);
    expect(text).toMatch(/\n- \[\[Project Apollo\]\] → .*\[\[Project Hermes\]\]/);
    expect(text).toContain(`Links (${tool.edges.length} of ${tool.edges.length} among these pages`);
  });

  it('graph: without a page, the best connected pages; a depth that is not 0-3 is refused by name', async () => {
    const result = await get('graph', { graph: 'Demo' });
    expect(result.description).toBe('Link graph of the best connected pages in Demo');
    expect(allText(result)).toContain('[[Project Apollo]] (');
    const error = await failure(get('graph', { graph: 'Demo', page: 'Project Apollo', depth: '9' }));
    expect(error.code).toBe(INVALID_PARAMS);
    expect(error.message).toMatch(/INVALID_PARAMS: .*`depth`.*Its arguments: page, depth, graph\./);
  });

  it('related: pages near a page by links, ranked, each with why and how it begins', async () => {
    const text = allText(await get('related', { graph: 'Demo', query: 'Project Apollo' }));
    const items = text.split('\n').filter((line) => /^\d+\. \[\[/.test(line));
    expect(items[0]).toMatch(/^1\. \[\[Project Hermes\]\] — .*links to \[\[Project Apollo\]\]/);
    expect(items.length).toBeGreaterThan(4);
    expect(text).toContain('   Sync engine that [[Project Apollo]] builds on');
    expect(text).toMatch(/both linked from \[\[November 20th, 2026\]\]/);
    expect(text).toMatch(/Also linked, without blocks of their own \(tags, attributes\): .*\[\[owner\]\]/);
    expect(items.some((item) => item.includes('. [[owner]] —'))).toBe(false);
  });

  it('related: words start from the pages that mention them; words nothing mentions say so', async () => {
    const text = allText(await get('related', { graph: 'Demo', query: 'sync engine' }));
    expect(text).toMatch(/Pages that mention "sync engine" most .*\[\[Project Hermes\]\] \(1 block\)/);
    expect(text).toMatch(/\n1\. \[\[/);
    const none = allText(await get('related', { graph: 'Demo', query: 'zebra quartz' }));
    expect(none).toMatch(/^Nothing in my Roam graph "Demo" mentions "zebra quartz"/);
  });

  it('daily-review: the note as its resource reads, the pages it links to, its open TODOs', async () => {
    const result = await get('daily-review', { graph: 'Demo', date: '2026-11-22' });
    expect(result.description).toBe('Daily review of [[November 22nd, 2026]] in Demo');
    const [note, facts] = result.messages;
    const uri = 'roam://Demo/page/November%2022nd%2C%202026';
    expect(note!.content).toMatchObject({ type: 'resource', resource: { uri, mimeType: 'text/markdown' } });
    const read = await mcp.client.readResource({ uri });
    expect((note!.content as { resource: { text: string } }).resource.text).toBe(read.contents[0]!.text);
    const text = allText({ messages: [facts!] } as GetPromptResult);
    expect(text).toContain(`The note is attached (${uri}).`);
    expect(text).toMatch(/It links to 5 pages .*\[\[Alan Turing\]\], \[\[Project Apollo\]\]/);
    expect(text).toMatch(
      /Open TODOs on it or referencing it \(1\):\n- \{\{\[\[TODO\]\]\}\} Review the \[\[Roam Companion\]\] demo/,
    );
  });

  it('daily-review: a day without a note says so; a date that does not exist is refused', async () => {
    const result = await get('daily-review', { graph: 'Demo', date: '01-02-2026' });
    expect(result.messages).toHaveLength(1);
    expect(allText(result)).toContain('There is no daily note for [[January 2nd, 2026]] in this graph.');
    for (const date of ['2026-02-30', 'someday']) {
      const error = await failure(get('daily-review', { graph: 'Demo', date }));
      expect(error.code).toBe(INVALID_PARAMS);
      expect(error.message).toMatch(/INVALID_PARAMS: .*today, yesterday, tomorrow, MM-DD-YYYY or YYYY-MM-DD/);
    }
  });

  it('an explicit graph becomes the selection, as for tools; unknown prompts and arguments are refused', async () => {
    await get('backlinks', { graph: 'Hidden', page: 'Shared Topic' });
    expect((await get('backlinks', { page: 'Shared Topic' })).description).toBe(
      'Backlinks of [[Shared Topic]] in Hidden',
    );
    const unknown = await failure(get('summarize', {}));
    expect(unknown).toMatchObject({ code: INVALID_PARAMS });
    expect(unknown.message).toMatch(
      /no prompt named 'summarize'. Prompts: backlinks, graph, related, daily-review/,
    );
    const extra = await failure(get('backlinks', { graph: 'Demo', title: 'Project Apollo' }));
    expect(extra.message).toMatch(/`page`: .*; unknown argument `title`/);
  });
});

describe('hidden blocks stay out of every prompt', () => {
  const runs: Array<[string, Record<string, string>]> = [
    ['backlinks', { page: 'Shared Topic' }],
    ['backlinks', { page: 'Hidden Project' }],
    ['backlinks', { page: 'Deep Secret' }],
    ['graph', { page: 'Journal', depth: '3' }],
    ['graph', {}],
    ['related', { query: 'Shared Topic' }],
    ['related', { query: 'Journal' }],
    ['related', { query: 'salary' }],
    ['daily-review', { date: '2026-11-23' }],
  ];

  it.each(runs)('%s %j shows no hidden text or uid', async (name, args) => {
    const text = allText(await get(name, { graph: 'Hidden', ...args }));
    expect(text).not.toContain('SECRET');
    for (const uid of HIDDEN_PROMPT_UIDS) expect(text).not.toContain(uid);
  });

  it('what is visible is there: the visible TODOs, the visible links, no page linked only from hidden blocks', async () => {
    const review = allText(await get('daily-review', { graph: 'Hidden', date: '2026-11-23' }));
    expect(review).toContain('Visible task on [[Shared Topic]]');
    expect(review).toContain(`Visible follow-up for [[${HIDDEN_DAY_TITLE}]]`);
    expect(review).toMatch(/Open TODOs on it or referencing it \(2\)/);
    expect(review).toMatch(/It links to 2 pages .*\[\[Shared Topic\]\], \[\[TODO\]\]/);
    const graph = allText(await get('graph', { graph: 'Hidden', page: 'Journal', depth: '3' }));
    expect(graph).toContain('[[Public Topic]]');
    expect(graph).not.toContain('[[Hidden Project]]');
    expect(graph).not.toContain('[[Deep Secret]]');
    const none = allText(await get('related', { graph: 'Hidden', query: 'salary' }));
    expect(none).toMatch(/^Nothing in my Roam graph "Hidden" mentions "salary"/);
  });
});

describe('completion/complete', () => {
  it('page titles: prefix first, best connected first; close spellings; nothing typed: the best connected', async () => {
    expect((await completions(prompt('backlinks'), 'page', 'proj', 'Demo')).slice(0, 2)).toEqual([
      'Project Apollo',
      'Project Hermes',
    ]);
    expect(await completions(prompt('backlinks'), 'page', 'Projet Apolo', 'Demo')).toContain(
      'Project Apollo',
    );
    expect(await completions(prompt('related'), 'query', 'grace', 'Demo')).toEqual(['Grace Hopper']);
    const all = await mcp.client.complete({
      ref: prompt('graph'),
      argument: { name: 'page', value: '' },
      context: { arguments: { graph: 'Demo' } },
    });
    expect(all.completion.values[0]).toBe('Project Apollo');
    expect(all.completion.total).toBe(all.completion.values.length);
  });

  it('graph nicknames and daily-note dates', async () => {
    expect(await completions(prompt('related'), 'graph', '')).toEqual(['Demo', 'Hidden']);
    expect(await completions(prompt('related'), 'graph', 'h')).toEqual(['Hidden']);
    const review = prompt('daily-review');
    expect(await completions(review, 'date', '2026-11-2', 'Demo')).toEqual([
      '2026-11-22',
      '2026-11-21',
      '2026-11-20',
    ]);
    expect(await completions(review, 'date', 'nov', 'Demo')).toEqual([
      '2026-11-22',
      '2026-11-21',
      '2026-11-20',
    ]);
    expect(await completions(review, 'date', 'to', 'Demo')).toEqual(['today', 'tomorrow']);
  });

  it("the page resource template's title and graph; an unknown prompt is refused", async () => {
    const template = { type: 'ref/resource' as const, uri: 'roam://{graph}/page/{title}' };
    expect(await completions(template, 'title', 'ada', 'Demo')).toEqual(['Ada Lovelace']);
    expect(await completions(template, 'graph', 'de')).toEqual(['Demo']);
    const error = await failure(completions(prompt('summarize'), 'page', 'a', 'Demo'));
    expect(error.code).toBe(INVALID_PARAMS);
  });
});

describe('prompts follow the toolsets', () => {
  const listed = async (tools: string, refused: string) => {
    const bin = await startMcp({ home, env: { ROAM_MCP_TOOLS: tools } });
    try {
      const names = (await bin.client.listPrompts()).prompts.map((p) => p.name);
      return { names, refused: await failure(get(refused, { graph: 'Demo', query: 'x' }, bin.client)) };
    } finally {
      await bin.close();
    }
  };

  it('core: backlinks, daily-review and review-changes; graph answers which toolset it needs', async () => {
    const { names, refused } = await listed('core', 'graph');
    expect(names).toEqual(['backlinks', 'daily-review', 'review-changes']);
    expect(refused.code).toBe(INVALID_PARAMS);
    expect(refused.message).toMatch(
      /^TOOLSET_NOT_ENABLED: The graph prompt needs get_link_graph\. get_link_graph is in the 'navigation' toolset.*--tools core,navigation/,
    );
  });

  it('navigation alone: graph (related also searches, a core tool)', async () => {
    const { names, refused } = await listed('navigation', 'related');
    expect(names).toEqual(['graph']);
    expect(refused.message).toMatch(
      /^TOOLSET_NOT_ENABLED: The related prompt needs search\. search is in the 'core' toolset/,
    );
  });
});

it('a live toolset change under the tray lists the new prompts and says so (prompts/list_changed)', async () => {
  const child: ChildProcess = spawn(...binCommand(), {
    env: binEnv(home, { ROAM_MCP_CONFIG_FROM_PARENT: '1' }),
    stdio: ['pipe', 'pipe', 'pipe', 'ipc'],
  });
  const client = new Client({ name: 'prompts-ipc', version: '1' });
  try {
    await new Promise<void>((resolve) =>
      child.on('message', (m: { type: string }) => m.type === 'ready' && resolve()),
    );
    const graph = {
      name: 'demo',
      type: 'hosted' as const,
      nickname: 'Demo',
      token: DEMO,
      accessLevel: 'full' as const,
    };
    const send = (message: ParentMessage) => child.send(message);
    send({ type: 'config', graphs: [graph], toolsets: ['core'] });
    await client.connect(new ChildStdioTransport(child));
    await expect.poll(async () => (await client.listPrompts()).prompts.length).toBe(3);
    const changed = new Promise<void>((resolve) =>
      client.setNotificationHandler(PromptListChangedNotificationSchema, () => resolve()),
    );
    send({ type: 'config', graphs: [graph], toolsets: ['core', 'navigation'] });
    await changed;
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual([
      'backlinks',
      'graph',
      'related',
      'daily-review',
      'review-changes',
    ]);
  } finally {
    await client.close().catch(() => {});
    child.kill();
  }
});

it('both protocol eras list the same prompts and get the same messages; 2026-07-28 lists carry cache hints', async () => {
  const [command, args] = binCommand();
  const open = (line: 'v1' | 'v2') =>
    connectStdioClient({ command, args, env: binEnv(home), cwd: home, name: `prompts-${line}`, line });
  const [legacy, modern] = await Promise.all([open('v1'), open('v2')]);
  try {
    const [old, current] = [await legacy.listPrompts(), await modern.listPrompts()];
    expect(current.prompts).toEqual(old.prompts);
    expect(current).toMatchObject({ ttlMs: 60_000, cacheScope: 'private' });
    expect(old).not.toHaveProperty('ttlMs');
    const args = { graph: 'Demo', page: 'Project Apollo' };
    expect((await get('graph', args, modern)).messages).toEqual((await get('graph', args, legacy)).messages);
  } finally {
    await Promise.all([legacy.close(), modern.close()]);
  }
});
