/**
 * Every request `roam-mcp serve --http` must refuse before anything runs, tried against the built
 * bin as an adversary would: no key, a wrong key, a key revoked while its session is open, a web
 * page's Origin, a rebound Host, an oversized body, one chat too many, a flood from one key, and a
 * --host that is not loopback. Each answer is a JSON-RPC error saying what to do; no key ever
 * appears in the server's output or answers.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { binCommand, jsonOf, runBin } from '../../harness/mcp-bin.ts';
import { RAW_INITIALIZE, startHttpWorld, type HttpClient, type HttpWorld } from '../../harness/http-world.ts';
import { spawnSync } from 'node:child_process';

const MAX_CHATS = 3;
const MAX_BODY = 64 * 1024;
const RATE = 40;
let world: HttpWorld;
const answers: string[] = [];

beforeAll(async () => {
  world = await startHttpWorld({
    keys: { good: undefined, revoked: undefined, flood: undefined, sessions: undefined, streamer: undefined },
    env: {
      ROAM_MCP_HTTP_MAX_CHATS: String(MAX_CHATS),
      ROAM_MCP_HTTP_MAX_BODY_BYTES: String(MAX_BODY),
      ROAM_MCP_HTTP_RATE_PER_MINUTE: String(RATE),
    },
  });
}, 60_000);

afterAll(async () => {
  const said = `${world?.transcript() ?? ''}\n${answers.join('\n')}`;
  for (const key of Object.values(world?.keys ?? {})) expect(said).not.toContain(key);
  await world?.close();
});

const LIST_TOOLS = JSON.stringify(RAW_INITIALIZE);

/** One POST to the server with exactly these headers (Host included), answered as text. */
function post(
  headers: Record<string, string>,
  body = LIST_TOOLS,
  path = '/mcp',
): Promise<{
  status: number;
  body: string;
  error?: { code: number; message: string; data?: { reason?: string } };
}> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: world.port,
        path,
        method: 'POST',
        headers: {
          host: `127.0.0.1:${world.port}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        res.on('end', () => {
          answers.push(text);
          let error;
          try {
            error = (JSON.parse(text) as { error?: never }).error;
          } catch {
            error = undefined;
          }
          resolve({ status: res.statusCode ?? 0, body: text, ...(error ? { error } : {}) });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/** A request whose answer headers matter; with `stream`, resolves at the headers and `ended` at the end. */
function raw(
  method: 'GET' | 'POST' | 'DELETE',
  headers: Record<string, string>,
  body?: string,
  options: { stream?: boolean } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; ended: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: world.port,
        path: '/mcp',
        method,
        headers: {
          host: `127.0.0.1:${world.port}`,
          accept: 'application/json, text/event-stream',
          ...(body ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
      },
      (res) => {
        let text = '';
        const ended = new Promise<void>((done) => res.on('end', () => done()).on('close', () => done()));
        res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        void ended.then(() => answers.push(text));
        const answer = { status: res.statusCode ?? 0, headers: res.headers, ended };
        if (options.stream) resolve(answer);
        else void ended.then(() => resolve(answer));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Past every door of ours: a 2025 request outside any session, which the SDK itself answers (400,
 * not initialized) without a chat staying open.
 */
const PAST_THE_DOORS = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
async function expectPassesTheDoors(headers: Record<string, string>): Promise<void> {
  const answer = await post(headers, PAST_THE_DOORS);
  expect(answer.error?.data?.reason).toBeUndefined();
  expect(answer.status).toBe(400);
}

it('no key: 401 with a JSON-RPC error that says how to get one', async () => {
  const answer = await post({});
  expect(answer.status).toBe(401);
  expect(answer.error?.data?.reason).toBe('KEY_REQUIRED');
  expect(answer.error?.message).toContain('roam-mcp key create');
});

it('a wrong key, and a key that is almost right: 401', async () => {
  const good = world.keys.good!;
  for (const key of ['nonsense', `${good.slice(0, -1)}${good.endsWith('A') ? 'B' : 'A'}`, `${good}x`]) {
    const answer = await post(bearer(key));
    expect(answer.status).toBe(401);
    expect(answer.error?.data?.reason).toBe('KEY_INVALID');
  }
  // The right key passes the same door.
  await expectPassesTheDoors(bearer(good));
});

it('a key revoked while its sessions are open is refused on their next request, in both eras', async () => {
  const v1 = await world.connect({ era: 'v1', key: world.keys.revoked!, chatId: 'r1' });
  const v2 = await world.connect({ era: 'v2', key: world.keys.revoked!, chatId: 'r2' });
  for (const client of [v1, v2]) jsonOf(await client.call('list_graphs'));
  const revoked = await world.keyCli(['revoke', 'revoked']);
  expect(revoked.code).toBe(0);
  for (const client of [v1, v2])
    await expect(client.call('list_graphs')).rejects.toThrow(/401|not valid|revoked/i);
  expect((await world.keyCli(['list'])).stdout).not.toContain('revoked');
});

it('revoking a key ends its open session: its notification stream closes at the next request anyone makes', async () => {
  const opened = await raw('POST', bearer(world.keys.streamer!), LIST_TOOLS);
  const session = opened.headers['mcp-session-id'] as string;
  expect(session).toBeTruthy();
  const withSession = {
    ...bearer(world.keys.streamer!),
    'mcp-session-id': session,
    'mcp-protocol-version': '2025-11-25',
  };
  await raw('POST', withSession, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  const stream = await raw('GET', withSession, undefined, { stream: true });
  expect(stream.status).toBe(200);
  expect((await world.keyCli(['revoke', 'streamer'])).code).toBe(0);
  await expectPassesTheDoors(bearer(world.keys.good!));
  await stream.ended;
});

it("a web page's Origin: 403, even with the right key", async () => {
  for (const origin of [
    'http://evil.example',
    `http://evil.example:${world.port}`,
    'null',
    'https://127.0.0.1',
  ]) {
    const answer = await post({ ...bearer(world.keys.good!), origin });
    expect(answer.status).toBe(403);
    expect(answer.error?.data?.reason).toBe('FOREIGN_ORIGIN');
  }
  await expectPassesTheDoors({ ...bearer(world.keys.good!), origin: `http://localhost:${world.port}` });
});

