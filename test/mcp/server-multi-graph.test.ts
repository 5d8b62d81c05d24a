/**
 * Several graphs from ~/.roam-tools.json: resolution, per-graph tickets, offline
 * graphs, scopes, every token-exchange outcome with the token written back to the
 * file, a revoked token, and Roam moving to another port mid-session.
 */
import { readFile, stat } from 'node:fs/promises';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../emulator/index.ts';
import {
  errorOf,
  jsonOf,
  newToken,
  notesOf,
  textOf,
  type McpHandle,
  toolsConfigPath,
} from '../harness/mcp-bin.ts';
import { startStdioWorld, type StdioWorld } from '../harness/stdio-world.ts';

const WORK = newToken();
const PERSONAL = newToken();
let world: StdioWorld;
let home: string;
let configFile: string;
let emulator: Emulator;
let mcp: McpHandle;
const extraTokens: string[] = [];

interface FileGraph {
  name: string;
  token?: string;
  accessLevel?: string;
  [key: string]: unknown;
}
const readConfig = async () =>
  JSON.parse(await readFile(configFile, 'utf8')) as { graphs: FileGraph[]; [key: string]: unknown };
const entry = async (name: string) => (await readConfig()).graphs.find((g) => g.name === name)!;

beforeAll(async () => {
  world = await startStdioWorld({
    emulator: {
      tokenRequestTimeoutMs: 800,
      graphs: [
        { name: 'work-notes-2024', content: 'demo', tokens: [{ token: WORK, accessLevel: 'full' }] },
        {
          name: 'personal',
          type: 'offline',
          content: [{ title: 'Diary', children: ['private thought'] }],
          tokens: [{ token: PERSONAL, accessLevel: 'read-only' }],
        },
        { name: 'fresh', content: [{ title: 'roam/agent guidelines', children: ['Be kind'] }] },
        { name: 'rejecting' },
        { name: 'blocked' },
        { name: 'slow' },
        { name: 'busy' },
        { name: 'cancel-me' },
      ],
    },
    config: {
      text: JSON.stringify({
        version: 1,
        ui: { theme: 'kept' },
        graphs: [
          {
            name: 'work-notes-2024',
            nickname: 'Work',
            token: WORK,
            accessLevel: 'full',
            description: 'Work projects',
            custom: 1,
          },
          {
            name: 'personal',
            type: 'offline',
            nickname: 'Personal',
            token: PERSONAL,
            accessLevel: 'read-only',
          },
          { name: 'fresh', nickname: 'Fresh' },
          { name: 'rejecting' },
          { name: 'blocked' },
          { name: 'slow' },
          { name: 'busy' },
          { name: 'cancel-me' },
          { name: 'old', disabled: true, token: newToken() },
        ],
      }),
      mode: 0o600,
    },
  });
  ({ home, emulator, mcp } = world);
  configFile = toolsConfigPath(home);
});

afterAll(() => world?.close());

