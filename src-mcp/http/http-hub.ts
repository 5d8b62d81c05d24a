/**
 * One roam-mcp serving every local MCP client over Streamable HTTP at http://127.0.0.1:PORT/mcp
 * (docs/clients.md, docs/reliability.md "Serving over HTTP"). Both eras through the SDK's own
 * pieces: 2026-07-28 requests through `createMcpHandler` (one server instance per request), 2025
 * sessions through one `WebStandardStreamableHTTPServerTransport` and server instance per session,
 * routed by the SDK's `isLegacyRequest`. Before either sees a request: Host, Origin, path, key,
 * rate limit, body cap, chat cap (src-mcp/http/request-guards.ts, refusals.ts). Each request runs
 * in its chat's scope (src-mcp/http/chats.ts); the graphs, tokens, link indexes and journal are
 * the process's, shared by every chat.
 */
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpHandler, isLegacyRequest, type AuthInfo } from '@modelcontextprotocol/server';
import type { ChatScope } from '../contract/chat-scope.ts';
import type { RoamMcpServer } from '../server/server.ts';
import { log } from '../contract/log.ts';
import { StartupError } from '../contract/startup-error.ts';
import { LOOPBACK_HOSTS, notLoopback } from './address.ts';
import { Chats } from './chats.ts';
import { legacySessions } from './legacy-sessions.ts';
import { sendWebResponse, webRequest } from './node-bridge.ts';
import { DEFAULT_LIMITS, type HubLimits } from './limits.ts';
import type { KeyEntry, KeyVerifier } from '../data-folder/key-store.ts';
import { RateLimit } from './rate-limit.ts';
import { guardedServer } from './guarded-server.ts';
import { refusalBody, refusalResponse, refusals, type Refusal } from './refusals.ts';
import { checkAddress, checkKey, MCP_PATH } from './request-guards.ts';

export interface HubOptions {
  mcp: RoamMcpServer;
  keys: KeyVerifier;
  /** 0 picks a free port. */
  port: number;
  /** Loopback only (LOOPBACK_HOSTS). */
  host: string;
  limits?: Partial<HubLimits>;
  /** Told the number of chats served each time it changes. */
  onChats?: (count: number) => void;
}

export interface HttpHub {
  url: string;
  port: number;
  chats(): number;
  close(): Promise<void>;
}

/** What rides from the front to the 2026-07-28 handler in the request's pass-through `authInfo`. */
interface Passed {
  key: KeyEntry;
  chat: ChatScope;
}

