import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { callAction, postJson } from './http-client.ts';
import { startEmulator } from './index.ts';
import type { Emulator } from './types.ts';
import { tempDir } from '../harness/temp-dir.ts';

const WORK_FULL = 'roam-graph-local-token-workFULLworkFULLworkFULL12';
const WORK_READ = 'roam-graph-local-token-workREADworkREADworkREAD12';
const WORK_APPEND = 'roam-graph-local-token-workAPPNworkAPPNworkAPPN12';
const NOTES_OFFLINE = 'roam-graph-local-token-notesOFFLnotesOFFLnotesOF1';

let home: string;
let emulator: Emulator;

beforeAll(async () => {
  home = await tempDir('emulator-auth-');
  emulator = await startEmulator({
    home,
    graphs: [
      {
        name: 'work',
        content: 'demo',
        tokens: [
          { token: WORK_FULL, accessLevel: 'full' },
          { token: WORK_READ, accessLevel: 'read-only' },
          { token: WORK_APPEND, accessLevel: 'read-append' },
        ],
      },
      { name: 'notes', type: 'offline', tokens: [{ token: NOTES_OFFLINE, accessLevel: 'full' }] },
      { name: 'notes', type: 'hosted' },
      { name: 'team', userPermission: 'read-only' },
    ],
  });
});

afterAll(async () => {
  await emulator.close();
  await rm(home, { recursive: true, force: true });
});

beforeEach(() => {
  emulator.setTokenFileCorrupted(false);
  emulator.clearRequests();
});

const guidelines = { action: 'data.ai.getGraphGuidelines', args: [{}] };

describe('authentication outcomes', () => {
  it('accepts a valid token and answers with success, result and apiVersion', async () => {
    const reply = await callAction(emulator, { graph: 'work', token: WORK_READ, ...guidelines });
    expect(reply.status).toBe(200);
    expect(reply.body.success).toBe(true);
    expect(reply.body.apiVersion).toBe('1.1.5');
    expect((reply.body.result as { guidelines: string }).guidelines).toContain('# roam/agent guidelines');
  });

  it.each([
    [
      'no Authorization header',
      undefined,
      'MISSING_TOKEN',
      'Authorization header with Bearer token is required',
    ],
    ['an unknown prefix', 'sk-abcdef', 'INVALID_TOKEN_FORMAT', 'Invalid token format'],
    [
      'a remote API token',
      'roam-graph-token-abcdefabcdefabcdefabcdef',
      'INVALID_TOKEN_FORMAT',
      'This endpoint requires a local API token',
    ],
    [
      'a token of another graph',
      NOTES_OFFLINE,
      'TOKEN_NOT_FOUND',
      "Token not valid for this graph. Check that you're using the correct token for this graph.",
    ],
    [
      'an unknown local token',
      'roam-graph-local-token-unknownunknownunknownunkno',
      'TOKEN_NOT_FOUND',
      "Token not valid for this graph. Check that you're using the correct token for this graph.",
    ],
  ])('rejects %s with 401, its code and apiVersion', async (_label, token, code, message) => {
    const reply = await callAction(emulator, { graph: 'work', ...(token ? { token } : {}), ...guidelines });
    expect(reply.status).toBe(401);
    expect(reply.body).toEqual({ success: false, error: { code, message }, apiVersion: '1.1.5' });
  });

  it('says which type a token belongs to, in both directions', async () => {
    const hosted = await callAction(emulator, { graph: 'notes', token: NOTES_OFFLINE, ...guidelines });
    expect(hosted.status).toBe(401);
    expect(hosted.body.error?.code).toBe('WRONG_GRAPH_TYPE');
    expect(hosted.body.error?.message).toBe(
      "Token is valid for offline graph 'notes', not hosted. Add ?type=offline to your request URL.",
    );
    const offline = await callAction(emulator, {
      graph: 'work',
      offline: true,
      token: WORK_FULL,
      ...guidelines,
    });
    expect(offline.status).toBe(401);
    expect(offline.body.error?.message).toBe(
      "Token is valid for hosted graph 'work', not offline. Remove ?type=offline from your request URL.",
    );
    const ok = await callAction(emulator, {
      graph: 'notes',
      offline: true,
      token: NOTES_OFFLINE,
      ...guidelines,
    });
    expect(ok.status).toBe(200);
  });

  it('says "not recognized" for a graph without tokens and for an unknown graph', async () => {
    for (const graph of ['team', 'no-such-graph']) {
      const reply = await callAction(emulator, { graph, token: WORK_FULL, ...guidelines });
      expect(reply.status).toBe(401);
      expect(reply.body.error?.message).toBe(
        `Token not recognized for hosted graph '${graph}'. Check that the graph name is correct and create a token in Settings > Graph > Local API Tokens.`,
      );
    }
  });

  it('answers 500 while the token file is corrupted, and recovers', async () => {
    emulator.setTokenFileCorrupted(true);
    const broken = await callAction(emulator, { graph: 'work', token: WORK_FULL, ...guidelines });
    expect(broken.status).toBe(500);
    expect(broken.body.error?.message).toBe('Token file corrupted. Check local-api-tokens.edn');
    expect(broken.body.error?.code).toBe('TOKEN_FILE_CORRUPTED');
    emulator.setTokenFileCorrupted(false);
    expect((await callAction(emulator, { graph: 'work', token: WORK_FULL, ...guidelines })).status).toBe(200);
  });

  it('stops accepting a revoked token, and tokens/info reports it as invalid', async () => {
    const token = emulator.addToken('work', 'hosted', 'read-append');
    expect(token).toMatch(/^roam-graph-local-token-[A-Za-z0-9_-]{29}$/);
    const info = await postJson(
      emulator,
      '/api/graphs/tokens/info',
      {},
      { headers: { Authorization: `Bearer ${token}` } },
    );
    expect(info).toEqual({
      status: 200,
      body: {
        success: true,
        graphName: 'work',
        graphType: 'hosted',
        accessLevel: 'read-append',
        scopes: { read: true, append: true },
      },
    });
    emulator.revokeToken(token);
    expect((await callAction(emulator, { graph: 'work', token, ...guidelines })).status).toBe(401);
    const after = await postJson(
      emulator,
      '/api/graphs/tokens/info',
      {},
      { headers: { Authorization: `Bearer ${token}` } },
    );
    expect(after).toEqual({
      status: 401,
      body: { success: false, error: { code: 'TOKEN_NOT_FOUND', message: 'Invalid or expired token' } },
    });
    const none = await postJson(emulator, '/api/graphs/tokens/info', {});
    expect(none.body.error?.message).toBe('Authorization header with Bearer token is required');
  });
});

