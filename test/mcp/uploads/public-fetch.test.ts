/**
 * fetchPublic over real sockets. A "victim" server listens on every local address (IPv4 and
 * IPv6): any loopback spelling that got through would reach it, so its connection count must stay
 * 0. The paths that need a server we may fetch from give fetchPublic a policy under which only
 * 127.0.0.1 counts as public (the victim is then reached as 127.0.0.2 or ::1), and a resolver of
 * the test's own for names.
 */
import fc from 'fast-check';
import type dns from 'node:dns';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FetchRefusal, fetchPublic, type FetchOptions } from '../../../src-mcp/uploads/public-fetch.ts';
import { v4Spellings } from './address-spellings.ts';

const fixtures = path.join(import.meta.dirname, 'fixtures');
const LIMIT = 64 * 1024;

interface Counted {
  server: http.Server;
  port: number;
  connections: number;
  requests: string[];
}

async function listen(server: http.Server, host: string): Promise<Counted> {
  const counted: Counted = { server, port: 0, connections: 0, requests: [] };
  server.on('connection', () => counted.connections++);
  server.on('request', (req: http.IncomingMessage) => counted.requests.push(req.url ?? ''));
  server.listen(0, host);
  await once(server, 'listening');
  counted.port = (server.address() as AddressInfo).port;
  return counted;
}

let victim: Counted;
let site: Counted;
let tlsSite: Counted;

const base = (): Omit<FetchOptions, 'resolve' | 'isAllowed'> => ({
  signal: new AbortController().signal,
  maxBytes: LIMIT,
  timeoutMs: 10_000,
});
/** Only 127.0.0.1 is "public": the site is reachable, the victim (127.0.0.2, ::1, ...) is not. */
const onlySite = {
  isAllowed: (address: string) => address === '127.0.0.1' || address === '::ffff:127.0.0.1',
};

/** A resolver for `*.test` names: what the table says, in order, one answer per lookup. */
function resolverFor(table: Record<string, string[][]>) {
  const calls: string[] = [];
  const resolve = ((hostname: string, _options: unknown, callback: (...args: unknown[]) => void) => {
    calls.push(hostname);
    const answers = table[hostname];
    const next = answers?.length === 1 ? answers[0] : answers?.shift();
    if (!next) return callback(Object.assign(new Error(`no such host ${hostname}`), { code: 'ENOTFOUND' }));
    callback(
      null,
      next.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
    );
  }) as unknown as typeof dns.lookup;
  return { resolve, calls };
}

async function refusal(promise: Promise<unknown>): Promise<FetchRefusal> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(FetchRefusal);
  return error as FetchRefusal;
}

beforeAll(async () => {
  victim = await listen(
    http.createServer((_req, res) => res.end('secret from the victim')),
    '::',
  );
  site = await listen(
    http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://site');
      if (url.pathname === '/file.txt')
        res.writeHead(200, { 'content-type': 'text/plain' }).end('public file');
      else if (url.pathname === '/redirect')
        res.writeHead(302, { location: url.searchParams.get('to') ?? '/' }).end();
      else if (url.pathname === '/endless-redirect')
        res.writeHead(302, { location: '/endless-redirect' }).end();
      else if (url.pathname === '/big-declared')
        res.writeHead(200, { 'content-length': String(LIMIT + 1) }).end(Buffer.alloc(LIMIT + 1));
      else if (url.pathname === '/big-streamed') {
        res.writeHead(200);
        const chunk = Buffer.alloc(4096, 0x61);
        const write = () => {
          while (!res.destroyed && res.write(chunk));
          if (!res.destroyed) res.once('drain', write);
        };
        write();
      } else if (url.pathname === '/silent') res.flushHeaders();
      else res.writeHead(404).end();
    }),
    '127.0.0.1',
  );
  const tls = https.createServer(
    {
      cert: readFileSync(path.join(fixtures, 'files-test-cert.pem')),
      key: readFileSync(path.join(fixtures, 'files-test-key.pem')),
    },
    (_req, res) => res.end('over tls'),
  );
  tlsSite = await listen(tls as unknown as http.Server, '127.0.0.1');
});

afterAll(() => {
  for (const s of [victim, site, tlsSite]) {
    s?.server.closeAllConnections();
    s?.server.close();
  }
});

beforeEach(() => {
  victim.connections = 0;
  victim.requests.length = 0;
});

