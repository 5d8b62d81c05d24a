/**
 * What remote access refuses (issue 50), each by hand over real HTTP against the built bin: through
 * caddy's TLS (the tunnel's stand-in) unless the case needs a server of its own on the same data
 * folder (another public URL, short-lived tokens, loopback documents not admitted), which is then
 * reached on its remote port directly.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authorizeUrl,
  get,
  mcpStatus,
  pageFields,
  pkce,
  poll,
  registerClient,
  signIn,
  token,
} from './oauth-steps.ts';
import {
  CADDY_MISSING,
  hasCaddy,
  PUBLIC_HOST,
  REDIRECT,
  startRemoteWorld,
  type RemoteWorld,
} from './remote-world.ts';

let world: RemoteWorld;
let base: string;
let shared: string;

beforeAll(async () => {
  if (!hasCaddy) return;
  world = await startRemoteWorld({ admitLoopback: true });
  base = world.publicUrl;
  shared = await registerClient(world.fetch, base, 'Shared Client');
}, 60_000);

afterAll(async () => {
  await world?.close();
});

const mcp = () => `${base}/mcp`;

async function connectionIds(): Promise<string[]> {
  const listed = await world.bin(['remote', 'connections', '--json']);
  // What the machine shows of a connection: never a token, never a hash of one.
  expect(listed.stdout).not.toMatch(/[0-9a-f]{64}|roam-remote-|sha256/);
  return (JSON.parse(listed.stdout) as { connections: Array<{ id: string }> }).connections.map((c) => c.id);
}

async function waitingIds(): Promise<string[]> {
  const listed = await world.bin(['remote', 'requests', '--json']);
  expect(listed.stdout).not.toMatch(/pageHash|codeChallenge|[0-9a-f]{64}/);
  return (JSON.parse(listed.stdout) as { requests: Array<{ id: string }> }).requests.map((r) => r.id);
}

/** A waiting page for the shared client, as a browser opens it. */
async function openPage(params: Record<string, string> = {}) {
  const { challenge } = pkce();
  return get(
    world.fetch,
    authorizeUrl(base, {
      client_id: shared,
      redirect_uri: REDIRECT,
      response_type: 'code',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 'st',
      ...params,
    }),
  );
}

