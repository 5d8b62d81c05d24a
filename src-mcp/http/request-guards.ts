/**
 * The checks every HTTP request passes before anything runs (docs/reliability.md, "Serving over
 * HTTP"), in this order: the path, the Host (DNS rebinding: a web page that made its own name
 * resolve to 127.0.0.1 still sends its own name), the Origin (a web page's request carries its
 * page's origin; MCP clients send none), then the key. The body cap and the rate limit follow in
 * src-mcp/http/http-hub.ts and src-mcp/http/rate-limit.ts.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { KeyEntry, KeyVerifier } from '../data-folder/key-store.ts';
import { refusals, type Refusal } from './refusals.ts';

export const MCP_PATH = '/mcp';

/** The names this server answers to, with its port: nothing else reaches it. */
export function ownAuthorities(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
}

export function checkAddress(
  path: string | undefined,
  headers: IncomingHttpHeaders,
  port: number,
): Refusal | undefined {
  const pathname = (path ?? '/').split('?')[0] ?? '/';
  const own = ownAuthorities(port);
  const host = headers.host?.toLowerCase();
  if (!host || !own.has(host)) return refusals.foreignHost(headers.host, port);
  const origin = headers.origin;
  if (origin !== undefined && !isOwnOrigin(origin, own)) return refusals.foreignOrigin(origin, port);
  if (pathname !== MCP_PATH) return refusals.notFound(pathname);
  return undefined;
}

function isOwnOrigin(origin: string, own: Set<string>): boolean {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' && own.has(url.host.toLowerCase());
  } catch {
    return false;
  }
}

/** `Authorization: Bearer <key>` checked against the key file as it is now. */
export async function checkKey(headers: IncomingHttpHeaders, keys: KeyVerifier): Promise<KeyEntry | Refusal> {
  const header = headers.authorization;
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  if (!match) return refusals.noKey();
  return (await keys.verify(match[1])) ?? refusals.badKey();
}