describe('graph resolution', () => {
  it('list_graphs shows enabled graphs by nickname, with descriptions, never tokens or types', async () => {
    const list = (await mcp.call('list_graphs')).structuredContent as {
      items: Array<Record<string, unknown>>;
      total: number;
    };
    expect(list.total).toBe(8);
    expect(list.items[0]).toEqual({
      nickname: 'Work',
      name: 'work-notes-2024',
      description: 'Work projects',
      selected: false,
      permissions: ['read', 'append', 'edit'],
    });
    expect(list.items.map((g) => g.nickname)).not.toContain('old');
    expect(JSON.stringify(list)).not.toMatch(/offline|hosted|token/);
  });

  it('without a selection, graph tools answer GRAPH_NOT_SELECTED with the graphs and the next tool', async () => {
    const error = errorOf(await mcp.call('get_page', { title: 'Project Apollo' }));
    expect(error).toMatchObject({ code: 'GRAPH_NOT_SELECTED', suggested_next_tool: 'select_graph' });
    expect(error.available_graphs).toContainEqual({ name: 'work-notes-2024', nickname: 'Work' });
    expect(errorOf(await mcp.call('current_graph')).code).toBe('GRAPH_NOT_SELECTED');
  });

  it('an explicit graph (any case) is used, becomes the selection, and offline graphs get ?type=offline', async () => {
    emulator.clearRequests();
    expect(textOf(await mcp.call('get_page', { title: 'Diary', graph: 'PERSONAL' }))).toContain(
      'private thought',
    );
    expect(emulator.requests.at(-1)).toMatchObject({ graph: 'personal', query: { type: 'offline' } });
    expect(jsonOf(await mcp.call('current_graph'))).toMatchObject({
      nickname: 'Personal',
      permissions: ['read'],
    });
    expect(textOf(await mcp.call('get_page', { title: 'Diary' }))).toContain('private thought');
    const error = errorOf(await mcp.call('get_page', { title: 'x', graph: 'nope' }));
    expect(error).toMatchObject({ code: 'GRAPH_NOT_FOUND' });
    expect(error.available_graphs).toHaveLength(8);
    expect(errorOf(await mcp.call('select_graph', { graph: 'old' }))).toMatchObject({
      code: 'GRAPH_SWITCHED_OFF',
      message: expect.stringMatching(/switched off .*roam-mcp connect --enable/),
    });
  });

  it('tickets are per graph; a graph set to read-only gets ACCESS_LEVEL with how to change it', async () => {
    const work = await mcp.call('select_graph', { graph: 'work' });
    expect(work.structuredContent).toMatchObject({
      nickname: 'Work',
      permissions: ['read', 'append', 'edit'],
    });
    const wrongGraph = errorOf(
      await mcp.call('create_block', { graph: 'Fresh', markdown: 'x', pageTitle: 'Diary' }),
    );
    expect(wrongGraph).toMatchObject({ code: 'GRAPH_TICKET_REQUIRED', graph: 'Fresh' });
    const personal = await mcp.call('select_graph', { graph: 'Personal' });
    expect(personal.structuredContent).toMatchObject({
      permissions: ['read'],
      guidelines: null,
      guidelines_hash: null,
    });
    const scope = errorOf(await mcp.call('create_block', { markdown: 'x', pageTitle: 'Diary' }));
    expect(scope.code).toBe('ACCESS_LEVEL');
    expect(scope.message).toMatch(/roam-mcp connect/);
    // Work keeps its ticket after switching away and back.
    expect(
      jsonOf(await mcp.call('create_block', { graph: 'Work', markdown: 'ok', pageTitle: 'Inbox' })),
    ).toMatchObject({
      created: 'blocks',
    });
  });
});

