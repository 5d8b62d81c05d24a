// Settings > Remote access's core, with nothing faked: the tray core over real temp files runs the
// real `roam-mcp serve --http` child; turning remote access on stores the public URL and a port
// and starts the child again with the tunnel's listener on that port. A client registers and
// signs in through that listener (as through the tunnel); the sign-in reaches the tray as an
// event with the page's code; the tray's approval lets the page finish, the client's token then
// serves MCP with the level and toolsets chosen; the connection is listed and revoked in one
// call, and its token stops. Off ends what waits and every connection, and closes the port.
import { createHash, randomBytes } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { REMOTE_SETUP_FILE } from '../../../../src-main/core/remote/remote-setup.ts';
import type { TrayCore } from '../../../../src-main/core/tray-core.ts';
import type { RemoteView } from '../../../../src-shared/ipc-contract.ts';
import { startEmulator, type Emulator } from '../../../emulator/index.ts';
import { nextEvent, servingUrl, startCore, tempDirs, waitFor } from '../../helpers.ts';

const PUBLIC = 'https://roam.example.test';
const REDIRECT = 'https://chat.example.com/oauth/callback';

let dirs: Awaited<ReturnType<typeof tempDirs>>;
let emulator: Emulator;
let core: TrayCore;
let events: Array<{ event: string; payload: unknown }>;
let port: number;

beforeAll(async () => {
  dirs = await tempDirs();
  emulator = await startEmulator({
    home: dirs.home,
    graphs: [
      { name: 'far-graph', content: 'demo' },
      { name: 'near-graph', content: 'demo' },
    ],
  });
  emulator.autoDecide({ kind: 'approve' });
  ({ core, events } = startCore(dirs, {
    httpHub: { port: 0 },
    dataDir: path.join(dirs.home, 'data'),
    env: {},
  }));
  await core.handlers['graphs:add']({ name: 'far-graph', nickname: 'Far', accessLevel: 'full' });
  await core.handlers['graphs:add']({ name: 'near-graph', nickname: 'Near', accessLevel: 'full' });
  await servingUrl(core);
}, 60_000);

afterAll(async () => {
  await core?.close();
  await emulator?.close();
  await dirs?.cleanup();
});

const get = () => core.handlers['remote:get'](undefined);
const remote = (pathname: string, init?: RequestInit) => fetch(`http://127.0.0.1:${port}${pathname}`, init);
const listeningView = () => waitFor(async () => ((await get()).listening ? get() : undefined), 30_000);

/** A client registering itself and opening a sign-in, as through the tunnel: the page's code and secret. */
async function signIn(
  name: string,
): Promise<{ code: string; request: string; secret: string; verifier: string; clientId: string }> {
  const registered = await remote('/register', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: name, redirect_uris: [REDIRECT] }),
  });
  expect(registered.status).toBe(201);
  const { client_id: clientId } = (await registered.json()) as { client_id: string };
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const query = new URLSearchParams({
    client_id: clientId,
    redirect_uri: REDIRECT,
    response_type: 'code',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'st-1',
    resource: `${PUBLIC}/mcp`,
  });
  const page = await (await remote(`/authorize?${query}`)).text();
  const code = /aria-label="matching code">([^<]+)</.exec(page)?.[1];
  const request = /name="request" value="([^"]+)"/.exec(page)?.[1];
  const secret = /name="secret" value="([^"]+)"/.exec(page)?.[1];
  expect(code && request && secret).toBeTruthy();
  return { code: code!, request: request!, secret: secret!, verifier, clientId };
}

