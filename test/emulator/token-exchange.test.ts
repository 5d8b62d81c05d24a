import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { callAction, postJson } from './http-client.ts';
import { startEmulator } from './index.ts';
import type { Emulator } from './types.ts';
import { tempDir } from '../harness/temp-dir.ts';

let home: string;
let emulator: Emulator;
let quick: Emulator;

beforeAll(async () => {
  home = await tempDir('emulator-exchange-');
  const graphs = ['approve', 'downgrade', 'busy', 'cancel', 'never', 'reject', 'early', 'auto'].map(
    (name) => ({
      name,
    }),
  );
  emulator = await startEmulator({
    home,
    graphs: [
      ...graphs,
      { name: 'reader', userPermission: 'read-only' as const },
      { name: 'offline-notes', type: 'offline' as const },
    ],
  });
  const quickHome = path.join(home, 'quick');
  await mkdir(quickHome);
  quick = await startEmulator({
    home: quickHome,
    graphs: [{ name: 'slow' }],
    tokenRequestTimeoutMs: 150,
  });
});

afterAll(async () => {
  await emulator.close();
  await quick.close();
  await rm(home, { recursive: true, force: true });
});

const request = (target: Emulator, body: object, signal?: AbortSignal) =>
  postJson(target, '/api/graphs/tokens/request', body, signal ? { signal } : {});

const ask = (graph: string, accessLevel = 'full', extra: object = {}) => ({
  graph,
  description: 'emulator test',
  accessLevel,
  ai: true,
  ...extra,
});

async function pendingFor(target: Emulator, graph: string): Promise<void> {
  await vi.waitFor(() => expect(target.pendingTokenRequests().map((p) => p.graph)).toContain(graph));
}

describe('token request validation', () => {
  it.each([
    [{ description: 'd', accessLevel: 'full' }, 'Graph name is required'],
    [{ graph: 'approve', accessLevel: 'full' }, 'Description is required'],
    [
      { graph: 'approve', description: 'd' },
      'accessLevel is required. Valid options: read-only, read-append, full',
    ],
    [
      { graph: 'approve', description: 'd', accessLevel: 'admin' },
      'accessLevel is required. Valid options: read-only, read-append, full',
    ],
  ])('answers 400 VALIDATION_ERROR for %j', async (body, message) => {
    expect(await request(emulator, body)).toEqual({
      status: 400,
      body: { success: false, error: { code: 'VALIDATION_ERROR', message } },
    });
  });

  it('answers 500 for a graph that does not exist, naming it', async () => {
    const reply = await request(emulator, ask('no-such-graph'));
    expect(reply.status).toBe(500);
    expect(reply.body.error?.message).toContain("hosted graph 'no-such-graph'");
  });
});

