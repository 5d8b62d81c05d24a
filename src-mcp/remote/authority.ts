/**
 * The authorization server's decisions, without HTTP (src-mcp/remote/remote-listener.ts serves
 * them): the authorization code grant with PKCE S256 only, for the one resource (RFC 8707), public
 * clients only (a client ID metadata document, or a registration), and a consent that is never
 * given here: the request waits until the person answers at the machine (`roam-mcp remote
 * approve`, the tray), then the page that waits collects a code. Codes live only in this memory,
 * single-use, for CODE_TTL_MS; a code presented twice ends the connection it gave (RFC 6749 4.1.2).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { OAuthError, OAuthErrorCode, type AuthInfo } from '@modelcontextprotocol/server';
import { ClientLookup, ClientRefused, type KnownClient } from './client-lookup.ts';
import {
  grantOfAccess,
  issueTokens,
  MAX_GRANTS,
  newGrant,
  refreshGrant,
  tidy,
  type IssuedTokens,
} from './grants.ts';
import { remoteNames, type RemoteSettings } from './remote-config.ts';
import {
  newId,
  newSecret,
  sha256,
  type Grant,
  type RemoteStore,
  type WaitingRequest,
} from './remote-store.ts';

export const SCOPES = ['mcp'];
const CODE_TTL_MS = 60_000;
export const REQUEST_TTL_MS = 10 * 60_000;
export const MAX_WAITING = 5;
/** How often a connection's last use is written (not at every request). */
const USED_EVERY_MS = 60_000;

interface CodeEntry {
  request: WaitingRequest;
  expiresAt: number;
}

/** What /authorize answers: the waiting page, a page saying what is wrong, or a redirect back. */
export type AuthorizeOutcome =
  | { kind: 'page'; request: WaitingRequest; pageSecret: string }
  | { kind: 'error-page'; status: number; message: string }
  | { kind: 'redirect'; location: string };

export type PollOutcome =
  { status: 'waiting'; code: string } | { status: 'done'; location: string } | { status: 'gone' };

export type TokenOutcome =
  | { status: 200; body: IssuedTokens }
  | { status: 400 | 401; body: { error: string; error_description: string } };

const fail = (error: string, description: string, status: 400 | 401 = 400): TokenOutcome => ({
  status,
  body: { error, error_description: description },
});

const s256 = (verifier: string) => createHash('sha256').update(verifier, 'ascii').digest('base64url');

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A short code a person reads and matches: no 0/O, 1/I. */
function matchingCode(): string {
  const letters = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = newSecret('').slice(0, 6);
  const pick = [...bytes].map((c) => letters[c.charCodeAt(0) % letters.length]).join('');
  return `${pick.slice(0, 3)}-${pick.slice(3)}`;
}

export class RemoteAuthority {
  readonly names: ReturnType<typeof remoteNames>;
  private readonly codes = new Map<string, CodeEntry>();
  private readonly spentCodes = new Map<string, number>();
  private readonly lookup: ClientLookup;

  constructor(
    readonly settings: RemoteSettings,
    readonly store: RemoteStore,
    private readonly now: () => number = Date.now,
  ) {
    this.names = remoteNames(settings.publicUrl);
    this.lookup = new ClientLookup(settings.admitLoopbackDocuments, now);
  }

  /** The redirect back to the client, with `iss` (RFC 9207) always. */
  private back(redirectUri: string, params: Record<string, string | undefined>): string {
    const url = new URL(redirectUri);
    for (const [name, value] of Object.entries({ ...params, iss: this.names.issuer }))
      if (value !== undefined) url.searchParams.set(name, value);
    return url.href;
  }