/** After the approval at the machine: the page finishes, the code is exchanged, MCP connects. */
async function connectAfterApproval(asked: Awaited<ReturnType<typeof signIn>>) {
  const polled = (await (
    await remote('/authorize/status', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ request: asked.request, secret: asked.secret }),
    })
  ).json()) as { status: string; location: string };
  expect(polled.status).toBe('done');
  const back = new URL(polled.location);
  expect(back.host).toBe('chat.example.com');
  const tokens = await remote('/token', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: back.searchParams.get('code')!,
      code_verifier: asked.verifier,
      client_id: asked.clientId,
      redirect_uri: REDIRECT,
      resource: `${PUBLIC}/mcp`,
    }),
  });
  expect(tokens.status).toBe(200);
  const { access_token: token } = (await tokens.json()) as { access_token: string };

  const client = new Client({ name: 'far-chat', version: '0.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  return { client, token };
}

it('is off at first; a public URL that is not https, or has a path, is refused and nothing is kept', async () => {
  expect(await get()).toEqual({ on: false, listening: false, waiting: [], connections: [] });
  await expect(core.handlers['remote:turn-on']({ publicUrl: 'http://roam.example.test' })).rejects.toThrow(
    /^The public URL must be https/,
  );
  await expect(core.handlers['remote:turn-on']({ publicUrl: `${PUBLIC}/mcp` })).rejects.toThrow(
    /^The public URL takes the tunnel's origin only/,
  );
  await expect(core.handlers['remote:turn-on']({ publicUrl: 'roam.example.test' })).rejects.toThrow(
    /is not a URL: give the tunnel's address/,
  );
  await expect(stat(path.join(dirs.storeDir, REMOTE_SETUP_FILE))).rejects.toThrow(/ENOENT/);
  expect((await get()).on).toBe(false);
});

it('on: the URL and a port are kept (0600), and the tray’s server serves the tunnel’s listener there', async () => {
  const turned = await core.handlers['remote:turn-on']({ publicUrl: `${PUBLIC}/` });
  expect(turned).toMatchObject({ on: true, publicUrl: PUBLIC });
  port = turned.localPort!;
  expect(port).toBeGreaterThan(0);
  const file = path.join(dirs.storeDir, REMOTE_SETUP_FILE);
  expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ on: true, publicUrl: PUBLIC, port });
  expect((await stat(file)).mode & 0o777).toBe(0o600);
  expect(await listeningView()).toMatchObject({ on: true, listening: true, localPort: port });
  // The local server still serves its own chats.
  await servingUrl(core, 30_000);
});

it('a sign-in reaches the tray with the page’s code, unverified, its redirect host; approving lets the page finish', async () => {
  const arrived = nextEvent(core, 'remote:changed', (view) => view.waiting.length === 1, 15_000);
  const asked = await signIn('Chat From Afar');
  const view = await arrived;
  expect(view.waiting).toEqual([
    {
      id: asked.request,
      code: asked.code,
      clientName: 'Chat From Afar',
      verified: false,
      redirectHost: 'chat.example.com',
      scopes: expect.any(Array),
      expiresAt: expect.any(String),
    },
  ]);
  const approved = await core.handlers['remote:approve']({
    id: asked.request,
    level: 'read-only',
    toolsets: ['core'],
  });
  expect(approved.waiting).toEqual([]);

  const { client, token } = await connectAfterApproval(asked);
  const names = (await client.listTools()).tools.map((t) => t.name);
  expect(names).toContain('list_graphs');
  expect(names).not.toContain('find_path'); // navigation was not chosen

  const listed = await waitFor(async () => {
    const { connections } = await get();
    return connections.length === 1 ? connections : undefined;
  });
  expect(listed[0]).toMatchObject({
    clientName: 'Chat From Afar',
    verified: false,
    redirectHost: 'chat.example.com',
    level: 'read-only',
    toolsets: ['core'],
  });

  expect((await core.handlers['remote:revoke']({ id: listed[0]!.id })).connections).toEqual([]);
  await expect(client.listTools()).rejects.toThrow(/401|invalid|revoked|expired/i);
  await client.close().catch(() => {});
  await expect(core.handlers['remote:revoke']({ id: listed[0]!.id })).rejects.toThrow(/gone already/);

  // No token in anything the core sent the window.
  expect(JSON.stringify(events)).not.toContain(token);
  expect(JSON.stringify(await get())).not.toContain(asked.secret);
}, 60_000);

it('a remote chat’s change is in Activity, marked remote', async () => {
  const arrived = nextEvent(core, 'remote:changed', (view) => view.waiting.length === 1, 15_000);
  const asked = await signIn('Phone Chat');
  await arrived;
  await core.handlers['remote:approve']({ id: asked.request });
  const { client } = await connectAfterApproval(asked);
  await client.callTool({ name: 'select_graph', arguments: { graph: 'Far' } });
  const made = await client.callTool({
    name: 'create_block',
    arguments: { graph: 'Far', pageTitle: 'From my phone', markdown: 'written from afar' },
  });
  expect(made.isError ?? false).toBe(false);
  await client.close();
  const feed = await core.handlers['activity:list'](undefined);
  const chat = feed.chats.find((c) => c.client === 'far-chat');
  expect(chat).toMatchObject({ remote: true, kind: 'agent', graphs: ['Far'] });
  // Only that chat is marked.
  expect(feed.chats.filter((c) => c.remote)).toHaveLength(1);
}, 60_000);

