/**
 * Connections' tokens over time (src-mcp/remote/grants.ts), with the clock in the test's hands:
 * a refresh token exchanged keeps working for the grace window (Claude's concurrent refreshes),
 * then giving it again ends the connection; what expired is tidied away, and registrations no
 * connection uses go after a day.
 */
import { describe, expect, it } from 'vitest';
import { grantOfAccess, issueTokens, newGrant, refreshGrant, tidy } from '../../../src-mcp/remote/grants.ts';
import type { RemoteState } from '../../../src-mcp/remote/remote-store.ts';

const life = { accessTtlMs: 7 * 86_400_000, refreshTtlMs: 90 * 86_400_000, graceMs: 120_000 };
const T0 = Date.parse('2026-12-01T00:00:00Z');

function stateWithGrant() {
  const state: RemoteState = { version: 1, enabled: true, clients: [], requests: [], grants: [] };
  const grant = newGrant(
    {
      clientId: 'c1',
      clientName: 'Client',
      verified: false,
      redirectUri: 'https://client.example/cb',
      resource: 'https://roam.test/mcp',
      scopes: ['mcp'],
      decision: {},
      codeSha256: 'x',
    },
    T0,
  );
  state.grants.push(grant);
  return { state, first: issueTokens(grant, life, T0) };
}

describe('refresh tokens rotate with a grace window', () => {
  it('the same token twice within the grace gives two working pairs', () => {
    const { state, first } = stateWithGrant();
    const a = refreshGrant(state, first.refresh_token, 'c1', life, T0 + 1000);
    const b = refreshGrant(state, first.refresh_token, 'c1', life, T0 + 60_000);
    expect('issued' in a && 'issued' in b).toBe(true);
    if (!('issued' in a) || !('issued' in b)) return;
    expect(grantOfAccess(state, a.issued.access_token, T0 + 61_000)).toBeDefined();
    expect(grantOfAccess(state, b.issued.access_token, T0 + 61_000)).toBeDefined();
  });

  it('the same token after the grace ends the connection: every token of it stops', () => {
    const { state, first } = stateWithGrant();
    const a = refreshGrant(state, first.refresh_token, 'c1', life, T0 + 1000);
    if (!('issued' in a)) throw new Error('first refresh refused');
    const late = refreshGrant(state, first.refresh_token, 'c1', life, T0 + 1000 + life.graceMs + 1);
    expect(late).toEqual({ refused: expect.stringContaining('already used') });
    expect(state.grants).toEqual([]);
    expect(grantOfAccess(state, a.issued.access_token, T0 + 2000)).toBeUndefined();
  });

  it('another client presenting the token gets nothing, and the token still works for its own', () => {
    const { state, first } = stateWithGrant();
    expect(refreshGrant(state, first.refresh_token, 'c2', life, T0)).toEqual({
      refused: expect.stringContaining('another client'),
    });
    expect('issued' in refreshGrant(state, first.refresh_token, 'c1', life, T0)).toBe(true);
  });

  it('an access token past its lifetime is not one', () => {
    const { state, first } = stateWithGrant();
    expect(grantOfAccess(state, first.access_token, T0 + life.accessTtlMs - 1)).toBeDefined();
    expect(grantOfAccess(state, first.access_token, T0 + life.accessTtlMs)).toBeUndefined();
  });
});

describe('tidy', () => {
  it('drops expired sign-ins, connections with no live token, and registrations unused for a day', () => {
    const { state } = stateWithGrant();
    const iso = (ms: number) => new Date(ms).toISOString();
    state.clients.push(
      { clientId: 'c1', name: 'in use', redirectUris: [], createdAt: iso(T0 - 40 * 86_400_000) },
      { clientId: 'idle', name: 'never used', redirectUris: [], createdAt: iso(T0 - 86_400_001) },
      { clientId: 'new', name: 'just made', redirectUris: [], createdAt: iso(T0 - 1000) },
    );
    state.requests.push(
      { id: 'old', expiresAt: iso(T0 - 1) } as never,
      { id: 'live', expiresAt: iso(T0 + 1) } as never,
    );
    tidy(state, T0);
    expect(state.clients.map((c) => c.clientId)).toEqual(['c1', 'new']);
    expect(state.requests.map((r) => r.id)).toEqual(['live']);
    tidy(state, T0 + life.refreshTtlMs + 1);
    expect(state.grants).toEqual([]);
  });
});
