import { rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  LocalApiClient,
  LocalApiError,
  errorFromResponse,
  readPort,
  scrubTokens,
} from '../../../src-shared/local-api/index.ts';
import { tempDir } from '../../harness/temp-dir.ts';

// A stand-in for Roam's HTTP server: each test scripts the answer; requests are recorded.
interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}
let answer: (seen: Seen, res: http.ServerResponse) => void;
const seen: Seen[] = [];
let server: http.Server;
let home: string;
const TOKEN = 'roam-graph-local-token-AAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

function reply(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

async function listen(s: http.Server, port = 0): Promise<number> {
  await new Promise<void>((resolve) => s.listen(port, '127.0.0.1', resolve));
  return (s.address() as AddressInfo).port;
}

beforeAll(async () => {
  home = await tempDir('local-api-');
  server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const s = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: raw ? JSON.parse(raw) : undefined,
      };
      seen.push(s);
      answer(s, res);
    });
  });
  const port = await listen(server);
  await writeFile(path.join(home, '.roam-local-api.json'), JSON.stringify({ port, 'last-graph': 'ignored' }));
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await rm(home, { recursive: true, force: true });
});
beforeEach(() => {
  seen.length = 0;
  answer = (_s, res) => reply(res, 200, { success: true, result: null });
});

describe('port file', () => {
  it('reads the port and falls back to 3333 when the file is missing or broken', async () => {
    expect(await readPort(home)).toBe((server.address() as AddressInfo).port);
    const other = await tempDir('local-api-none-');
    expect(await readPort(other)).toBe(3333);
    await writeFile(path.join(other, '.roam-local-api.json'), '{"port": ');
    expect(await readPort(other)).toBe(3333);
    await rm(other, { recursive: true, force: true });
  });
});

