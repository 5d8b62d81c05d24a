/**
 * The OAuth side of the tunnel's listener: the two discovery documents (RFC 9728 at the root and
 * at `/mcp`'s path, RFC 8414), the page that waits for the person, the token endpoint and
 * registration. Registration and sign-ins are rate-limited for every caller together: behind a
 * tunnel, every caller comes from one address.
 */
import { buildOAuthProtectedResourceMetadata, type OAuthMetadata } from '@modelcontextprotocol/server';
import { RateLimit } from '../http/rate-limit.ts';
import { SCOPES, type RemoteAuthority } from './authority.ts';
import { messagePage, waitingPage, type Page } from './consent-page.ts';
import { register } from './registration.ts';

const REGISTER_PER_MINUTE = 10;
const AUTHORIZE_PER_MINUTE = 30;
const TOKEN_PER_MINUTE = 60;
const CORS = { 'access-control-allow-origin': '*' };

export const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers },
  });
const pageResponse = (page: Page) => new Response(page.html, { status: page.status, headers: page.headers });
const redirect = (status: number, location: string) =>
  new Response(null, { status, headers: { location, 'cache-control': 'no-store' } });

/** RFC 8414, as MCP clients read it; no OpenID surface. */
function asMetadata(issuer: string): OAuthMetadata {
  return {
    issuer,
    authorization_endpoint: `${issuer}/authorize`,
    token_endpoint: `${issuer}/token`,
    registration_endpoint: `${issuer}/register`,
    scopes_supported: SCOPES,
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_methods_supported: ['none'],
    code_challenge_methods_supported: ['S256'],
    authorization_response_iss_parameter_supported: true,
    client_id_metadata_document_supported: true,
  } as OAuthMetadata;
}

type Route = (request: Request, body: Buffer) => Promise<Response>;

/** The routes by method and path; undefined for a path that is not OAuth's. */
export function oauthRoutes(authority: RemoteAuthority): (method: string, path: string) => Route | undefined {
  const { issuer, resource } = authority.names;
  const metadata = asMetadata(issuer);
  const protectedResource = buildOAuthProtectedResourceMetadata({
    oauthMetadata: metadata,
    resourceServerUrl: new URL(resource),
    scopesSupported: SCOPES,
    resourceName: 'Roam Companion',
  });
  const limits = {
    register: new RateLimit(REGISTER_PER_MINUTE),
    authorize: new RateLimit(AUTHORIZE_PER_MINUTE),
    token: new RateLimit(TOKEN_PER_MINUTE),
  };
  const limited =
    (what: keyof typeof limits, route: Route): Route =>
    async (request, body) => {
      const wait = limits[what].take(what);
      if (wait === 0) return route(request, body);
      const description = `Too many ${what} requests; try again in ${wait} s.`;
      return json(
        429,
        { error: 'temporarily_unavailable', error_description: description },
        { 'retry-after': String(wait) },
      );
    };
  const routes: Record<string, Route> = {
    'GET /.well-known/oauth-protected-resource': async () => json(200, protectedResource, CORS),
    'GET /.well-known/oauth-protected-resource/mcp': async () => json(200, protectedResource, CORS),
    'GET /.well-known/oauth-authorization-server': async () => json(200, metadata, CORS),
    'GET /authorize': limited('authorize', async (request) => {
      const outcome = await authority.authorize(new URL(request.url).searchParams);
      if (outcome.kind === 'redirect') return redirect(302, outcome.location);
      if (outcome.kind === 'error-page') return pageResponse(messagePage(outcome.status, outcome.message));
      return pageResponse(waitingPage(outcome.request, outcome.pageSecret));
    }),
    'POST /authorize/status': async (_request, body) => {
      const asked = (parseObject(body) ?? {}) as { request?: unknown; secret?: unknown };
      return json(200, await authority.poll(String(asked.request ?? ''), String(asked.secret ?? '')));
    },
    'POST /authorize/continue': async (_request, body) => {
      const form = new URLSearchParams(body.toString('utf8'));
      const outcome = await authority.poll(form.get('request') ?? '', form.get('secret') ?? '');
      if (outcome.status === 'done') return redirect(303, outcome.location);
      if (outcome.status === 'gone')
        return pageResponse(
          messagePage(410, 'This sign-in expired or was answered: start again from the app.'),
        );
      return pageResponse(
        messagePage(202, 'Not answered yet: answer at your computer, then go back and continue.'),
      );
    },
    'POST /token': limited('token', async (_request, body) => {
      const outcome = await authority.token(new URLSearchParams(body.toString('utf8')));
      return json(outcome.status, outcome.body, CORS);
    }),
    'POST /register': limited('register', async (_request, body) => {
      const outcome = await register(authority.store, parseObject(body));
      return json(outcome.status, outcome.body, CORS);
    }),
  };
  return (method, path) => routes[`${method} ${path}`];
}

function parseObject(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}