  async authorize(query: URLSearchParams): Promise<AuthorizeOutcome> {
    const clientId = query.get('client_id');
    if (!clientId)
      return { kind: 'error-page', status: 400, message: 'The request names no client (client_id).' };
    const state = await this.store.read();
    let client: KnownClient;
    try {
      client = await this.lookup.find(clientId, state.clients);
    } catch (error) {
      if (error instanceof ClientRefused) return { kind: 'error-page', status: 400, message: error.message };
      throw error;
    }
    const redirectUri =
      query.get('redirect_uri') ?? (client.redirectUris.length === 1 ? client.redirectUris[0] : undefined);
    if (!redirectUri || !client.redirectUris.includes(redirectUri))
      return {
        kind: 'error-page',
        status: 400,
        message: `The redirect address ${redirectUri ?? '(none)'} is not one ${client.name} registered: nothing was sent there.`,
      };
    const back = (error: string, description: string) => ({
      kind: 'redirect' as const,
      location: this.back(redirectUri, {
        error,
        error_description: description,
        state: query.get('state') ?? undefined,
      }),
    });
    if (query.get('response_type') !== 'code')
      return back(
        'unsupported_response_type',
        'Only the authorization code flow (response_type=code) is served.',
      );
    const challenge = query.get('code_challenge');
    if (!challenge || query.get('code_challenge_method') !== 'S256')
      return back(
        'invalid_request',
        'PKCE with S256 is required (code_challenge and code_challenge_method=S256).',
      );
    const resource = query.get('resource') ?? this.names.resource;
    if (!this.isOurResource(resource))
      return back('invalid_target', `This server issues tokens only for ${this.names.resource}.`);
    return this.openRequest(client, query, { redirectUri, challenge, resource }, back);
  }

  private isOurResource(resource: string): boolean {
    return resource.replace(/\/$/, '') === this.names.resource;
  }

  private async openRequest(
    client: KnownClient,
    query: URLSearchParams,
    fields: { redirectUri: string; challenge: string; resource: string },
    back: (error: string, description: string) => AuthorizeOutcome,
  ): Promise<AuthorizeOutcome> {
    const asked = (query.get('scope') ?? '').split(' ').filter(Boolean);
    const scopes = asked.length === 0 ? SCOPES : asked.filter((s) => SCOPES.includes(s));
    const pageSecret = newSecret('');
    const now = this.now();
    const request: WaitingRequest = {
      id: newId(),
      code: matchingCode(),
      clientId: client.clientId,
      clientName: client.name,
      verified: client.verified,
      redirectUri: fields.redirectUri,
      scopes,
      resource: this.names.resource,
      ...(query.get('state') ? { state: query.get('state') as string } : {}),
      codeChallenge: fields.challenge,
      pageHash: sha256(pageSecret),
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(now + REQUEST_TTL_MS).toISOString(),
      status: 'waiting',
    };
    const opened = await this.store.update((state) => {
      tidy(state, now);
      if (state.requests.filter((r) => r.status === 'waiting').length >= MAX_WAITING) return false;
      state.requests.push(request);
      const own = state.clients.find((c) => c.clientId === client.clientId);
      if (own) own.usedAt = request.createdAt;
      return true;
    });
    if (!opened)
      return back(
        'temporarily_unavailable',
        `${MAX_WAITING} sign-ins already wait for an answer at the machine; answer or let them expire, then try again.`,
      );
    return { kind: 'page', request, pageSecret };
  }

  /** The page asks whether the person answered; only the page holding the secret gets the answer. */
  async poll(requestId: string, pageSecret: string): Promise<PollOutcome> {
    const now = this.now();
    const seen = (await this.store.read()).requests.find((r) => r.id === requestId);
    if (!seen || !sameSecret(seen.pageHash, sha256(pageSecret)) || Date.parse(seen.expiresAt) <= now)
      return { status: 'gone' };
    if (seen.status === 'waiting') return { status: 'waiting', code: seen.code };
    const request = await this.store.update((state) => {
      const found = state.requests.find((r) => r.id === requestId && r.status !== 'waiting');
      state.requests = state.requests.filter((r) => r !== found);
      return found;
    });
    if (!request) return { status: 'gone' };
    if (request.status === 'denied')
      return {
        status: 'done',
        location: this.back(request.redirectUri, {
          error: 'access_denied',
          error_description: 'The person declined at their machine.',
          state: request.state,
        }),
      };
    const code = newSecret('');
    this.codes.set(sha256(code), { request, expiresAt: now + CODE_TTL_MS });
    return { status: 'done', location: this.back(request.redirectUri, { code, state: request.state }) };
  }

  async token(form: URLSearchParams): Promise<TokenOutcome> {
    const clientId = form.get('client_id');
    if (!clientId)
      return fail(
        'invalid_client',
        'client_id is required (public clients: token_endpoint_auth_method none).',
        401,
      );
    const grantType = form.get('grant_type');
    if (grantType === 'authorization_code') return this.exchangeCode(form, clientId);
    if (grantType === 'refresh_token') return this.refresh(form, clientId);
    return fail('unsupported_grant_type', 'Only authorization_code and refresh_token are served.');
  }

