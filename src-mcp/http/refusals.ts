/**
 * Every answer the HTTP front gives before the MCP server sees a request: a JSON-RPC error whose
 * message says what happened and what to do, with the HTTP status a client acts on. Never the
 * key, not even a part of it.
 */
import { STATUS_CODES } from 'node:http';

export interface Refusal {
  status: number;
  code: number;
  reason: string;
  message: string;
  headers?: Record<string, string>;
}

export const refusals = {
  notFound: (path: string): Refusal => ({
    status: 404,
    code: -32601,
    reason: 'NOT_FOUND',
    message: `Nothing is served at ${path}: the MCP endpoint is /mcp.`,
  }),
  foreignHost: (host: string | undefined, port: number): Refusal => ({
    status: 403,
    code: -32003,
    reason: 'FOREIGN_HOST',
    message: `Refused: the Host header '${host ?? ''}' is not this server (127.0.0.1:${port} or localhost:${port}). Connect to http://127.0.0.1:${port}/mcp.`,
  }),
  foreignOrigin: (origin: string, port: number): Refusal => ({
    status: 403,
    code: -32003,
    reason: 'FOREIGN_ORIGIN',
    message: `Refused: requests from web pages (Origin '${origin}') are not served. Only MCP clients on this machine may connect to http://127.0.0.1:${port}/mcp.`,
  }),
  noKey: (): Refusal => ({
    status: 401,
    code: -32001,
    reason: 'KEY_REQUIRED',
    message:
      "A key is required: send it as 'Authorization: Bearer <key>'. Create one with 'roam-mcp key create NAME' (or in Roam Companion > AI clients) and put it in the client's config ('roam-mcp install <client>' does both).",
    headers: { 'www-authenticate': 'Bearer realm="roam-mcp"' },
  }),
  badKey: (): Refusal => ({
    status: 401,
    code: -32001,
    reason: 'KEY_INVALID',
    message:
      "The key is not valid: it is unknown or was revoked. Create a new one with 'roam-mcp key create NAME' (or in Roam Companion > AI clients) and put it in the client's config ('roam-mcp install <client>' does both).",
    headers: { 'www-authenticate': 'Bearer realm="roam-mcp", error="invalid_token"' },
  }),
  bodyTooLarge: (limit: number): Refusal => ({
    status: 413,
    code: -32013,
    reason: 'BODY_TOO_LARGE',
    message: `The request body is larger than ${limit} bytes, the most this server reads. Nothing was done; send a smaller request.`,
  }),
  tooManySessions: (limit: number): Refusal => ({
    status: 503,
    code: -32029,
    reason: 'TOO_MANY_SESSIONS',
    message: `This server already serves ${limit} chats, its limit. Close a chat (or end an idle client), then try again.`,
  }),
  keyShareUsed: (perKey: number, keyName: string): Refusal => ({
    status: 503,
    code: -32029,
    reason: 'TOO_MANY_SESSIONS_FOR_KEY',
    message: `The key '${keyName}' already holds ${perKey} chats, the most one key may hold here. Close one of its chats (or end an idle client) and try again, or give this client a key of its own ('roam-mcp key create NAME').`,
  }),
  tooManyConnections: (limit: number): Refusal => ({
    status: 503,
    code: -32029,
    reason: 'TOO_MANY_CONNECTIONS',
    message: `This server already has ${limit} open connections, its limit. Nothing was done; close idle connections, then try again.`,
    headers: { 'retry-after': '1' },
  }),
  requestTimeout: (headersMs: number, requestMs: number): Refusal => ({
    status: 408,
    code: -32000,
    reason: 'REQUEST_TIMEOUT',
    message: `The request arrived too slowly: its headers must arrive within ${headersMs} ms and all of it within ${requestMs} ms. Nothing was done; send it again.`,
  }),
  badRequest: (): Refusal => ({
    status: 400,
    code: -32600,
    reason: 'BAD_REQUEST',
    message: 'The request is not valid HTTP. Nothing was done.',
  }),
  rateLimited: (perMinute: number, retryAfterS: number): Refusal => ({
    status: 429,
    code: -32029,
    reason: 'RATE_LIMITED',
    message: `Too many requests with this key (more than ${perMinute} a minute). Nothing was done; try again in ${retryAfterS} s.`,
    headers: { 'retry-after': String(retryAfterS) },
  }),
  unknownSession: (): Refusal => ({
    status: 404,
    code: -32001,
    reason: 'SESSION_NOT_FOUND',
    message:
      'This session is unknown to the server (it ended, expired or the server restarted). Start a new session with initialize.',
  }),
  sessionRequired: (): Refusal => ({
    status: 400,
    code: -32600,
    reason: 'SESSION_REQUIRED',
    message: 'A 2025 request needs the Mcp-Session-Id of its session; start one with initialize.',
  }),
};

export function refusalBody(refusal: Refusal): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: null,
    error: { code: refusal.code, message: refusal.message, data: { reason: refusal.reason } },
  });
}

/** A refusal written straight to a socket, where Node gives no response object; the socket closes. */
export function rawRefusal(refusal: Refusal): string {
  const body = refusalBody(refusal);
  const headers = Object.entries({
    'content-type': 'application/json',
    connection: 'close',
    'content-length': String(Buffer.byteLength(body)),
    ...refusal.headers,
  });
  const head = headers.map(([name, value]) => `${name}: ${value}\r\n`).join('');
  return `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status] ?? ''}\r\n${head}\r\n${body}`;
}

export function refusalResponse(refusal: Refusal): Response {
  return new Response(refusalBody(refusal), {
    status: refusal.status,
    headers: { 'content-type': 'application/json', ...refusal.headers },
  });
}