describe('scopes, permissions, versions and actions', () => {
  const create = {
    action: 'data.block.create',
    args: [{ location: { 'page-title': 'Scratch', order: 'last' }, block: { string: 'hello' } }],
  };
  const update = {
    action: 'data.block.update',
    args: [{ block: { uid: 'apollo-st', string: 'status:: paused' } }],
  };

  it('refuses writes beyond the token scope with INSUFFICIENT_SCOPE', async () => {
    const readOnly = await callAction(emulator, { graph: 'work', token: WORK_READ, ...create });
    expect(readOnly.status).toBe(403);
    expect(readOnly.body.error).toEqual({
      code: 'INSUFFICIENT_SCOPE',
      message: 'Token does not have permission for this action. Your token can only be used for read only.',
    });
    const append = await callAction(emulator, { graph: 'work', token: WORK_APPEND, ...update });
    expect(append.status).toBe(403);
    expect(append.body.error?.message).toBe(
      'Token does not have permission for this action. Your token can only be used for read + append.',
    );
    expect((await callAction(emulator, { graph: 'work', token: WORK_APPEND, ...create })).status).toBe(200);
  });

  it('refuses actions beyond the user permission with SCOPE_EXCEEDS_PERMISSION, reads still work', async () => {
    const token = emulator.addToken('team', 'hosted', 'full');
    const write = await callAction(emulator, { graph: 'team', token, ...create });
    expect(write.status).toBe(403);
    expect(write.body.error).toEqual({
      code: 'SCOPE_EXCEEDS_PERMISSION',
      message:
        'You do not have sufficient permission for this action. This requires higher permission than the logged in user has.',
    });
    expect((await callAction(emulator, { graph: 'team', token, ...guidelines })).status).toBe(200);
    emulator.setUserPermission('team', 'hosted', 'full');
    expect((await callAction(emulator, { graph: 'team', token, ...create })).status).toBe(200);
  });

  it('answers VERSION_MISMATCH when major.minor differs, ignoring the patch, with both versions', async () => {
    const ask = (expectedApiVersion: unknown) =>
      callAction(emulator, { graph: 'work', token: WORK_READ, ...guidelines, extra: { expectedApiVersion } });
    for (const other of ['1.0.9', '1.2.0', '0.0.9', '2.1.5']) {
      const reply = await ask(other);
      expect(reply.status, other).toBe(400);
      expect(reply.body.error?.code).toBe('VERSION_MISMATCH');
      expect(reply.body.error?.message).toMatch(/^API version mismatch/);
      expect(reply.body.apiVersion).toBe('1.1.5');
      expect(reply.body.expectedApiVersion).toBe(other);
    }
    for (const same of ['1.1.5', '1.1.0', '1.1.99', 1.1])
      expect((await ask(same)).status, String(same)).toBe(200);
  });

  it('stamps apiVersion on error answers too', async () => {
    const reply = await callAction(emulator, {
      graph: 'work',
      token: WORK_READ,
      action: 'data.nope',
      args: [],
    });
    expect(reply.status).toBe(404);
    expect(reply.body.apiVersion).toBe('1.1.5');
  });

  it('answers UNKNOWN_ACTION for actions it does not know, including semanticSearch when off', async () => {
    for (const action of ['data.nonexistent.action', 'data.ai.semanticSearch']) {
      const reply = await callAction(emulator, {
        graph: 'work',
        token: WORK_READ,
        action,
        args: [{ query: 'x' }],
      });
      expect(reply.status).toBe(404);
      expect(reply.body.error).toEqual({
        code: 'UNKNOWN_ACTION',
        message: `API action not found: ${action}`,
      });
      expect(reply.body.apiVersion).toBe('1.1.5');
    }
  });

  it('turns a failing action into 500 with a message naming the problem', async () => {
    const reply = await callAction(emulator, {
      graph: 'work',
      token: WORK_FULL,
      action: 'data.block.update',
      args: [{ block: { uid: 'missing-uid', string: 'x' } }],
    });
    expect(reply.status).toBe(500);
    expect(reply.body.error?.message).toBe(
      `data.block.update: no block or page with uid "missing-uid" exists in graph 'work'.`,
    );
  });

  it('answers 400 with guidance for a body that is not JSON or lacks an action', async () => {
    const garbage = await postJson(emulator, '/api/work', '{"action": "data.q", ', {
      headers: { Authorization: `Bearer ${WORK_READ}` },
    });
    expect(garbage.status).toBe(400);
    expect(garbage.body.error?.message).toMatch(/not valid JSON.*Send a JSON object/);
    const noAction = await postJson(
      emulator,
      '/api/work',
      { args: [] },
      { headers: { Authorization: `Bearer ${WORK_READ}` } },
    );
    expect(noAction.status).toBe(400);
    expect(noAction.body.error?.message).toContain('"action"');
  });
});