  private async exchangeCode(form: URLSearchParams, clientId: string): Promise<TokenOutcome> {
    const now = this.now();
    const hash = sha256(form.get('code') ?? '');
    const entry = this.codes.get(hash);
    this.codes.delete(hash);
    if (!entry || entry.expiresAt <= now) {
      if (this.spentCodes.has(hash)) await this.endGrantsOfCode(hash);
      return fail('invalid_grant', 'The code is unknown, expired or already used: sign in again.');
    }
    this.spentCodes.set(hash, now + REQUEST_TTL_MS);
    const { request } = entry;
    if (request.clientId !== clientId) return fail('invalid_grant', 'The code was issued to another client.');
    if (form.get('redirect_uri') !== request.redirectUri)
      return fail('invalid_grant', 'redirect_uri differs from the one the code was issued for.');
    const verifier = form.get('code_verifier');
    if (!verifier || !sameSecret(s256(verifier), request.codeChallenge))
      return fail('invalid_grant', 'The PKCE code_verifier does not match the code_challenge.');
    const resource = form.get('resource');
    if (resource !== null && !this.isOurResource(resource))
      return fail('invalid_target', `This server issues tokens only for ${this.names.resource}.`);
    return this.store.update((state): TokenOutcome => {
      tidy(state, now);
      if (state.grants.length >= MAX_GRANTS)
        return fail(
          'invalid_grant',
          `${MAX_GRANTS} connections exist, the most kept: revoke one at the machine.`,
        );
      const grant = newGrant(
        {
          clientId: request.clientId,
          clientName: request.clientName,
          verified: request.verified,
          redirectUri: request.redirectUri,
          resource: request.resource,
          scopes: request.scopes,
          decision: request.decision ?? {},
          codeSha256: hash,
        },
        now,
      );
      state.grants.push(grant);
      return { status: 200, body: issueTokens(grant, this.settings, now) };
    });
  }

  private async endGrantsOfCode(hash: string): Promise<void> {
    await this.store.update((state) => {
      state.grants = state.grants.filter((g) => g.codeSha256 !== hash);
    });
  }

  private async refresh(form: URLSearchParams, clientId: string): Promise<TokenOutcome> {
    const resource = form.get('resource');
    if (resource !== null && !this.isOurResource(resource))
      return fail('invalid_target', `This server issues tokens only for ${this.names.resource}.`);
    const now = this.now();
    return this.store.update((state): TokenOutcome => {
      const outcome = refreshGrant(state, form.get('refresh_token') ?? '', clientId, this.settings, now);
      if ('refused' in outcome) return fail('invalid_grant', outcome.refused);
      if (!this.isOurResource(outcome.grant.resource))
        return fail(
          'invalid_grant',
          `This connection was for ${outcome.grant.resource}; the public URL changed: sign in again.`,
        );
      return { status: 200, body: outcome.issued };
    });
  }

  /** The SDK's bearer check calls this for every MCP request: the file as it is now decides. */
  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const now = this.now();
    const found = grantOfAccess(await this.store.read(), token, now);
    if (!found)
      throw new OAuthError(OAuthErrorCode.InvalidToken, 'The access token is unknown, expired or revoked.');
    const { grant } = found;
    if (!grant.usedAt || now - Date.parse(grant.usedAt) > USED_EVERY_MS) void this.noteUse(grant.id, now);
    return {
      token,
      clientId: grant.clientId,
      scopes: grant.scopes,
      expiresAt: Math.floor(Date.parse(found.token.expiresAt) / 1000),
      resource: new URL(grant.resource),
      extra: { grant: grant.id },
    };
  }

  private async noteUse(grantId: string, now: number): Promise<void> {
    await this.store
      .update((state) => {
        const grant = state.grants.find((g: Grant) => g.id === grantId);
        if (grant) grant.usedAt = new Date(now).toISOString();
      })
      .catch(() => {});
  }

  /** Drops codes past their time (the listener's sweep). */
  sweep(): void {
    const now = this.now();
    for (const [hash, entry] of this.codes) if (entry.expiresAt <= now) this.codes.delete(hash);
    for (const [hash, until] of this.spentCodes) if (until <= now) this.spentCodes.delete(hash);
  }
}
