/**
 * One graph from env vars (ROAM_GRAPH + ROAM_API_TOKEN): auto-select, every content tool,
 * graph tickets, truncation and pagination, Local API errors, stdout purity, no token leaks.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/index.ts';
import {
  binCommand,
  errorOf,
  jsonOf,
  newToken,
  removeHome,
  binEnv,
  startMcp,
  tempHome,
  textOf,
  type McpHandle,
} from '../harness/mcp-bin.ts';

const TOKEN = newToken();
let home: string;
let emulator: Emulator;
let mcp: McpHandle;

const page = (title: string) =>
  emulator.graph('demo').run('data.ai.getPage', [{ title }]) as { markdown: string } | null;
const writes = () => emulator.requests.filter((r) => r.action && /^data\.(block|page)\./.test(r.action));

beforeAll(async () => {
  home = await tempHome();
  emulator = await startEmulator({
    home,
    graphs: [{ name: 'demo', content: 'demo', tokens: [{ token: TOKEN, accessLevel: 'full' }] }],
  });
  mcp = await startMcp({
    home,
    env: { ROAM_GRAPH: 'demo', ROAM_API_TOKEN: TOKEN, ROAM_GRAPH_NICKNAME: 'Demo' },
  });
});

afterAll(async () => {
  await mcp?.close();
  await emulator?.close();
  await removeHome(home);
});

describe('the MCP surface', () => {
  it('lists every tool with a title, explicit readOnlyHint and truthful write hints, compactly', async () => {
    const { tools } = await mcp.client.listTools();
    const names = tools.map((t) => t.name);
    for (const name of [
      'list_graphs',
      'select_graph',
      'current_graph',
      'get_page',
      'get_block',
      'get_backlinks',
      'search',
      'search_templates',
      'datalog_query',
      'create_page',
      'create_block',
      'update_block',
      'move_block',
      'delete_block',
      'update_page',
      'delete_page',
    ]) {
      expect(names).toContain(name);
    }
    for (const tool of tools) {
      expect(tool.title, tool.name).toBeTruthy();
      expect(typeof tool.annotations?.readOnlyHint, tool.name).toBe('boolean');
      if (tool.annotations?.readOnlyHint === false) {
        expect(typeof tool.annotations.destructiveHint, tool.name).toBe('boolean');
        expect(typeof tool.annotations.idempotentHint, tool.name).toBe('boolean');
      }
      expect(tool.description!.length, tool.name).toBeLessThanOrEqual(200);
    }
    expect(tools.find((t) => t.name === 'delete_page')?.annotations).toMatchObject({ destructiveHint: true });
    expect(tools.find((t) => t.name === 'create_block')?.annotations).toMatchObject({
      destructiveHint: false,
      idempotentHint: false,
    });
    // Every graph tool takes the optional `graph` argument.
    expect(Object.keys(tools.find((t) => t.name === 'get_page')!.inputSchema.properties ?? {})).toContain(
      'graph',
    );
    expect(mcp.client.getInstructions()).toMatch(/select_graph/);
  });

  it('auto-selects the only graph: list_graphs and current_graph show it, without token or type', async () => {
    const list = await mcp.call('list_graphs');
    expect(list.structuredContent).toEqual({
      items: [{ nickname: 'Demo', name: 'demo', selected: true, permissions: 'unknown' }],
      total: 1,
      offset: 0,
      limit: 50,
    });
    expect(JSON.parse(textOf(list))).toEqual(list.structuredContent);
    const current = jsonOf(await mcp.call('current_graph'));
    expect(current).toMatchObject({ graph_name: 'demo', nickname: 'Demo', guidelines_seen: false });
    expect(Object.keys(current)).not.toContain('token');
    expect(Object.keys(current)).not.toContain('type');
    expect(JSON.stringify(current)).not.toMatch(/hosted/);
  });
});

describe('reading', () => {
  it('get_page by title and by uid returns markdown with uid tags; a missing page is NOT_FOUND', async () => {
    const byTitle = textOf(await mcp.call('get_page', { title: 'Project Apollo' }));
    // Roam's markdown first; newer builds' linked references follow it.
    expect(byTitle.startsWith(`${page('Project Apollo')!.markdown}\n\nLinked references (`)).toBe(true);
    expect(byTitle).toMatch(/<roam uid="apollo-pg"/);
    const shallow = emulator.graph('demo').run('data.ai.getPage', [{ uid: 'apollo-pg', maxDepth: 0 }]) as {
      markdown: string;
    };
    const byUid = textOf(await mcp.call('get_page', { uid: 'apollo-pg', maxDepth: 0 }));
    expect(byUid.startsWith(`${shallow.markdown}\n\nLinked references (`)).toBe(true);
    expect(errorOf(await mcp.call('get_page', { title: 'No Such Page' }))).toMatchObject({
      code: 'NOT_FOUND',
      suggested_next_tool: 'search',
    });
    expect(errorOf(await mcp.call('get_page', {}))).toMatchObject({ code: 'INVALID_PARAMS' });
  });

  it('get_block returns the block with its path', async () => {
    const text = textOf(await mcp.call('get_block', { uid: 'apollo-g1' }));
    expect(text).toMatch(/^Path: Project Apollo/);
    expect(text).toContain('<roam uid="apollo-g1"/>');
    expect(errorOf(await mcp.call('get_block', { uid: 'nope-nope' })).code).toBe('NOT_FOUND');
  });

  it('get_backlinks and search paginate with total and nextOffset', async () => {
    const all = emulator
      .graph('demo')
      .run('data.ai.getBacklinks', [{ title: 'Project Apollo', limit: 100 }]) as {
      total: number;
    };
    expect(all.total).toBeGreaterThan(2);
    const first = await mcp.call('get_backlinks', { title: 'Project Apollo', limit: 2 });
    const body = first.structuredContent as {
      items: Array<{ uid: string }>;
      total: number;
      nextOffset?: number;
    };
    expect(body.total).toBe(all.total);
    expect(body.items).toHaveLength(2);
    expect(body.nextOffset).toBe(2);
    const second = (await mcp.call('get_backlinks', { title: 'Project Apollo', limit: 2, offset: 2 }))
      .structuredContent as typeof body;
    expect(second.items[0]?.uid).not.toBe(body.items[0]?.uid);

    const search = (await mcp.call('search', { query: 'apollo', limit: 1 })).structuredContent as typeof body;
    expect(search.total).toBeGreaterThan(1);
    expect(search.items).toHaveLength(1);
    expect(search.nextOffset).toBe(1);
    const pagesOnly = (await mcp.call('search', { query: 'apollo', scope: 'pages' })).structuredContent as {
      items: Array<{ type: string }>;
    };
    expect(pagesOnly.items.every((r) => r.type === 'page')).toBe(true);
  });

  it('search_templates and datalog_query (with inputs, paginated)', async () => {
    const templates = (await mcp.call('search_templates', { query: 'meeting' })).structuredContent as {
      items: Array<{ name: string }>;
      total: number;
    };
    expect(templates.items.map((t) => t.name)).toEqual(['Meeting Notes']);
    expect(templates.total).toBe(1);

    const titles = jsonOf<{ items: unknown[]; total: number; nextOffset?: number }>(
      await mcp.call('datalog_query', { query: '[:find ?t :where [?p :node/title ?t]]', limit: 3 }),
    );
    expect(titles.items).toHaveLength(3);
    expect(titles.total).toBe(emulator.graph('demo').counts().pages);
    expect(titles.nextOffset).toBe(3);
    const uid = jsonOf<{ result: unknown }>(
      await mcp.call('datalog_query', {
        query: '[:find ?u . :in $ ?t :where [?p :node/title ?t] [?p :block/uid ?u]]',
        inputs: ['Project Apollo'],
      }),
    );
    expect(uid.result).toBe('apollo-pg');
  });

  it('cuts a huge page at 10,000 characters and each list item at 500', async () => {
    const long = Array.from({ length: 60 }, (_, i) => `- ${'word '.repeat(60)}${i}`).join('\n');
    emulator
      .graph('demo')
      .run('data.page.fromMarkdown', [{ page: { title: 'Huge Page' }, 'markdown-string': long }]);
    emulator
      .graph('demo')
      .run('data.page.fromMarkdown', [
        { page: { title: 'Long Block' }, 'markdown-string': `- needle ${'x'.repeat(2000)}` },
      ]);
    const text = textOf(await mcp.call('get_page', { title: 'Huge Page' }));
    expect(page('Huge Page')!.markdown.length).toBeGreaterThan(10_000);
    expect(text.length).toBeLessThanOrEqual(10_000);
    expect(text.endsWith('... [truncated]')).toBe(true);
    const hit = (await mcp.call('search', { query: 'needle', scope: 'blocks' })).structuredContent as {
      items: Array<{ markdown: string }>;
    };
    expect(hit.items[0]!.markdown.length).toBeLessThanOrEqual(500);
    expect(hit.items[0]!.markdown.endsWith('... [truncated]')).toBe(true);
  });
});

describe('writing', () => {
  it('refuses the first write before select_graph delivered the guidelines, and nothing reaches Roam', async () => {
    emulator.clearRequests();
    const error = errorOf(await mcp.call('create_block', { markdown: 'too early', pageTitle: 'Inbox' }));
    expect(error).toMatchObject({
      code: 'GRAPH_TICKET_REQUIRED',
      graph: 'Demo',
      suggested_next_tool: 'select_graph',
    });
    expect(emulator.requests).toHaveLength(0);
    expect(page('Inbox')).toBeNull();
    await mcp.call('select_graph', { graph: 'Demo' });
    await mcp.call('create_block', { markdown: 'now allowed', pageTitle: 'Inbox' });
    expect(writes().map((r) => r.action)).toEqual(['data.block.fromMarkdown']);
  });

  it('select_graph returns guidelines, their sha256 and permissions', async () => {
    const { guidelines } = emulator.graph('demo').run('data.ai.getGraphGuidelines', []) as {
      guidelines: string;
    };
    const result = await mcp.call('select_graph', { graph: 'demo' });
    expect(result.structuredContent).toMatchObject({
      graph_name: 'demo',
      nickname: 'Demo',
      guidelines,
      guidelines_hash: `sha256:${createHash('sha256').update(guidelines).digest('hex')}`,
      // Not in the env config: learned from Roam's token introspection.
      permissions: ['read', 'append', 'edit'],
    });
    expect(jsonOf(await mcp.call('current_graph'))).toMatchObject({ guidelines_seen: true });
  });

  it('create_page, create_block (page title, parent uid, daily note), update, move, delete', async () => {
    const created = jsonOf<{ uid: string }>(
      await mcp.call('create_page', { title: 'Field Notes', markdown: '- one\n  - two' }),
    );
    expect(page('Field Notes')!.markdown).toMatch(/- one <roam uid="[^"]+"\/>\n {2}- two/);
    expect(errorOf(await mcp.call('create_page', { title: 'Field Notes' })).code).toBe('PAGE_EXISTS');
    const bare = jsonOf<{ uid: string }>(await mcp.call('create_page', { title: 'Empty Page' }));
    expect(page('Empty Page')).not.toBeNull();

    await mcp.call('create_block', { markdown: 'first in inbox', pageTitle: 'Inbox' });
    expect(page('Inbox')!.markdown).toContain('now allowed');
    expect(page('Inbox')!.markdown).toContain('first in inbox');
    await mcp.call('create_block', { markdown: 'under one', parentUid: created.uid, order: 'first' });
    expect(page('Field Notes')!.markdown.split('\n')[2]).toContain('under one');
    const daily = jsonOf<{ parentUid: string }>(
      await mcp.call('create_block', { markdown: 'daily entry', dailyNotePage: '2026-03-04' }),
    );
    expect(daily.parentUid).toBe('03-04-2026');
    expect(page('March 4th, 2026')!.markdown).toContain('daily entry');

    const blockUid = /first in inbox <roam uid="([^"]+)"/.exec(page('Inbox')!.markdown)![1]!;
    await mcp.call('update_block', { uid: blockUid, string: 'edited in inbox', heading: 2 });
    expect(page('Inbox')!.markdown).toContain('edited in inbox');
    await mcp.call('move_block', { uid: blockUid, parentUid: bare.uid });
    expect(page('Empty Page')!.markdown).toContain('edited in inbox');
    expect(page('Inbox')!.markdown).not.toContain('edited in inbox');
    await mcp.call('delete_block', { uid: blockUid });
    expect(page('Empty Page')!.markdown).not.toContain('edited in inbox');
    await mcp.call('update_page', { uid: bare.uid, title: 'Renamed Page' });
    expect(page('Renamed Page')).not.toBeNull();
    await mcp.call('delete_page', { uid: bare.uid });
    expect(page('Renamed Page')).toBeNull();
  });

  it('names the bad field on invalid arguments instead of failing the protocol', async () => {
    expect(errorOf(await mcp.call('search', { query: 42 }))).toMatchObject({
      code: 'INVALID_PARAMS',
      field: 'query',
    });
    expect(errorOf(await mcp.call('get_page', { title: 'x', parent_uid: 'y' }))).toMatchObject({
      code: 'INVALID_PARAMS',
      field: 'parent_uid',
    });
    expect(errorOf(await mcp.call('create_block', { markdown: 'x' }))).toMatchObject({
      code: 'INVALID_PARAMS',
    });
    expect(
      errorOf(await mcp.call('create_block', { markdown: 'x', parentUid: 'a', pageTitle: 'b' })),
    ).toMatchObject({
      code: 'INVALID_PARAMS',
    });
    expect(errorOf(await mcp.call('update_block', { uid: 'apollo-g1' }))).toMatchObject({
      code: 'INVALID_PARAMS',
    });
    expect(errorOf(await mcp.call('no_such_tool'))).toMatchObject({ code: 'UNKNOWN_TOOL' });
  });
});

describe('Local API failures become actionable tool errors', () => {
  it.each([
    [{ kind: 'status', status: 500 } as const, 'ROAM_INTERNAL_ERROR'],
    [{ kind: 'status', status: 504 } as const, 'GRAPH_LOADING_TIMEOUT'],
    [{ kind: 'malformed-json' } as const, 'ROAM_PROTOCOL_ERROR'],
  ])('%o → %s', async (fault, code) => {
    emulator.setFault(fault, { action: 'data.ai.getPage', times: 1 });
    const error = errorOf(await mcp.call('get_page', { title: 'Project Apollo' }));
    expect(error.code).toBe(code);
    expect(error.message.length).toBeGreaterThan(40);
    // The fault was one-off: the same call works again.
    expect(textOf(await mcp.call('get_page', { title: 'Project Apollo' }))).toMatch(/^# Project Apollo/);
  });

  it('a dropped connection on a write says it may or may not have been applied', async () => {
    emulator.setFault({ kind: 'drop' }, { action: 'data.block.update', times: 1 });
    const error = errorOf(await mcp.call('update_block', { uid: 'apollo-g1', string: 'x' }));
    expect(error.code).toBe('CONNECTION_LOST');
    expect(error.message).toMatch(/may or may not/);
  });

  it('SCOPE_EXCEEDS_PERMISSION and a corrupted token file', async () => {
    emulator.setUserPermission('demo', 'hosted', 'read-only');
    expect(errorOf(await mcp.call('update_block', { uid: 'apollo-g1', string: 'y' })).code).toBe(
      'SCOPE_EXCEEDS_PERMISSION',
    );
    emulator.setUserPermission('demo', 'hosted', 'full');
    emulator.setTokenFileCorrupted(true);
    const error = errorOf(await mcp.call('get_page', { title: 'Project Apollo' }));
    emulator.setTokenFileCorrupted(false);
    expect(error.code).toBe('ROAM_INTERNAL_ERROR');
    expect(error.message).toMatch(/local-api-tokens\.edn/);
  });
});

describe('hygiene', () => {
  it('stdout carries only JSON-RPC, even for errors and bad input', async () => {
    const child = spawn(...binCommand(), {
      env: binEnv(home, { ROAM_GRAPH: 'demo', ROAM_API_TOKEN: TOKEN }),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'get_page', arguments: { title: 'Project Apollo' } },
    });
    send({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'get_page', arguments: { nope: 1 } },
    });
    send({
      jsonrpc: '2.0',
      id: 4,
      method: 'tools/call',
      params: { name: 'create_block', arguments: { markdown: 'x', pageTitle: 'y' } },
    });
    send({ jsonrpc: '2.0', id: 5, method: 'no/such/method' });
    await expect.poll(() => stdout.split('\n').filter(Boolean).length, { timeout: 10_000 }).toBe(5);
    child.kill();
    for (const line of stdout.split('\n').filter(Boolean)) {
      expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    }
  });

  it('never shows the token: not in results, notifications or stderr', () => {
    expect(mcp.transcript().length).toBeGreaterThan(1000);
    expect(mcp.transcript()).not.toContain(TOKEN);
    expect(mcp.transcript()).not.toContain(TOKEN.slice(23));
  });
});