describe('fetchPublic never reaches this machine', () => {
  it('refuses every spelling of a loopback address and never connects', async () => {
    const loopback = fc.integer({ min: 0, max: 2 ** 24 - 1 }).map((n) => 0x7f000000 + n);
    await fc.assert(
      fc.asyncProperty(
        loopback.chain((n) => v4Spellings(n)),
        async (host) => {
          const url = `http://${host}:${victim.port}/`;
          expect((await refusal(fetchPublic(url, base()))).kind).toBe('not-public');
        },
      ),
      { numRuns: 300 },
    );
    for (const host of ['0.0.0.0', '0', '[::]', '[::1]', 'localhost', '[::ffff:127.0.0.1]'])
      expect((await refusal(fetchPublic(`http://${host}:${victim.port}/`, base()))).kind, host).toBe(
        'not-public',
      );
    // Whether the resolver knows `localhost.` differs between machines: refused or unknown, never fetched.
    expect(['not-public', 'failed']).toContain(
      (await refusal(fetchPublic(`http://localhost.:${victim.port}/`, base()))).kind,
    );
    expect(victim.connections).toBe(0);
  });

  it('a name that resolves to a private address is refused; so is one with a private address among public ones', async () => {
    const { resolve } = resolverFor({
      'inside.test': [['10.0.0.7']],
      'mixed.test': [['127.0.0.1', '127.0.0.2']],
    });
    for (const host of ['inside.test', 'mixed.test'])
      expect(
        (
          await refusal(
            fetchPublic(`http://${host}:${site.port}/file.txt`, { ...base(), ...onlySite, resolve }),
          )
        ).kind,
      ).toBe('not-public');
    expect(site.connections).toBe(0);
  });

  it('connects to the address it checked: one lookup per connection, a second answer is never used', async () => {
    // A rebinding resolver: the first answer passes, the next would point at the victim.
    const { resolve, calls } = resolverFor({ 'rebind.test': [['127.0.0.1'], ['::1'], ['::1']] });
    const fetched = await fetchPublic(`http://rebind.test:${site.port}/file.txt`, {
      ...base(),
      ...onlySite,
      resolve,
    });
    expect(fetched.bytes.toString()).toBe('public file');
    expect(calls).toEqual(['rebind.test']);
    expect(victim.connections).toBe(0);
  });

  it('checks every redirect like the first URL: a redirect to this machine is refused', async () => {
    const targets = [
      `http://127.0.0.2:${victim.port}/`,
      `http://2130706434:${victim.port}/`,
      `http://[::1]:${victim.port}/`,
      `http://[::ffff:7f00:2]:${victim.port}/`,
      `http://0x7f.2:${victim.port}/`,
    ];
    for (const to of targets) {
      const url = `http://127.0.0.1:${site.port}/redirect?to=${encodeURIComponent(to)}`;
      expect((await refusal(fetchPublic(url, { ...base(), ...onlySite }))).kind, to).toBe('not-public');
    }
    expect(victim.connections).toBe(0);
  });

  it('follows a redirect that stays public, up to the limit, and never from https to http', async () => {
    const ok = await fetchPublic(`http://127.0.0.1:${site.port}/redirect?to=/file.txt`, {
      ...base(),
      ...onlySite,
    });
    expect([ok.bytes.toString(), ok.url.pathname]).toEqual(['public file', '/file.txt']);
    const endless = await refusal(
      fetchPublic(`http://127.0.0.1:${site.port}/endless-redirect`, { ...base(), ...onlySite }),
    );
    expect([endless.kind, endless.message]).toEqual([
      'redirect',
      expect.stringMatching(/More than 5 redirects/),
    ]);
  });
});

describe('fetchPublic limits', () => {
  it('refuses a body over the limit, declared or streamed, and stops reading', async () => {
    for (const route of ['/big-declared', '/big-streamed']) {
      const error = await refusal(
        fetchPublic(`http://127.0.0.1:${site.port}${route}`, { ...base(), ...onlySite }),
      );
      expect(error.kind).toBe('too-large');
    }
  });

  it('gives up at its deadline', async () => {
    const error = await refusal(
      fetchPublic(`http://127.0.0.1:${site.port}/silent`, { ...base(), ...onlySite, timeoutMs: 300 }),
    );
    expect([error.kind, error.message]).toEqual(['failed', expect.stringMatching(/took too long/)]);
  });

  it('https checks the certificate against the host name', async () => {
    const ca = readFileSync(path.join(fixtures, 'ca.pem'), 'utf8');
    const { resolve } = resolverFor({ 'files.test': [['127.0.0.1']], 'other.test': [['127.0.0.1']] });
    const options = { ...base(), ...onlySite, resolve, ca };
    const good = await fetchPublic(`https://files.test:${tlsSite.port}/`, options);
    expect(good.bytes.toString()).toBe('over tls');
    const wrongName = await refusal(fetchPublic(`https://other.test:${tlsSite.port}/`, options));
    expect([wrongName.kind, wrongName.message]).toEqual([
      'failed',
      expect.stringMatching(/altnames|other\.test/),
    ]);
    const untrusted = await refusal(
      fetchPublic(`https://files.test:${tlsSite.port}/`, { ...options, ca: undefined }),
    );
    expect(untrusted.kind).toBe('failed');
  });

  it('only http and https', async () => {
    for (const url of ['file:///etc/passwd', 'ftp://example.com/x', 'gopher://127.0.0.1:70/', 'not a url'])
      expect((await refusal(fetchPublic(url, base()))).kind).toBe('scheme');
  });
});