export async function startHttpHub(options: HubOptions): Promise<HttpHub> {
  if (!LOOPBACK_HOSTS.includes(options.host)) throw new Error(notLoopback(options.host));
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const chats = new Chats({ max: limits.maxChats, perKey: limits.maxChatsPerKey, idleMs: limits.idleMs });
  if (options.onChats) chats.onCount = options.onChats;
  const rate = new RateLimit(limits.ratePerMinute);
  // A revoked key's answers in flight (notification streams included) end now, with its chats.
  const open = new Map<string, Set<ServerResponse>>();
  options.keys.onRevoked = (names) => {
    for (const name of names) for (const res of open.get(name) ?? []) res.destroy();
    void chats.endKeys(names);
  };
  const onerror = (error: Error) => log('warn', `HTTP: ${error.message}`);

  const modern = createMcpHandler(({ authInfo }) => options.mcp.serverFor('modern', chatOf(authInfo)), {
    legacy: 'reject',
    maxRequestBodySize: limits.maxBodyBytes,
    onerror,
  });
  const stopModernNotices = options.mcp.notifyTo(modern.notify);

  const legacy = legacySessions(options.mcp, chats, limits);

  // `parsed`: the body parsed once here (undefined when it is not JSON: the SDK then reads it and says so).
  async function serveMcp(request: Request, key: KeyEntry, parsed: unknown): Promise<Response> {
    if (await isLegacyRequest(request, parsed, { maxRequestBodySize: limits.maxBodyBytes }))
      return legacy(request, key, parsed);
    const chat = chats.modern(key, request.headers.get('mcp-session-id'));
    if (chat === 'server') return refusalResponse(refusals.tooManySessions(limits.maxChats));
    if (chat === 'key') return refusalResponse(refusals.keyShareUsed(limits.maxChatsPerKey, key.name));
    return modern.fetch(request, {
      authInfo: passOn({ key, chat: chat.scope }),
      ...(parsed === undefined ? {} : { parsedBody: parsed }),
    });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const refused = checkAddress(req.url, req.headers, port);
    if (refused) return refuse(res, refused);
    const key = await checkKey(req.headers, options.keys);
    if ('status' in key) return refuse(res, key);
    const answering = open.get(key.name) ?? new Set<ServerResponse>();
    open.set(key.name, answering.add(res));
    res.once('close', () => answering.delete(res));
    const wait = rate.take(key.name);
    if (wait > 0) return refuse(res, refusals.rateLimited(limits.ratePerMinute, wait));
    const body = await readBody(req, limits.maxBodyBytes);
    if (body === 'too-large') return refuse(res, refusals.bodyTooLarge(limits.maxBodyBytes), true);
    // The body is read once, here, under the cap; the SDK reads it from this copy.
    const request = webRequest(req, res, body, `http://127.0.0.1:${port}`);
    await sendWebResponse(res, await serveMcp(request, key, parseJson(body)));
  }

  const server = guardedServer(limits, (req, res) => {
    handle(req, res).catch((error: unknown) => {
      // Timed out (answered 408 already) or the client left: nothing to answer.
      if (req.socket.destroyed || !req.socket.writable) return;
      log('error', `HTTP: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end();
    });
  });
  const port = await listen(server, options.port, options.host === 'localhost' ? '127.0.0.1' : options.host);
  // Each minute: idle chats end, and a key revoked with no request since ends its chats' streams.
  const sweeper = setInterval(
    () => void Promise.all([chats.sweep(), options.keys.refresh()]),
    Math.min(limits.idleMs, 60_000),
  );
  sweeper.unref();
  const hostInUrl = options.host === '::1' ? '[::1]' : '127.0.0.1';
  return {
    url: `http://${hostInUrl}:${port}${MCP_PATH}`,
    port,
    chats: () => chats.size,
    async close() {
      clearInterval(sweeper);
      stopModernNotices();
      await modern.close();
      await chats.closeAll();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The key and chat ride in `authInfo`, the SDK's pass-through; never the key itself. */
function passOn(passed: Passed): AuthInfo {
  return { token: 'roam-mcp-key', clientId: passed.key.name, scopes: [], extra: { passed } };
}

function passedOf(authInfo: AuthInfo | undefined): Passed {
  const passed = authInfo?.extra?.passed as Passed | undefined;
  if (!passed) throw new Error('a request reached the MCP handler without passing the front');
  return passed;
}

function chatOf(authInfo: AuthInfo | undefined): ChatScope {
  return passedOf(authInfo).chat;
}

function refuse(res: ServerResponse, refusal: Refusal, closeAfter = false): void {
  res.writeHead(refusal.status, {
    'content-type': 'application/json',
    ...refusal.headers,
    ...(closeAfter ? { connection: 'close' } : {}),
  });
  res.end(refusalBody(refusal));
}

/** The request body, or 'too-large' as soon as it passes `max` bytes (declared or sent). */
export async function readBody(req: IncomingMessage, max: number): Promise<Buffer | 'too-large'> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > max) {
    req.resume();
    return 'too-large';
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) {
      req.resume();
      return 'too-large';
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

export function parseJson(body: Buffer): unknown {
  if (body.length === 0) return undefined;
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

function listen(server: HttpServer, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException) => reject(listenError(error, port, host));
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** What the person can do about a port the server cannot listen on. */
function listenError(error: NodeJS.ErrnoException, port: number, host: string): Error {
  if (error.code === 'EADDRINUSE')
    return new StartupError(
      `port ${port} on ${host} is in use by another program (another roam-mcp serve --http, or Roam Companion, which serves there)`,
      'Stop it, or choose another port with --port N (0 picks a free one).',
    );
  if (error.code === 'EACCES')
    return new StartupError(
      `this user may not listen on port ${port} (ports below 1024 need privileges)`,
      'Choose another with --port N.',
    );
  return error;
}