/** A request to the local hub with this Host header (fetch may not set Host; node:http may). */
function localHub(hub: string, host: string, bearer: string): Promise<number> {
  const url = new URL(hub);
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: {} });
    const req = http.request(
      url,
      {
        method: 'POST',
        headers: {
          host,
          authorization: `Bearer ${bearer}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe.skipIf(!hasCaddy)(hasCaddy ? 'remote access refuses' : CADDY_MISSING, () => {
  it('no token, a made-up token and a local key: 401 naming the resource metadata', async () => {
    const none = await mcpStatus(world.fetch, mcp());
    expect(none.status).toBe(401);
    expect(none.challenge).toContain(`resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`);
    expect((await mcpStatus(world.fetch, mcp(), 'roam-remote-at-made-up')).status).toBe(401);
    const local = await mcpStatus(world.fetch, mcp(), world.keys['local-client']);
    expect(local.status).toBe(401);
    expect(local.challenge).toContain('invalid_token');
    // The key still works where it belongs.
    expect(
      await localHub(world.served.hub, new URL(world.served.hub).host, world.keys['local-client']!),
    ).not.toBe(401);
  });

  it('keeps an idle connection longer than a tunnel does (no 502 from a connection closing under it)', async () => {
    const answer = await fetch(`${world.served.remote}/.well-known/oauth-authorization-server`);
    await answer.text();
    expect(answer.headers.get('keep-alive')).toBe('timeout=130');
  });

  it('the public host on the local port, and a remote token there', async () => {
    const signed = await signIn(world, world.fetch, base, { clientId: shared });
    const at = signed.tokens.access_token!;
    expect((await mcpStatus(world.fetch, mcp(), at)).status).not.toBe(401);
    const port = new URL(base).port;
    expect(await localHub(world.served.hub, `${PUBLIC_HOST}:${port}`, world.keys['local-client']!)).toBe(403);
    expect(await localHub(world.served.hub, new URL(world.served.hub).host, at)).toBe(401);
  });

  it('a token without the mcp scope: 403 insufficient_scope', async () => {
    const signed = await signIn(world, world.fetch, base, { clientId: shared, scope: 'profile' });
    expect(signed.tokens.scope).toBe('');
    const refused = await mcpStatus(world.fetch, mcp(), signed.tokens.access_token);
    expect(refused.status).toBe(403);
    expect(refused.challenge).toContain('insufficient_scope');
    expect(refused.challenge).toContain('resource_metadata=');
  });

  it('a revoked connection: its token stops at the next request', async () => {
    const before = await connectionIds();
    const signed = await signIn(world, world.fetch, base, {
      clientId: await registerClient(world.fetch, base, 'Revoked'),
    });
    const id = (await connectionIds()).find((c) => !before.includes(c))!;
    expect((await mcpStatus(world.fetch, mcp(), signed.tokens.access_token)).status).not.toBe(401);
    expect((await world.bin(['remote', 'revoke', id])).code).toBe(0);
    expect((await mcpStatus(world.fetch, mcp(), signed.tokens.access_token)).status).toBe(401);
    const refreshed = await token(world.fetch, base, {
      grant_type: 'refresh_token',
      refresh_token: signed.tokens.refresh_token!,
      client_id: signed.clientId,
    });
    expect(refreshed.body.error).toBe('invalid_grant');
  });

  it("a revoke ends the connection's open stream at once, not at the next request", async () => {
    const before = await connectionIds();
    const signed = await signIn(world, fetch, world.served.remote, { clientId: shared });
    const id = (await connectionIds()).find((c) => !before.includes(c))!;
    const url = `${world.served.remote}/mcp`;
    const headers = {
      authorization: `Bearer ${signed.tokens.access_token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    };
    const opened = await fetch(url, { method: 'POST', headers, body: JSON.stringify(initialize) });
    const session = opened.headers.get('mcp-session-id')!;
    await opened.text();
    const sessionHeaders = { ...headers, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
    await (
      await fetch(url, { method: 'POST', headers: sessionHeaders, body: JSON.stringify(initialized) })
    ).text();
    const stream = await fetch(url, { headers: { ...sessionHeaders, accept: 'text/event-stream' } });
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    const ended = (async () => {
      try {
        while (!(await reader.read()).done);
      } catch {
        // the server cut it: ended too
      }
      return 'ended';
    })();
    expect((await world.bin(['remote', 'revoke', id])).code).toBe(0);
    await expect(ended).resolves.toBe('ended');
  });

  it('a made-up code; a code used twice, which ends the connection it gave', async () => {
    const madeUp = await token(world.fetch, base, {
      grant_type: 'authorization_code',
      code: 'made-up',
      client_id: shared,
      redirect_uri: REDIRECT,
      code_verifier: pkce().verifier,
    });
    expect(madeUp.body.error).toBe('invalid_grant');
    const signed = await signIn(world, world.fetch, base, {
      clientId: await registerClient(world.fetch, base, 'Replayed'),
    });
    const again = await token(world.fetch, base, {
      grant_type: 'authorization_code',
      code: signed.code,
      client_id: signed.clientId,
      redirect_uri: REDIRECT,
      code_verifier: signed.verifier,
    });
    expect(again.body.error).toBe('invalid_grant');
    expect((await mcpStatus(world.fetch, mcp(), signed.tokens.access_token)).status).toBe(401);
  });

  it('a redirect URI the client did not register: a page says so, nothing is sent anywhere', async () => {
    const page = await openPage({ redirect_uri: 'https://attacker.example/cb' });
    expect(page.status).toBe(400);
    expect(page.headers.get('location')).toBeNull();
    expect(await page.text()).toContain('https://attacker.example/cb is not one Shared Client registered');
  });

  it.each([
    ['no PKCE', { code_challenge: '', code_challenge_method: '' }],
    ['plain', { code_challenge_method: 'plain' }],
  ])('%s: sent back with invalid_request and iss, nothing waits', async (_name, params) => {
    const before = await waitingIds();
    const page = await openPage(params);
    expect(page.status).toBe(302);
    const back = new URL(page.headers.get('location')!);
    expect(back.origin + back.pathname).toBe(REDIRECT);
    expect(back.searchParams.get('error')).toBe('invalid_request');
    expect(back.searchParams.get('iss')).toBe(base);
    expect(back.searchParams.get('state')).toBe('st');
    expect(await waitingIds()).toEqual(before);
  });

  it('an approval attempted through the tunnel: nothing there answers, the sign-in still waits', async () => {
    const page = await openPage();
    const fields = pageFields(await page.text());
    for (const path of ['/approve', '/authorize/approve', '/remote/approve', '/authorize'])
      for (const body of [
        JSON.stringify({ id: fields.request, ...fields }),
        `request=${fields.request}&approve=1`,
      ]) {
        const answer = await world.fetch(`${base}${path}`, { method: 'POST', body, redirect: 'manual' });
        expect([path, answer.status]).toEqual([path, 404]);
      }
    const continued = await world.fetch(`${base}/authorize/continue`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
      redirect: 'manual',
    });
    expect(continued.status).toBe(202);
    expect((await poll(world.fetch, base, fields)).status).toBe('waiting');
    expect((await poll(world.fetch, base, { ...fields, secret: 'guessed' })).status).toBe('gone');
    expect(await waitingIds()).toContain(fields.request);
    expect((await world.bin(['remote', 'deny', fields.request])).code).toBe(0);
    const denied = await poll(world.fetch, base, fields);
    expect(new URL(denied.location!).searchParams.get('error')).toBe('access_denied');
  });

  it('at most 5 sign-ins wait at once; answers at the machine say what is wrong', async () => {
    const pages: Array<{ request: string; secret: string }> = [];
    for (let i = (await waitingIds()).length; i < 5; i++)
      pages.push(pageFields(await (await openPage()).text()));
    const full = await openPage();
    expect(full.status).toBe(302);
    expect(new URL(full.headers.get('location')!).searchParams.get('error')).toBe('temporarily_unavailable');
    const [first] = pages;
    const bogus = await world.bin(['remote', 'approve', first!.request, '--level', 'everything']);
    expect([bogus.code, bogus.stderr]).toEqual([
      2,
      expect.stringContaining("'everything' is not an access level"),
    ]);
    const graphs = await world.bin(['remote', 'approve', first!.request, '--graphs', 'Work,Nope']);
    expect([graphs.code, graphs.stderr]).toEqual([
      2,
      expect.stringContaining("No configured graph is called 'Nope'. Name one or more of: Work"),
    ]);
    const unknown = await world.bin(['remote', 'approve', 'nosuchid']);
    expect([unknown.code, unknown.stderr]).toEqual([2, expect.stringContaining('roam-mcp remote requests')]);
    for (const id of await waitingIds()) expect((await world.bin(['remote', 'deny', id])).code).toBe(0);
    const again = await world.bin(['remote', 'deny', first!.request]);
    expect([again.code, again.stderr]).toEqual([2, expect.stringContaining('answered already')]);
    expect(await waitingIds()).toEqual([]);
  });

  it('client metadata documents on a private address, behind a redirect, or hostile', async () => {
    for (const [clientId, why] of [
      ['https://10.1.2.3/client.json', 'not on the public internet'],
      [`${world.documents}/moved`, 'redirect'],
      [`${world.documents}/scripted.json`, 'no usable redirect_uris'],
      [`${world.documents}/impostor.json`, 'names another client_id'],
    ] as const) {
      const page = await openPage({ client_id: clientId });
      expect(page.status).toBe(400);
      expect(await page.text()).toContain(why);
    }
  });

  it('a token for another public URL; a loopback document where the test setting is off', async () => {
    const signed = await signIn(world, world.fetch, base, { clientId: shared });
    const other = await world.serve(['--public-url', 'https://other.test', '--remote-port', '0'], {
      ROAM_MCP_TEST_CIMD_LOOPBACK: '0',
    });
    const refused = await mcpStatus(fetch, `${other.remote}/mcp`, signed.tokens.access_token);
    expect(refused.status).toBe(401);
    expect(refused.challenge).toContain('https://other.test/.well-known/oauth-protected-resource/mcp');
    const refreshed = await token(fetch, other.remote, {
      grant_type: 'refresh_token',
      refresh_token: signed.tokens.refresh_token!,
      client_id: shared,
    });
    expect(refreshed.body.error).toBe('invalid_grant');
    const { challenge } = pkce();
    const page = await get(
      fetch,
      authorizeUrl(other.remote, {
        client_id: `${world.documents}/client.json`,
        redirect_uri: REDIRECT,
        response_type: 'code',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }),
    );
    expect(page.status).toBe(400);
    expect(await page.text()).toContain('not on the public internet');
    await other.stop();
  });

  it('an expired token (a server whose tokens last under a second)', async () => {
    const short = await world.serve([
      '--public-url',
      'https://short.test',
      '--remote-port',
      '0',
      '--remote-token-days',
      '0.00001',
    ]);
    const signed = await signIn(world, fetch, short.remote);
    expect(Number(signed.tokens.expires_in)).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect((await mcpStatus(fetch, `${short.remote}/mcp`, signed.tokens.access_token)).status).toBe(401);
    await short.stop();
  });

  it('refresh: concurrent refreshes with one token both work, and the new tokens do', async () => {
    const signed = await signIn(world, world.fetch, base, { clientId: shared });
    const form = {
      grant_type: 'refresh_token',
      refresh_token: signed.tokens.refresh_token!,
      client_id: shared,
    };
    const [a, b] = await Promise.all([token(world.fetch, base, form), token(world.fetch, base, form)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.refresh_token).not.toBe(signed.tokens.refresh_token);
    for (const fresh of [a, b])
      expect((await mcpStatus(world.fetch, mcp(), fresh.body.access_token)).status).not.toBe(401);
  });

  it('registration is rate-limited', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 15; i++) {
      const response = await world.fetch(`${base}/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_name: `Flood ${i}`, redirect_uris: [REDIRECT] }),
      });
      statuses.push(response.status);
      await response.text();
    }
    expect(statuses).toContain(429);
  });

  it('serve refuses a public URL that is not https or has a path, a missing or busy remote port', async () => {
    for (const [args, says] of [
      [['--public-url', 'http://roam.test', '--remote-port', '0'], 'must be https'],
      [['--public-url', 'https://roam.test/mcp', '--remote-port', '0'], 'without a path'],
      [['--public-url', 'https://roam.test'], 'needs --remote-port'],
      [['--remote-port', '0'], 'need --public-url'],
      [['--public-url', 'https://roam.test', '--remote-port', '0', '--remote-token-days', '0'], 'days'],
    ] as const) {
      const ran = await world.bin(['serve', '--http', '--port', '0', ...args]);
      expect([ran.code, ran.stderr]).toEqual([2, expect.stringContaining(says)]);
    }
    const busy = new URL(world.served.remote).port;
    await expect(world.serve(['--public-url', 'https://busy.test', '--remote-port', busy])).rejects.toThrow(
      /in use[\s\S]*--remote-port/,
    );
  });

  it('remote off refuses everything through the tunnel; on serves again; no --public-url, no listener', async () => {
    expect((await world.bin(['remote', 'off'])).code).toBe(0);
    const off = await world.fetch(`${base}/.well-known/oauth-authorization-server`);
    expect(off.status).toBe(503);
    expect(await off.text()).toContain('switched off');
    expect((await mcpStatus(world.fetch, mcp())).status).toBe(503);
    expect((await world.bin(['remote', 'on'])).code).toBe(0);
    expect((await world.fetch(`${base}/.well-known/oauth-authorization-server`)).status).toBe(200);
    const plain = await world.serve([]);
    expect(plain.stderr()).not.toContain('remote:');
    await plain.stop();
  });
});