describe('token exchange', () => {
  it('selecting a graph without a token asks Roam (read-append by default), reports progress and a lower grant, saves the token (mode and rest kept)', async () => {
    emulator.clearRequests();
    emulator.decide('fresh', { kind: 'approve', accessLevel: 'read-only' });
    const progress: string[] = [];
    const result = await mcp.call('select_graph', { graph: 'Fresh' }, { progress });
    expect(result.structuredContent).toMatchObject({ nickname: 'Fresh', permissions: ['read'] });
    expect((result.structuredContent as { guidelines: string }).guidelines).toContain('Be kind');
    expect(progress.join(' ')).toMatch(/approve/i);
    expect(notesOf(result).join(' ')).toMatch(/read-only access, less than the read-append requested/);
    // The same note for a client that reads only structuredContent.
    expect((result.structuredContent as { notes?: string[] }).notes?.join(' ')).toMatch(
      /read-only access, less than the read-append requested/,
    );
    const request = emulator.requests.find((r) => r.path === '/api/graphs/tokens/request');
    expect(request?.body).toEqual({
      graph: 'fresh',
      graphType: 'hosted',
      description: 'roam-mcp (vitest-client)',
      accessLevel: 'read-append',
      ai: true,
    });
    const saved = await entry('fresh');
    expect(saved.token).toMatch(/^roam-graph-local-token-/);
    expect(saved.accessLevel).toBe('read-only');
    extraTokens.push(saved.token!);
    const file = await readConfig();
    expect(file.ui).toEqual({ theme: 'kept' });
    expect(await entry('work-notes-2024')).toMatchObject({ custom: 1, token: WORK });
    expect(await entry('old')).toMatchObject({ disabled: true });
    expect((await stat(configFile)).mode & 0o777).toBe(0o600);
    // The new token works for the next calls without asking again.
    await mcp.call('create_block', { markdown: 'appended', pageTitle: 'Log' });
    expect(emulator.requests.filter((r) => r.path === '/api/graphs/tokens/request')).toHaveLength(1);
  });

  it('USER_REJECTED says so, and a later retry is not blocked', async () => {
    emulator.decide('rejecting', { kind: 'reject' });
    const error = errorOf(await mcp.call('select_graph', { graph: 'rejecting' }));
    expect(error).toMatchObject({ code: 'USER_REJECTED', retryable: false });
    expect(error.message).toMatch(/declined/);
    emulator.decide('rejecting', { kind: 'approve' });
    expect(jsonOf(await mcp.call('select_graph', { graph: 'rejecting' }))).toMatchObject({
      nickname: 'rejecting',
    });
    extraTokens.push((await entry('rejecting')).token!);
  });

  it('GRAPH_BLOCKED, TIMEOUT and REQUEST_IN_PROGRESS each say what to do', async () => {
    emulator.decide('blocked', { kind: 'never-allow' });
    const blocked = errorOf(await mcp.call('select_graph', { graph: 'blocked' }));
    expect(blocked).toMatchObject({ code: 'GRAPH_BLOCKED', retryable: false });
    expect(blocked.message).toMatch(/unblock/);

    emulator.decide('slow', { kind: 'no-answer' });
    const timeout = errorOf(await mcp.call('select_graph', { graph: 'slow' }));
    expect(timeout).toMatchObject({ code: 'TIMEOUT', retryable: true });
    expect(timeout.message).toMatch(/5 minutes/);

    // Another tool already asked Roam for this graph.
    const other = http.request(`${emulator.url}/api/graphs/tokens/request`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
    });
    other.on('error', () => {});
    other.end(JSON.stringify({ graph: 'busy', description: 'other tool', accessLevel: 'read-only' }));
    await expect.poll(() => emulator.pendingTokenRequests().map((p) => p.graph)).toContain('busy');
    const busy = errorOf(await mcp.call('select_graph', { graph: 'busy' }));
    expect(busy).toMatchObject({ code: 'REQUEST_IN_PROGRESS', retryable: true });
    expect(busy.message).toMatch(/Answer that dialog/);
    emulator.decide('busy', { kind: 'reject' });
  });

  it('a client cancellation withdraws the request from Roam', async () => {
    const controller = new AbortController();
    const pending = mcp
      .call('select_graph', { graph: 'cancel-me' }, { signal: controller.signal })
      .catch((e: Error) => e);
    await expect.poll(() => emulator.pendingTokenRequests().map((p) => p.graph)).toContain('cancel-me');
    controller.abort();
    expect(await pending).toBeInstanceOf(Error);
    await expect.poll(() => emulator.pendingTokenRequests().map((p) => p.graph)).not.toContain('cancel-me');
    expect((await entry('cancel-me')).token).toBeUndefined();
  });

  it('a revoked token answers AUTH_FAILED; select_graph then gets and saves a new one', async () => {
    emulator.revokeToken(WORK);
    const error = errorOf(await mcp.call('get_page', { graph: 'Work', title: 'Project Apollo' }));
    expect(error).toMatchObject({ code: 'AUTH_FAILED', graph: 'Work', suggested_next_tool: 'select_graph' });
    emulator.decide('work-notes-2024', { kind: 'approve' });
    expect(jsonOf(await mcp.call('select_graph', { graph: 'Work' }))).toMatchObject({ nickname: 'Work' });
    const renewed = (await entry('work-notes-2024')).token!;
    expect(renewed).not.toBe(WORK);
    extraTokens.push(renewed);
    expect(textOf(await mcp.call('get_page', { title: 'Project Apollo' }))).toMatch(/^# Project Apollo/);
  });
});

describe('Roam restarts', () => {
  it('follows Roam to a new port mid-session', async () => {
    const before = emulator.port;
    await emulator.stop();
    await emulator.start();
    expect(emulator.port).not.toBe(before);
    expect(textOf(await mcp.call('get_page', { graph: 'Work', title: 'Project Apollo' }))).toMatch(
      /^# Project Apollo/,
    );
  });
});

it('never shows a token anywhere', () => {
  const transcript = mcp.transcript();
  for (const token of [WORK, PERSONAL, ...extraTokens]) {
    expect(transcript).not.toContain(token.slice(23));
  }
  expect(extraTokens).toHaveLength(3);
});
