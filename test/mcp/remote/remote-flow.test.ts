/**
 * Remote access end to end (issue 50): the MCP SDK's own OAuth client (@modelcontextprotocol/client)
 * against the built bin behind caddy's TLS on loopback (the tunnel's stand-in), in both protocol
 * eras, registering both ways (a client ID metadata document served over TLS, and dynamic
 * registration); the sign-in page waits until `roam-mcp remote approve` answers at the machine,
 * the SDK checks `iss` (RFC 9207) and exchanges the code with PKCE; then tools over HTTPS, capped
 * at the level chosen at the machine. No token reaches the server's stderr.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OAuthClientProvider } from '@modelcontextprotocol/client';
import { errorOf, jsonOf } from '../../harness/mcp-bin.ts';
import { pageFields, poll } from './oauth-steps.ts';
import { CADDY_MISSING, hasCaddy, REDIRECT, startRemoteWorld, type RemoteWorld } from './remote-world.ts';

let world: RemoteWorld;

beforeAll(async () => {
  if (!hasCaddy) return;
  world = await startRemoteWorld({ admitLoopback: true });
}, 60_000);

afterAll(async () => {
  await world?.close();
});

/** The SDK's provider interface, kept in memory; the authorization URL is caught, not opened. */
function memoryProvider(metadataUrl?: string) {
  const state: { tokens?: unknown; client?: unknown; verifier?: string; authorizationUrl?: URL } = {};
  const provider: OAuthClientProvider = {
    get redirectUrl() {
      return REDIRECT;
    },
    ...(metadataUrl ? { clientMetadataUrl: metadataUrl } : {}),
    get clientMetadata() {
      return {
        client_name: 'SDK Test Client',
        redirect_uris: [REDIRECT],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      };
    },
    clientInformation: () => state.client as never,
    saveClientInformation: (info) => void (state.client = info),
    tokens: () => state.tokens as never,
    saveTokens: (tokens) => void (state.tokens = tokens),
    redirectToAuthorization: (url) => void (state.authorizationUrl = url),
    saveCodeVerifier: (verifier) => void (state.verifier = verifier),
    codeVerifier: () => state.verifier ?? '',
  };
  return { provider, state };
}

async function connectWith(provider: OAuthClientProvider, era: '2026-07-28' | '2025-11-25') {
  const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
  const transport = new StreamableHTTPClientTransport(new URL(`${world.publicUrl}/mcp`), {
    authProvider: provider,
    fetch: world.fetch,
  });
  const client = new Client(
    { name: 'remote-test', version: '1.0.0' },
    { versionNegotiation: { mode: era === '2026-07-28' ? { pin: era } : 'legacy' } },
  );
  return { client, transport, connect: () => client.connect(transport) };
}

/** The whole sign-in as a person does it: the page, the same code at the machine, approve, back. */
async function signInWithSdk(
  metadataUrl: string | undefined,
  era: '2026-07-28' | '2025-11-25',
  approve: string[],
) {
  const { provider, state } = memoryProvider(metadataUrl);
  const first = await connectWith(provider, era);
  await expect(first.connect()).rejects.toThrow(/nauthorized/);
  const authorizationUrl = state.authorizationUrl!;
  expect(authorizationUrl.origin).toBe(world.publicUrl);
  expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authorizationUrl.searchParams.get('resource')).toBe(`${world.publicUrl}/mcp`);
  const page = await world.fetch(authorizationUrl.href, { redirect: 'manual' });
  expect(page.status).toBe(200);
  const html = await page.text();
  const fields = pageFields(html);
  expect(html).toContain('127.0.0.1:9'); // where the answer goes, shown
  const listed = await world.bin(['remote', 'requests', '--json']);
  const waiting = (
    JSON.parse(listed.stdout) as { requests: Array<{ id: string; code: string; verified: boolean }> }
  ).requests;
  const request = waiting.find((r) => r.id === fields.request)!;
  expect(html).toContain(request.code);
  expect(request.verified).toBe(metadataUrl !== undefined);
  if (metadataUrl === undefined) expect(html).toContain('unverified');
  expect((await poll(world.fetch, world.publicUrl, fields)).status).toBe('waiting');
  const approved = await world.bin(['remote', 'approve', request.id, ...approve]);
  expect(approved.code).toBe(0);
  const answer = await poll(world.fetch, world.publicUrl, fields);
  expect(answer.status).toBe('done');
  const back = new URL(answer.location!);
  expect(back.searchParams.get('iss')).toBe(world.publicUrl);
  expect(back.searchParams.get('state')).toBe(authorizationUrl.searchParams.get('state'));
  await first.transport.finishAuth(back.searchParams);
  const second = await connectWith(provider, era);
  await second.connect();
  return { client: second.client, state };
}