describe('call', () => {
  it('posts the action with the bearer token and ?type=offline for offline graphs', async () => {
    answer = (_s, res) => reply(res, 200, { success: true, result: { markdown: '# Hi' } });
    const client = new LocalApiClient({ home });
    const result = await client.call({ name: 'my graph', type: 'offline', token: TOKEN }, 'data.ai.getPage', [
      { title: 'Hi' },
    ]);
    expect(result).toEqual({ markdown: '# Hi' });
    expect(seen[0]?.url).toBe('/api/my%20graph?type=offline');
    expect(seen[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(seen[0]?.body).toEqual({
      action: 'data.ai.getPage',
      args: [{ title: 'Hi' }],
      expectedApiVersion: '1.1.5',
    });
    await client.call({ name: 'g', type: 'hosted', token: TOKEN }, 'data.q', [
      '[:find ?e :where [?e :node/title]]',
    ]);
    expect(seen[1]?.url).toBe('/api/g');
  });

  it.each([
    [401, { success: false, error: { message: 'Invalid or expired token' } }, 'auth', 'UNAUTHORIZED'],
    [
      403,
      { success: false, error: { code: 'INSUFFICIENT_SCOPE', message: 'nope' } },
      'scope',
      'INSUFFICIENT_SCOPE',
    ],
    [
      403,
      { success: false, error: { code: 'SCOPE_EXCEEDS_PERMISSION', message: 'no' } },
      'permission',
      'SCOPE_EXCEEDS_PERMISSION',
    ],
    [
      400,
      { success: false, error: { code: 'VERSION_MISMATCH', message: 'API version mismatch' } },
      'version',
      'VERSION_MISMATCH',
    ],
    [
      404,
      { success: false, error: { code: 'UNKNOWN_ACTION', message: 'API action not found: x' } },
      'unknown-action',
      'UNKNOWN_ACTION',
    ],
    [
      500,
      { success: false, error: { message: 'Token file corrupted. Check local-api-tokens.edn' } },
      'internal',
      'TOKEN_FILE_CORRUPTED',
    ],
    [500, { success: false, error: { message: 'Block not found' } }, 'internal', 'INTERNAL_ERROR'],
    [
      504,
      { success: false, error: { message: 'Graph loading timed out' } },
      'graph-loading',
      'GRAPH_LOADING_TIMEOUT',
    ],
    [
      403,
      { success: false, error: 'Local API is disabled. Enable it in Settings menu.' },
      'disabled',
      'LOCAL_API_DISABLED',
    ],
  ] as const)('maps HTTP %i to a LocalApiError of kind %s', async (status, body, kind, code) => {
    answer = (_s, res) => reply(res, status, body);
    const error = await new LocalApiClient({ home })
      .call({ name: 'g', type: 'hosted', token: TOKEN }, 'data.q', [])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LocalApiError);
    expect(error).toMatchObject({ status, kind, code });
    expect((error as Error).message.length).toBeGreaterThan(20);
  });

  it.each([
    ['1.2.0', /Update roam-mcp \(the MCP server\)/],
    ['2.0.0', /Update roam-mcp \(the MCP server\)/],
    ['1.0.9', /Update Roam Desktop to its latest version/],
    ['0.0.9', /Update Roam Desktop to its latest version/],
  ])('on VERSION_MISMATCH from a Roam speaking %s, says which side to update', async (roam, advice) => {
    answer = (_s, res) =>
      reply(res, 400, {
        success: false,
        error: { code: 'VERSION_MISMATCH', message: 'API version mismatch' },
        apiVersion: roam,
        expectedApiVersion: '1.1.5',
      });
    const error = (await new LocalApiClient({ home })
      .call({ name: 'g', type: 'hosted', token: TOKEN }, 'data.q')
      .catch((e: unknown) => e)) as LocalApiError;
    expect(error.kind).toBe('version');
    expect(error.message).toMatch(advice);
    expect(error.message).toContain(`Roam Desktop speaks Local API ${roam}; this roam-mcp speaks 1.1.5`);
    expect(error.apiVersion).toBe(roam);
  });

  it('on UNKNOWN_ACTION names the action, the build that answered and tells to update Roam Desktop', async () => {
    answer = (_s, res) =>
      reply(res, 404, {
        success: false,
        error: { code: 'UNKNOWN_ACTION', message: 'API action not found: data.ai.suggestLinks' },
        apiVersion: '1.1.2',
      });
    const error = (await new LocalApiClient({ home })
      .call({ name: 'g', type: 'hosted', token: TOKEN }, 'data.ai.suggestLinks', [{ text: 'x' }])
      .catch((e: unknown) => e)) as LocalApiError;
    expect(error.code).toBe('UNKNOWN_ACTION');
    expect(error.action).toBe('data.ai.suggestLinks');
    expect(error.message).toBe(
      'API action not found: data.ai.suggestLinks. This Roam Desktop (Local API 1.1.2) does not offer action data.ai.suggestLinks: update Roam Desktop to its latest version.',
    );
  });

  it.each([
    ['MISSING_TOKEN', /No token was sent/],
    ['INVALID_TOKEN_FORMAT', /not a Roam Local API token/],
    ['WRONG_GRAPH_TYPE', /other kind of graph \(hosted or offline\)/],
    ['TOKEN_NOT_FOUND', /revoked or belong to another graph/],
  ])('gives advice for the 401 code %s', async (code, advice) => {
    answer = (_s, res) => reply(res, 401, { success: false, error: { code, message: 'rejected' } });
    const error = (await new LocalApiClient({ home })
      .call({ name: 'g', type: 'hosted', token: TOKEN }, 'data.q')
      .catch((e: unknown) => e)) as LocalApiError;
    expect(error.kind).toBe('auth');
    expect(error.code).toBe(code);
    expect(error.message).toMatch(advice);
  });

  it('reports malformed JSON as a protocol error', async () => {
    answer = (_s, res) => res.writeHead(200).end('{"success": tr');
    await expect(
      new LocalApiClient({ home }).call({ name: 'g', type: 'hosted', token: TOKEN }, 'data.q'),
    ).rejects.toMatchObject({ kind: 'protocol' });
  });

  it('re-reads the port file after a refused connection and follows Roam to its new port', async () => {
    const client = new LocalApiClient({ home });
    await client.call({ name: 'g', type: 'hosted', token: TOKEN }, 'data.q');
    // Roam restarts elsewhere: the old port refuses, the file names the new one.
    const moved = http.createServer((_req, res) => reply(res, 200, { success: true, result: 'moved' }));
    const newPort = await listen(moved);
    const oldPort = (server.address() as AddressInfo).port;
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await writeFile(path.join(home, '.roam-local-api.json'), JSON.stringify({ port: newPort }));
    try {
      expect(await client.call({ name: 'g', type: 'hosted', token: TOKEN }, 'data.q')).toBe('moved');
    } finally {
      moved.closeAllConnections();
      await new Promise((r) => moved.close(r));
      await listen(server, oldPort);
      await writeFile(path.join(home, '.roam-local-api.json'), JSON.stringify({ port: oldPort }));
    }
    // Nothing listens at all: not-running, with what to do.
    const empty = await tempDir('local-api-down-');
    const probe = http.createServer();
    const deadPort = await listen(probe);
    await new Promise((r) => probe.close(r));
    await writeFile(path.join(empty, '.roam-local-api.json'), JSON.stringify({ port: deadPort }));
    await expect(
      new LocalApiClient({ home: empty }).call({ name: 'g', type: 'hosted', token: TOKEN }, 'data.q'),
    ).rejects.toMatchObject({ kind: 'not-running', message: expect.stringMatching(/Open Roam Desktop/) });
    await rm(empty, { recursive: true, force: true });
  });

  it('never times out by itself but stops when the signal aborts', async () => {
    answer = () => {}; // Roam holds the request (graph loading)
    const controller = new AbortController();
    const pending = new LocalApiClient({ home })
      .call({ name: 'g', type: 'hosted', token: TOKEN }, 'data.q', [], { signal: controller.signal })
      .catch((e: unknown) => e);
    await expect.poll(() => seen.length).toBe(1);
    controller.abort();
    expect(await pending).toMatchObject({ kind: 'cancelled' });
  });
});

describe('token exchange', () => {
  it('sends ai: true, no deviceName, and returns the grant', async () => {
    answer = (_s, res) =>
      reply(res, 200, {
        success: true,
        token: TOKEN,
        graphName: 'g',
        graphType: 'hosted',
        grantedAccessLevel: 'read-only',
        grantedScopes: { read: true },
      });
    const grant = await new LocalApiClient({ home }).requestToken({
      graph: 'g',
      graphType: 'hosted',
      description: 'roam-mcp (test)',
      accessLevel: 'full',
    });
    expect(seen[0]?.url).toBe('/api/graphs/tokens/request');
    expect(seen[0]?.body).toEqual({
      graph: 'g',
      graphType: 'hosted',
      description: 'roam-mcp (test)',
      accessLevel: 'full',
      ai: true,
    });
    expect(seen[0]?.headers.authorization).toBeUndefined();
    expect(grant).toEqual({
      token: TOKEN,
      grantedAccessLevel: 'read-only',
      grantedScopes: { read: true, append: false, edit: false },
    });
  });

  it.each(['USER_REJECTED', 'GRAPH_BLOCKED', 'REQUEST_IN_PROGRESS', 'TIMEOUT', 'CANCELLED'])(
    'maps %s to kind exchange with its own guidance',
    async (code) => {
      answer = (_s, res) =>
        reply(res, code === 'TIMEOUT' ? 408 : 403, { success: false, error: { code, message: 'x' } });
      const error = (await new LocalApiClient({ home })
        .requestToken({ graph: 'g', graphType: 'hosted', description: 'd', accessLevel: 'full' })
        .catch((e: unknown) => e)) as LocalApiError;
      expect(error).toMatchObject({ kind: 'exchange', code });
      expect(error.message).not.toBe(
        errorFromResponse(403, { error: { code: 'OTHER', message: 'x' } }).message,
      );
    },
  );

  it('tokenInfo: 404 on real Roam means unknown, 401 invalid', async () => {
    const client = new LocalApiClient({ home });
    answer = (_s, res) => reply(res, 404, { success: false, error: { message: 'Not found' } });
    expect(await client.tokenInfo({ name: 'g', type: 'hosted', token: TOKEN })).toEqual({
      status: 'unknown',
    });
    answer = (_s, res) => reply(res, 401, { success: false, error: { message: 'Invalid or expired token' } });
    expect(await client.tokenInfo({ name: 'g', type: 'hosted', token: TOKEN })).toMatchObject({
      status: 'invalid',
    });
    answer = (_s, res) => reply(res, 200, { success: true, result: { accessLevel: 'read-append' } });
    expect(await client.tokenInfo({ name: 'g', type: 'hosted', token: TOKEN })).toEqual({
      status: 'valid',
      accessLevel: 'read-append',
      scopes: { read: true, append: true, edit: false },
    });
  });
});

describe('no token in errors', () => {
  it('scrubs tokens echoed by the server out of every message', () => {
    const error = errorFromResponse(401, { success: false, error: { message: `bad token ${TOKEN}` } });
    expect(error.message).not.toContain(TOKEN.slice(23));
    expect(error.serverMessage).not.toContain(TOKEN.slice(23));
    expect(JSON.stringify(error)).not.toContain(TOKEN.slice(23));
    expect(scrubTokens('x roam-graph-token-abc y')).toBe('x roam-graph-token-… y');
  });
});
