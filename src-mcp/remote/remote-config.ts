/**
 * Remote access's settings (docs/remote.md): the public URL the tunnel answers at, from which the
 * issuer and the one resource every token is for follow, and the lifetimes. Access tokens live
 * days, not an hour: Claude's connectors refresh unreliably, and every request checks the token
 * against the file anyway, so a revoke is instant.
 */
export interface RemoteSettings {
  /** `https://HOST` (an origin: no path, query or fragment). */
  publicUrl: string;
  /** The loopback port the tunnel points at; 0 picks a free one. */
  port: number;
  /** Access tokens' lifetime (default ACCESS_TTL_DAYS days). */
  accessTtlMs: number;
  refreshTtlMs: number;
  /** How long a refresh token already exchanged still works (concurrent refreshes). */
  graceMs: number;
  /** Tests only (ROAM_MCP_TEST_CIMD_LOOPBACK=1): a metadata document may be on a loopback address. */
  admitLoopbackDocuments: boolean;
}

export const ACCESS_TTL_DAYS = 7;
const DAY_MS = 24 * 60 * 60_000;
export const REFRESH_TTL_MS = 90 * DAY_MS;
export const GRACE_MS = 2 * 60_000;
/** The test-only variable that admits loopback metadata documents; the product never sets it. */
export const TEST_CIMD_LOOPBACK_ENV = 'ROAM_MCP_TEST_CIMD_LOOPBACK';

/** The public URL as given, checked; or what is wrong with it, in words that say what to do. */
export function parsePublicUrl(text: string): { url: URL } | { error: string } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return {
      error: `--public-url ${text} is not a URL: give the tunnel's address, e.g. https://roam.example.ts.net.`,
    };
  }
  if (url.protocol !== 'https:')
    return {
      error: `--public-url must be https (claude.ai and ChatGPT reach only HTTPS servers), not ${url.protocol.slice(0, -1)}.`,
    };
  if (url.username || url.password || url.search || url.hash || (url.pathname !== '/' && url.pathname !== ''))
    return {
      error: `--public-url takes the tunnel's origin only (https://HOST[:PORT]), without a path: ${text}.`,
    };
  return { url };
}

/** The names every part agrees on: issuer (RFC 8414, RFC 9207 `iss`) and resource (RFC 8707). */
export function remoteNames(publicUrl: string): { issuer: string; resource: string; origin: string } {
  const origin = new URL(publicUrl).origin;
  return { issuer: origin, resource: `${origin}/mcp`, origin };
}

export function remoteSettings(
  publicUrl: string,
  port: number,
  accessTtlDays: number | undefined,
  env: NodeJS.ProcessEnv,
): RemoteSettings {
  return {
    publicUrl: new URL(publicUrl).origin,
    port,
    accessTtlMs: Math.round((accessTtlDays ?? ACCESS_TTL_DAYS) * DAY_MS),
    refreshTtlMs: REFRESH_TTL_MS,
    graceMs: GRACE_MS,
    admitLoopbackDocuments: env[TEST_CIMD_LOOPBACK_ENV] === '1',
  };
}