it('a Host that is not this server at this port (DNS rebinding): 403, even with the right key', async () => {
  for (const host of [
    'evil.example',
    `evil.example:${world.port}`,
    `127.0.0.1:${world.port + 1}`,
    '127.0.0.1',
  ]) {
    const answer = await post({ ...bearer(world.keys.good!), host });
    expect(answer.status).toBe(403);
    expect(answer.error?.data?.reason).toBe('FOREIGN_HOST');
  }
});

it('a body over the cap: 413 with a JSON-RPC error, and the server keeps serving', async () => {
  const big = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/list',
    params: { pad: 'x'.repeat(MAX_BODY) },
  });
  const answer = await post(bearer(world.keys.good!), big);
  expect(answer.status).toBe(413);
  expect(answer.error?.data?.reason).toBe('BODY_TOO_LARGE');
  await expectPassesTheDoors(bearer(world.keys.good!));
});

it('one chat more than the cap: a clear JSON-RPC error; closing a chat makes room', async () => {
  const open: HttpClient[] = [];
  let refused: unknown;
  for (let i = 0; i <= MAX_CHATS && !refused; i++) {
    try {
      open.push(await world.connect({ era: 'v1', key: world.keys.sessions!, chatId: `s${i}` }));
    } catch (error) {
      refused = error;
    }
  }
  expect(String(refused)).toMatch(/chats, its limit/);
  expect(open.length).toBeLessThanOrEqual(MAX_CHATS);
  await open.pop()?.close();
  open.push(await world.connect({ era: 'v1', key: world.keys.sessions!, chatId: 'again' }));
  for (const client of open) await client.close();
});

it('a flood from one key: 429 with Retry-After, other keys unaffected', async () => {
  let limited: Awaited<ReturnType<typeof post>> | undefined;
  for (let i = 0; i < RATE * 2 && !limited; i++) {
    const answer = await post(bearer(world.keys.flood!), PAST_THE_DOORS);
    if (answer.status === 429) limited = answer;
  }
  expect(limited?.error?.data?.reason).toBe('RATE_LIMITED');
  expect(limited?.error?.message).toMatch(/try again in \d+ s/);
  await expectPassesTheDoors(bearer(world.keys.good!));
});

it('--host that is not loopback is refused before anything listens', () => {
  const [command, args] = binCommand(['serve', '--http', '--host', '0.0.0.0', '--port', '0']);
  const run = spawnSync(command, args, {
    env: { PATH: process.env.PATH ?? '', HOME: world.home },
    encoding: 'utf8',
  });
  expect(run.status).toBe(2);
  expect(run.stderr).toContain('not a loopback address');
});

it('a port already served (by this server here) is refused with what to do, and no stack trace', async () => {
  const port = new URL(world.url).port;
  const run = await runBin(['serve', '--http', '--port', port], {
    env: { PATH: process.env.PATH ?? '', HOME: world.home },
    cwd: world.home,
  });
  expect(run.code).toBe(1);
  expect(run.stderr).toContain(
    `roam-mcp error: cannot start: port ${port} on 127.0.0.1 is in use by another program (another roam-mcp serve --http, or Roam Companion, which serves there). Stop it, or choose another port with --port N (0 picks a free one).`,
  );
  expect(run.stderr).not.toMatch(/\n\s+at /);
  // The running server still serves.
  await expectPassesTheDoors(bearer(world.keys.good!));
});

it("another key cannot use a session it did not open: 404, and the session's owner still can", async () => {
  const opened = await raw('POST', bearer(world.keys.good!), LIST_TOOLS);
  const session = opened.headers['mcp-session-id'] as string;
  const asked = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
  await raw(
    'POST',
    { ...bearer(world.keys.good!), ...asked },
    JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  );
  const stolen = await post({ ...bearer(world.keys.sessions!), ...asked }, PAST_THE_DOORS);
  expect(stolen.status).toBe(404);
  expect(stolen.error?.data?.reason).toBe('SESSION_NOT_FOUND');
  const owned = await post({ ...bearer(world.keys.good!), ...asked }, PAST_THE_DOORS);
  expect(owned.status).toBe(200);
  expect(owned.body).toContain('"tools"');
  await raw('DELETE', { ...bearer(world.keys.good!), ...asked });
});

it('a body that is not JSON gets a JSON-RPC parse error, and nothing runs', async () => {
  const answer = await post(bearer(world.keys.good!), '{"jsonrpc": "2.0", "method": ');
  expect(answer.status).toBe(400);
  expect(answer.error?.code).toBe(-32700);
});
