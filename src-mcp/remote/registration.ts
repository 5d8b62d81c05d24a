/**
 * Dynamic client registration (RFC 7591): deprecated by the MCP authorization spec, still what
 * ChatGPT and older clients use. Public clients only (`none`: no secret is issued); a redirect is
 * https, or http on a loopback address for a client on this machine. What a client says of
 * itself is its own claim: the page and the machine show it unverified. The listener rate-limits
 * this endpoint; registrations never used are removed after a day (src-mcp/remote/grants.ts, tidy).
 */
import { plainLine } from '../../src-shared/person-text.ts';
import { MAX_CLIENTS, tidy } from './grants.ts';
import { newId, type RemoteStore } from './remote-store.ts';

export type RegistrationOutcome = { status: 201 | 400 | 503; body: Record<string, unknown> };

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** A redirect this server sends answers to: https, or http on loopback (a client on this machine). */
export function usableRedirect(text: unknown): text is string {
  if (typeof text !== 'string' || !URL.canParse(text)) return false;
  const url = new URL(text);
  if (url.hash) return false;
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname));
}

const invalid = (field: string, description: string): RegistrationOutcome => ({
  status: 400,
  body: { error: field, error_description: description },
});

export async function register(
  store: RemoteStore,
  body: unknown,
  now = Date.now(),
): Promise<RegistrationOutcome> {
  if (typeof body !== 'object' || body === null)
    return invalid('invalid_client_metadata', 'The body must be a JSON object.');
  const meta = body as Record<string, unknown>;
  const uris = meta.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0 || uris.length > 8 || !uris.every(usableRedirect))
    return invalid(
      'invalid_redirect_uri',
      'redirect_uris must list 1 to 8 https addresses (or http on 127.0.0.1, [::1] or localhost), without fragments.',
    );
  const grantTypes = Array.isArray(meta.grant_types) ? meta.grant_types : ['authorization_code'];
  if (!grantTypes.every((g) => g === 'authorization_code' || g === 'refresh_token'))
    return invalid(
      'invalid_client_metadata',
      'Only the authorization_code and refresh_token grants are served.',
    );
  // A stranger's name, shown on the page and at the machine: one plain line, no direction tricks.
  const named = typeof meta.client_name === 'string' ? plainLine(meta.client_name, 80) : '';
  const name = named || 'Unnamed client';
  const clientId = `dcr-${newId()}${newId()}`;
  const createdAt = new Date(now).toISOString();
  const added = await store.update((state) => {
    tidy(state, now);
    if (state.clients.length >= MAX_CLIENTS) return false;
    state.clients.push({ clientId, name, redirectUris: uris as string[], createdAt });
    return true;
  });
  if (!added)
    return {
      status: 503,
      body: {
        error: 'temporarily_unavailable',
        error_description: `${MAX_CLIENTS} registrations are kept at most; unused ones go after a day.`,
      },
    };
  return {
    status: 201,
    body: {
      client_id: clientId,
      client_id_issued_at: Math.floor(now / 1000),
      client_name: name,
      redirect_uris: uris,
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    },
  };
}