describe.skipIf(!hasCaddy)(
  hasCaddy ? 'remote access through a TLS tunnel (caddy on loopback)' : CADDY_MISSING,
  () => {
    it('a client ID metadata document client signs in (2026-07-28) and reads, capped read-only and to core', async () => {
      const { client } = await signInWithSdk(`${world.documents}/client.json`, '2026-07-28', [
        '--level',
        'read-only',
        '--tools',
        'core',
      ]);
      expect(client.getProtocolEra()).toBe('modern');
      const names = (await client.listTools(undefined, { cacheMode: 'bypass' })).tools.map((t) => t.name);
      expect(names).toContain('list_graphs');
      expect(names).not.toContain('find_path'); // navigation: not among the toolsets chosen at the machine
      const graphs = jsonOf<{ items: Array<{ nickname: string }> }>(
        (await client.callTool({ name: 'list_graphs', arguments: {} })) as never,
      );
      expect(graphs.items.map((g) => g.nickname)).toContain('Work');
      const refused = errorOf(
        (await client.callTool({
          name: 'create_block',
          arguments: { graph: 'Work', markdown: 'from afar', pageTitle: 'Inbox' },
        })) as never,
      );
      expect(refused.code).toBe('ACCESS_LEVEL');
      const connections = JSON.parse((await world.bin(['remote', 'connections', '--json'])).stdout) as {
        connections: Array<{ clientName: string; verified: boolean; level?: string }>;
      };
      expect(connections.connections).toContainEqual(
        expect.objectContaining({
          clientName: 'Metadata Client',
          verified: true,
          level: 'read-only',
          toolsets: ['core'],
        }),
      );
      await client.close();
    });

    it('a dynamically registered client signs in (2025-11-25 session), marked unverified, and calls a tool', async () => {
      const { client, state } = await signInWithSdk(undefined, '2025-11-25', []);
      expect(client.getProtocolEra()).toBe('legacy');
      const graphs = jsonOf<{ items: Array<{ nickname: string }> }>(
        (await client.callTool({ name: 'list_graphs', arguments: {} })) as never,
      );
      expect(graphs.items.map((g) => g.nickname)).toContain('Work');
      const tokens = state.tokens as { access_token: string; refresh_token: string };
      expect(tokens.refresh_token).toBeTruthy();
      await client.close();
      const stderr = world.served.stderr();
      // The test-only setting that admits loopback documents is never quiet.
      expect(stderr).toContain(
        'client metadata documents on loopback addresses are admitted (a test setting)',
      );
      expect(stderr).not.toContain(tokens.access_token);
      expect(stderr).not.toContain(tokens.refresh_token);
      const file = await import('node:fs/promises').then((fs) =>
        fs.readFile(`${world.home}/data/remote/remote.json`, 'utf8'),
      );
      expect(file).not.toContain(tokens.access_token);
      expect(file).not.toContain(tokens.refresh_token);
      const mode = (await import('node:fs')).statSync(`${world.home}/data/remote/remote.json`).mode & 0o777;
      expect(mode).toBe(0o600);
    });

    it('roam-mcp doctor checks remote access: the listener, the public URL, the callbacks, the file', async () => {
      const ran = await world.bin(['doctor', '--json']);
      const report = JSON.parse(ran.stdout) as {
        checks: Array<{ section: string; name: string; status: string; fix?: string }>;
      };
      const remote = report.checks.filter((c) => c.section === 'remote');
      const named = (name: string) => remote.find((c) => c.name === name);
      expect(named('remote access file')?.status).toBe('ok');
      expect(named('remote access')?.status).toBe('ok');
      // The doctor's own process cannot resolve roam.test (only the test's fetch maps it): for it the
      // tunnel does not reach, and it says where to point one.
      expect(named('public URL')?.status).toBe('fail');
      expect(named('public URL')?.fix).toContain(new URL(world.served.remote).port);
      expect(named('callback 127.0.0.1')?.status).toBe('ok');
      expect(ran.stdout).not.toMatch(/roam-remote-(at|rt)-/);
    });
  },
);
