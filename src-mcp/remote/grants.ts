/**
 * Connections and their tokens, as changes to the remote state (src-mcp/remote/remote-store.ts).
 * Refresh tokens rotate: each exchange gives a new pair, and the token exchanged keeps working
 * for the grace window, because Claude's connectors refresh concurrently with one token; one used
 * again after that is a copy in someone else's hands (OAuth 2.1, 4.3.1): the connection ends.
 */
import { newId, newSecret, sha256, type Grant, type RemoteState, type StoredToken } from './remote-store.ts';

export const ACCESS_PREFIX = 'roam-remote-at-';
export const REFRESH_PREFIX = 'roam-remote-rt-';
/** Tokens of one connection alive at once (a client that refreshes often keeps a few). */
const MAX_TOKENS = 4;
export const MAX_GRANTS = 32;
export const MAX_CLIENTS = 64;
const DAY_MS = 24 * 60 * 60_000;

export interface Lifetimes {
  accessTtlMs: number;
  refreshTtlMs: number;
  graceMs: number;
}

export interface IssuedTokens {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

const iso = (ms: number) => new Date(ms).toISOString();
const at = (text: string | undefined) => (text ? Date.parse(text) : 0);

/** A new pair for the grant; the oldest beyond MAX_TOKENS go. */
export function issueTokens(grant: Grant, life: Lifetimes, now: number): IssuedTokens {
  const access = newSecret(ACCESS_PREFIX);
  const refresh = newSecret(REFRESH_PREFIX);
  grant.accessTokens = [
    ...grant.accessTokens,
    { sha256: sha256(access), expiresAt: iso(now + life.accessTtlMs) },
  ].slice(-MAX_TOKENS);
  grant.refreshTokens = [
    ...grant.refreshTokens,
    { sha256: sha256(refresh), issuedAt: iso(now), expiresAt: iso(now + life.refreshTtlMs) },
  ].slice(-MAX_TOKENS);
  return {
    access_token: access,
    token_type: 'Bearer',
    expires_in: Math.floor(life.accessTtlMs / 1000),
    refresh_token: refresh,
    scope: grant.scopes.join(' '),
  };
}

export function newGrant(
  fields: Omit<Grant, 'id' | 'createdAt' | 'accessTokens' | 'refreshTokens'>,
  now: number,
): Grant {
  return { id: newId(), createdAt: iso(now), accessTokens: [], refreshTokens: [], ...fields };
}

/** The grant an access token belongs to, while it is valid. */
export function grantOfAccess(
  state: RemoteState,
  token: string,
  now: number,
): { grant: Grant; token: StoredToken } | undefined {
  const hash = sha256(token);
  for (const grant of state.grants) {
    const found = grant.accessTokens.find((t) => t.sha256 === hash);
    if (found) return at(found.expiresAt) > now ? { grant, token: found } : undefined;
  }
  return undefined;
}

export type RefreshOutcome = { issued: IssuedTokens; grant: Grant } | { refused: string };

/** One refresh_token grant, as a change to `state`. */
export function refreshGrant(
  state: RemoteState,
  token: string,
  clientId: string,
  life: Lifetimes,
  now: number,
): RefreshOutcome {
  const hash = sha256(token);
  const grant = state.grants.find((g) => g.refreshTokens.some((t) => t.sha256 === hash));
  const stored = grant?.refreshTokens.find((t) => t.sha256 === hash);
  if (!grant || !stored)
    return { refused: 'The refresh token is unknown, expired or revoked: sign in again.' };
  if (grant.clientId !== clientId) return { refused: 'The refresh token was issued to another client.' };
  if (at(stored.expiresAt) <= now) return { refused: 'The refresh token expired: sign in again.' };
  if (stored.usedAt && now - at(stored.usedAt) > life.graceMs) {
    state.grants = state.grants.filter((g) => g !== grant);
    return {
      refused:
        'The refresh token was already used: the connection was ended. Approve it again at the machine.',
    };
  }
  // Kept, marked used: within the grace it still works, after it it gives the copy away.
  stored.usedAt ??= iso(now);
  return { issued: issueTokens(grant, life, now), grant };
}

/** Drops what expired: waiting requests, tokens, connections with none left, registrations unused. */
export function tidy(state: RemoteState, now: number): void {
  state.requests = state.requests.filter((r) => at(r.expiresAt) > now);
  for (const grant of state.grants) {
    grant.accessTokens = grant.accessTokens.filter((t) => at(t.expiresAt) > now);
    grant.refreshTokens = grant.refreshTokens.filter((t) => at(t.expiresAt) > now);
  }
  state.grants = state.grants.filter((g) => g.accessTokens.length > 0 || g.refreshTokens.length > 0);
  const inUse = new Set(state.grants.map((g) => g.clientId));
  state.clients = state.clients.filter((c) => {
    if (inUse.has(c.clientId)) return true;
    const last = at(c.usedAt ?? c.createdAt);
    return now - last < (c.usedAt ? 30 * DAY_MS : DAY_MS);
  });
}