describe('the user answers', () => {
  it('approve: a 52-character token that works with the granted scopes', async () => {
    const reply = request(emulator, ask('approve', 'read-append'));
    await pendingFor(emulator, 'approve');
    expect(emulator.pendingTokenRequests()).toEqual([
      { graph: 'approve', graphType: 'hosted', accessLevel: 'read-append', description: 'emulator test' },
    ]);
    emulator.decide('approve', { kind: 'approve' });
    const { status, body } = await reply;
    expect(status).toBe(200);
    expect(body).toEqual({
      success: true,
      token: expect.stringMatching(/^roam-graph-local-token-[A-Za-z0-9_-]{29}$/),
      graphName: 'approve',
      graphType: 'hosted',
      grantedAccessLevel: 'read-append',
      grantedScopes: { read: true, append: true },
    });
    const token = body.token as string;
    expect(token).toHaveLength(52);
    const create = await callAction(emulator, {
      graph: 'approve',
      token,
      action: 'data.page.create',
      args: [{ page: { title: 'Made by the new token' } }],
    });
    expect(create.status).toBe(200);
    const del = await callAction(emulator, {
      graph: 'approve',
      token,
      action: 'data.page.delete',
      args: [{ page: { uid: 'x' } }],
    });
    expect(del.body.error?.code).toBe('INSUFFICIENT_SCOPE');
    expect(emulator.pendingTokenRequests()).toEqual([]);
  });

  it('approve with a lower level, and a reader graph, both downgrade', async () => {
    const lowered = request(emulator, ask('downgrade', 'full'));
    await pendingFor(emulator, 'downgrade');
    emulator.decide('downgrade', { kind: 'approve', accessLevel: 'read-only' });
    expect((await lowered).body).toMatchObject({
      grantedAccessLevel: 'read-only',
      grantedScopes: { read: true },
    });

    const reader = request(emulator, ask('reader', 'full'));
    await pendingFor(emulator, 'reader');
    emulator.decide('reader', { kind: 'approve' });
    const { body } = await reader;
    expect(body).toMatchObject({ grantedAccessLevel: 'read-only', grantedScopes: { read: true } });
    const write = await callAction(emulator, {
      graph: 'reader',
      token: body.token as string,
      action: 'data.page.create',
      args: [{ page: { title: 'x' } }],
    });
    expect(write.body.error?.code).toBe('INSUFFICIENT_SCOPE');
  });

  it('reject: 403 USER_REJECTED', async () => {
    const reply = request(emulator, ask('reject'));
    await pendingFor(emulator, 'reject');
    emulator.decide('reject', { kind: 'reject' });
    expect(await reply).toEqual({
      status: 403,
      body: {
        success: false,
        error: { code: 'USER_REJECTED', message: 'Token request was rejected by the user' },
      },
    });
  });

  it('one request at a time per graph: 409 REQUEST_IN_PROGRESS, other graphs unaffected', async () => {
    const first = request(emulator, ask('busy'));
    await pendingFor(emulator, 'busy');
    const second = await request(emulator, ask('busy'));
    expect(second.status).toBe(409);
    expect(second.body.error?.code).toBe('REQUEST_IN_PROGRESS');
    emulator.decide('early', { kind: 'approve' });
    expect((await request(emulator, ask('early'))).status).toBe(200);
    emulator.decide('busy', { kind: 'approve' });
    expect((await first).status).toBe(200);
  });

  it('a decision given before the request answers it as soon as it arrives (offline graph too)', async () => {
    emulator.decide('offline-notes', { kind: 'approve' }, 'offline');
    const reply = await request(emulator, ask('offline-notes', 'full', { graphType: 'offline' }));
    expect(reply.body).toMatchObject({ success: true, graphName: 'offline-notes', graphType: 'offline' });
    const token = reply.body.token as string;
    expect(
      (await callAction(emulator, { graph: 'offline-notes', offline: true, token, action: 'graph.type' }))
        .body.result,
    ).toBe('offline');
  });

  it('autoDecide answers every request after its delay, until turned off', async () => {
    emulator.autoDecide({ kind: 'approve', accessLevel: 'read-append' }, 10);
    const reply = await request(emulator, ask('auto'));
    expect(reply.body.grantedAccessLevel).toBe('read-append');
    emulator.autoDecide(null);
    const waiting = request(emulator, ask('auto'));
    await pendingFor(emulator, 'auto');
    emulator.decide('auto', { kind: 'reject' });
    expect((await waiting).status).toBe(403);
  });

  it('never-allow blocks at once and for good, until unblock', async () => {
    const first = request(emulator, ask('never'));
    await pendingFor(emulator, 'never');
    emulator.decide('never', { kind: 'never-allow' });
    const blocked = {
      status: 403,
      body: {
        success: false,
        error: {
          code: 'GRAPH_BLOCKED',
          message: 'Token requests for this graph have been permanently blocked',
        },
      },
    };
    expect(await first).toEqual(blocked);
    expect(await request(emulator, ask('never'))).toEqual(blocked);
    expect(emulator.pendingTokenRequests()).toEqual([]);

    emulator.unblock('never');
    const retry = request(emulator, ask('never'));
    await pendingFor(emulator, 'never');
    emulator.decide('never', { kind: 'approve' });
    expect((await retry).status).toBe(200);
  });
});

describe('no answer, and clients that leave', () => {
  it('no answer: 408 TIMEOUT after tokenRequestTimeoutMs, then a retry can succeed', async () => {
    const reply = request(quick, ask('slow'));
    await pendingFor(quick, 'slow');
    quick.decide('slow', { kind: 'no-answer' });
    expect(await reply).toEqual({
      status: 408,
      body: {
        success: false,
        error: { code: 'TIMEOUT', message: 'Request timed out waiting for user response' },
      },
    });
    expect(quick.pendingTokenRequests()).toEqual([]);
    quick.decide('slow', { kind: 'approve' });
    expect((await request(quick, ask('slow'))).status).toBe(200);
  });

  it('a client that disconnects cancels its request, so the next one is not blocked by 409', async () => {
    const abort = new AbortController();
    const gone = request(emulator, ask('cancel'), abort.signal).catch((error: unknown) => error);
    await pendingFor(emulator, 'cancel');
    abort.abort();
    expect(await gone).toBeInstanceOf(Error);
    await vi.waitFor(() => expect(emulator.pendingTokenRequests()).toEqual([]));
    const recorded = emulator.requests.filter(
      (r) => (r.body as { graph?: string } | undefined)?.graph === 'cancel',
    );
    expect(recorded.map((r) => r.status)).toEqual([500]);

    const retry = request(emulator, ask('cancel'));
    await pendingFor(emulator, 'cancel');
    emulator.decide('cancel', { kind: 'approve' });
    expect((await retry).status).toBe(200);
  });
});