it('deny ends a sign-in; an answer to one that no longer waits is refused with what to do', async () => {
  const asked = await signIn('Another Chat');
  await waitFor(async () => ((await get()).waiting.length === 1 ? true : undefined));
  expect((await core.handlers['remote:deny']({ id: asked.request })).waiting).toEqual([]);
  await expect(core.handlers['remote:approve']({ id: asked.request })).rejects.toMatchObject({
    code: 'NOT_FOUND',
    message: expect.stringMatching(/answered already|is waiting/),
  });
  await expect(core.handlers['remote:approve']({ id: 'nope', level: 'none' as never })).rejects.toThrow(
    /Invalid input for remote:approve: level/,
  );
});

it('approved for one graph: the connection shows it, and its chats reach no other', async () => {
  const asked = await signIn('Chat For Far');
  await waitFor(async () => ((await get()).waiting.length === 1 ? true : undefined));
  const far = (await core.handlers['graphs:list'](undefined)).find((g) => g.nickname === 'Far')!;
  await expect(
    core.handlers['remote:approve']({ id: asked.request, graphs: ['hosted:gone-graph'] }),
  ).rejects.toMatchObject({
    code: 'VALIDATION',
    message: expect.stringContaining('Choose among: Far, Near'),
  });
  expect((await get()).waiting).toHaveLength(1);
  await expect(core.handlers['remote:approve']({ id: asked.request, graphs: [] })).rejects.toThrow(
    /Invalid input for remote:approve: graphs/,
  );
  await core.handlers['remote:approve']({ id: asked.request, graphs: [far.id] });
  const polled = (await (
    await remote('/authorize/status', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ request: asked.request, secret: asked.secret }),
    })
  ).json()) as { status: string; location: string };
  const tokens = await remote('/token', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: new URL(polled.location).searchParams.get('code')!,
      code_verifier: asked.verifier,
      client_id: asked.clientId,
      redirect_uri: REDIRECT,
      resource: `${PUBLIC}/mcp`,
    }),
  });
  const { access_token: token } = (await tokens.json()) as { access_token: string };
  const client = new Client({ name: 'far-only', version: '0.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  const text = async (name: string, args: Record<string, unknown>) =>
    JSON.stringify(await client.callTool({ name, arguments: args }));
  const listed = await text('list_graphs', {});
  expect(listed).toContain('Far');
  expect(listed).not.toContain('Near');
  expect(listed).not.toContain('near-graph');
  const near = await text('select_graph', { graph: 'Near' });
  expect(near).toContain('GRAPH_NOT_FOUND');
  // The same answer as for a graph that does not exist: its existence is never confirmed.
  expect(near.replaceAll('Near', 'X')).toBe(await text('select_graph', { graph: 'X' }));
  await client.close();

  const { connections } = await get();
  expect(connections.find((c) => c.clientName === 'Chat For Far')?.graphs).toEqual(['Far']);
  await core.handlers['remote:revoke']({ id: connections.find((c) => c.clientName === 'Chat For Far')!.id });
}, 60_000);

it('off ends what waits and every connection, and closes the port; on again comes back on the same port', async () => {
  await signIn('Waiting When Off');
  await waitFor(async () => ((await get()).waiting.length === 1 ? true : undefined));
  const off: RemoteView = await core.handlers['remote:turn-off'](undefined);
  expect(off).toMatchObject({ on: false, publicUrl: PUBLIC, localPort: port, waiting: [], connections: [] });
  await waitFor(
    async () =>
      (await remote('/.well-known/oauth-protected-resource').catch(() => undefined)) ? undefined : true,
    30_000,
  );
  expect((await get()).listening).toBe(false);

  const again = await core.handlers['remote:turn-on']({ publicUrl: PUBLIC });
  expect(again.localPort).toBe(port);
  expect(await listeningView()).toMatchObject({ on: true, localPort: port, waiting: [] });
}, 90_000);