describe('discovery, CORS and recording', () => {
  it('lists available graphs, and as open the graphs touched since start', async () => {
    const available = await (await fetch(`${emulator.url}/api/graphs/available`)).json();
    expect(available).toEqual({
      success: true,
      result: [
        { name: 'work', type: 'hosted' },
        { name: 'notes', type: 'offline' },
        { name: 'notes', type: 'hosted' },
        { name: 'team', type: 'hosted' },
      ],
    });
    await callAction(emulator, { graph: 'notes', offline: true, token: NOTES_OFFLINE, ...guidelines });
    const response = await fetch(`${emulator.url}/api/graphs/open`);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const open = (await response.json()) as { result: unknown[] };
    expect(open.result).toContainEqual({ name: 'notes', type: 'offline' });
    expect(open.result).not.toContainEqual({ name: 'notes', type: 'hosted' });
  });

  it('records every request with headers as sent, parsed body, graph, action and status', async () => {
    await callAction(emulator, { graph: 'notes', offline: true, token: NOTES_OFFLINE, ...guidelines });
    expect(emulator.requests).toEqual([
      {
        method: 'POST',
        path: '/api/notes',
        query: { type: 'offline' },
        headers: expect.objectContaining({ authorization: `Bearer ${NOTES_OFFLINE}` }),
        body: { action: 'data.ai.getGraphGuidelines', args: [{}] },
        graph: 'notes',
        action: 'data.ai.getGraphGuidelines',
        status: 200,
      },
    ]);
    emulator.clearRequests();
    expect(emulator.requests).toEqual([]);
  });
});
