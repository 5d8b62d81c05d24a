/**
 * The OAuth steps of a remote sign-in, by hand (raw HTTP), for the refusal tests: registration,
 * the waiting page, the answer at the machine (`roam-mcp remote approve`, the built bin), the page's
 * own question, and the token endpoint.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { REDIRECT, type RemoteWorld } from './remote-world.ts';

export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export async function registerClient(
  fetcher: typeof fetch,
  base: string,
  name = 'Raw Client',
): Promise<string> {
  const response = await fetcher(`${base}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: name,
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
    }),
  });
  if (response.status !== 201) throw new Error(`register: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { client_id: string }).client_id;
}

export function authorizeUrl(base: string, params: Record<string, string | undefined>): string {
  const url = new URL(`${base}/authorize`);
  for (const [name, value] of Object.entries(params))
    if (value !== undefined) url.searchParams.set(name, value);
  return url.href;
}

export const get = (fetcher: typeof fetch, url: string) => fetcher(url, { redirect: 'manual' });

/** The waiting page's request id and the secret only it holds. */
export function pageFields(html: string): { request: string; secret: string } {
  const request = /name="request" value="([^"]+)"/.exec(html)?.[1];
  const secret = /name="secret" value="([^"]+)"/.exec(html)?.[1];
  if (!request || !secret) throw new Error(`not the waiting page: ${html.slice(0, 300)}`);
  return { request, secret };
}

export async function poll(fetcher: typeof fetch, base: string, fields: { request: string; secret: string }) {
  const response = await fetcher(`${base}/authorize/status`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(fields),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`status answered ${response.status}: ${text}`);
  return JSON.parse(text) as { status: string; code?: string; location?: string };
}

export async function token(fetcher: typeof fetch, base: string, form: Record<string, string>) {
  const response = await fetcher(`${base}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

export interface SignedIn {
  clientId: string;
  code: string;
  verifier: string;
  tokens: Record<string, string>;
  /** What `roam-mcp remote approve` printed. */
  approved: string;
}

/** A whole sign-in by hand: page, approval at the machine, the page's answer, the code exchanged. */
export async function signIn(
  world: RemoteWorld,
  fetcher: typeof fetch,
  base: string,
  options: { clientId?: string; approve?: string[]; resource?: string; scope?: string } = {},
): Promise<SignedIn> {
  const clientId = options.clientId ?? (await registerClient(fetcher, base));
  const { verifier, challenge } = pkce();
  const page = await get(
    fetcher,
    authorizeUrl(base, {
      client_id: clientId,
      redirect_uri: REDIRECT,
      response_type: 'code',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 'st-1',
      resource: options.resource,
      scope: options.scope,
    }),
  );
  if (page.status !== 200) throw new Error(`authorize: ${page.status} ${page.headers.get('location')}`);
  const fields = pageFields(await page.text());
  const approved = await world.bin(['remote', 'approve', fields.request, ...(options.approve ?? [])]);
  if (approved.code !== 0) throw new Error(`approve: ${approved.stderr}`);
  const answer = await poll(fetcher, base, fields);
  const code = new URL(answer.location ?? 'x:').searchParams.get('code');
  if (!code) throw new Error(`no code: ${JSON.stringify(answer)}`);
  const exchanged = await token(fetcher, base, {
    grant_type: 'authorization_code',
    code,
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_verifier: verifier,
  });
  if (exchanged.status !== 200) throw new Error(`token: ${JSON.stringify(exchanged.body)}`);
  return { clientId, code, verifier, tokens: exchanged.body, approved: approved.stdout };
}

/** An MCP request with this bearer token: its status and WWW-Authenticate. */
export async function mcpStatus(fetcher: typeof fetch, url: string, bearer?: string, host?: string) {
  const response = await fetcher(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
      ...(host ? { host } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: {} }),
  });
  await response.text();
  return { status: response.status, challenge: response.headers.get('www-authenticate') ?? '' };
}

/** The v2 SDK client on 2026-07-28 through the tunnel with an access token, as a remote chat. */
export async function remoteChat(
  world: RemoteWorld,
  accessToken: string,
  options: { name: string; capabilities?: Record<string, unknown> },
) {
  const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
  const transport = new StreamableHTTPClientTransport(new URL(`${world.publicUrl}/mcp`), {
    fetch: world.fetch,
    requestInit: { headers: { Authorization: `Bearer ${accessToken}` } },
  });
  const client = new Client(
    { name: options.name, version: '1.0.0' },
    {
      ...(options.capabilities ? { capabilities: options.capabilities } : {}),
      versionNegotiation: { mode: { pin: '2026-07-28' } },
    },
  );
  await client.connect(transport);
  return {
    client,
    call: async (name: string, args: Record<string, unknown>) =>
      (await client.callTool({ name, arguments: args })) as CallToolResult,
    close: () => client.close(),
  };
}

/** A page's uid in an emulator graph, by title, or null. */
export const pageUid = (world: RemoteWorld, graph: string, title: string) =>
  world.emulator
    .graph(graph)
    .run('data.q', ['[:find ?u . :in $ ?t :where [?p :node/title ?t] [?p :block/uid ?u]]', title]) as
    string | null;
