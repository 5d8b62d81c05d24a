/**
 * One JSON request to the Local API over node:http. Not fetch: undici gives up after 300 s
 * without response headers, but Roam may hold a request for 30 minutes while a graph loads
 * (docs/reliability.md). Here nothing times out on the client side; only the caller's signal aborts.
 */
import type { Agent, AgentOptions } from 'node:http';
import type { Socket } from 'node:net';
import { ResultRowStream, type ResultRow } from './result-row-stream.ts';

export interface HttpJsonResponse {
  status: number;
  /** Parsed JSON body, or undefined when the body was not JSON (see `raw`). */
  body: unknown;
  raw: string;
  /** The result's rows went to `onRow` as they arrived; `body` and `raw` hold nothing of them. */
  streamed?: boolean;
}

/** A socket-level failure: `code` is Node's (ECONNREFUSED, ECONNRESET, ...). */
export class HttpTransportError extends Error {
  constructor(
    readonly code: string,
    /** True when the request may have reached the server (connection dropped mid-way). */
    readonly maybeDelivered: boolean,
    /** The request went out on a kept-alive socket the server had already closed. */
    readonly staleSocket: boolean,
  ) {
    super(`HTTP transport failed: ${code}`);
    this.name = 'HttpTransportError';
  }
}

/** How long a kept-alive socket may sit idle and still be reused (Node servers close at 5 s). */
const MAX_IDLE_MS = 2000;
const FREED_AT = Symbol('freedAt');
type Stamped = Socket & { [FREED_AT]?: number };

/**
 * Kept-alive sockets make a call cost one round trip, not a TCP handshake; idle ones are unref'd.
 * A socket idle for MAX_IDLE_MS is never reused: the server may be closing it at that moment, and a
 * write sent into it fails (EPIPE) without being retried. The check runs when a request picks a
 * socket, not on a timer, so a busy event loop cannot make it late. Requests in progress are never
 * timed out (Roam may answer after minutes).
 */
function localApiAgentClass(base: typeof Agent) {
  return class LocalApiAgent extends base {
    override keepSocketAlive(socket: Socket): boolean {
      (socket as Stamped)[FREED_AT] = Date.now();
      // Node's returns whether the socket may be kept (typed void in @types/node).
      return (super.keepSocketAlive(socket) as unknown as boolean | undefined) !== false;
    }

    dropIdleSockets(): void {
      const now = Date.now();
      for (const list of Object.values(this.freeSockets)) {
        for (let i = (list?.length ?? 0) - 1; i >= 0; i--) {
          const socket = (list as Stamped[])[i] as Stamped;
          if (!socket.destroyed && now - (socket[FREED_AT] ?? 0) < MAX_IDLE_MS) continue;
          list?.splice(i, 1);
          socket.destroy();
        }
      }
    }
  };
}

const AGENT_OPTIONS: AgentOptions = {
  keepAlive: true,
  keepAliveMsecs: 1000,
  maxSockets: 16,
  timeout: MAX_IDLE_MS,
};

let agent: InstanceType<ReturnType<typeof localApiAgentClass>> | undefined;

/**
 * node:http and the agent, made at the first request: loading node:http costs milliseconds the
 * MCP server would otherwise spend before its first answer.
 */
function http() {
  const module = process.getBuiltinModule('node:http');
  agent ??= new (localApiAgentClass(module.Agent))(AGENT_OPTIONS);
  return { request: module.request, agent };
}

export function requestJson(
  method: 'GET' | 'POST',
  url: string,
  options: {
    body?: unknown;
    headers?: Record<string, string>;
    signal?: AbortSignal;
    /** Stream the rows of a 2xx `{"success":true,"result":[[..],..]}` answer here instead. */
    onRow?: (row: ResultRow) => void;
  },
): Promise<HttpJsonResponse> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(new HttpTransportError('ABORT_ERR', false, false));
      return;
    }
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    if (payload !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(payload));
    }
    const { request, agent } = http();
    agent.dropIdleSockets();
    const req = request(url, { method, headers, agent });
    let settled = false;
    let sent = false;
    const onAbort = () => req.destroy(Object.assign(new Error('aborted'), { code: 'ABORT_ERR' }));
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener('abort', onAbort);
      fn();
    };
    req.on('finish', () => (sent = true));
    req.on('error', (error: NodeJS.ErrnoException) => {
      const code = error.code ?? 'ERR';
      finish(() => reject(new HttpTransportError(code, sent && code !== 'ECONNREFUSED', req.reusedSocket)));
    });
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      const reader = new BodyReader(status >= 200 && status < 300 ? options.onRow : undefined);
      res.on('data', (chunk: Buffer) => reader.push(chunk));
      res.on('error', () => finish(() => reject(new HttpTransportError('ECONNRESET', true, false))));
      res.on('aborted', () => finish(() => reject(new HttpTransportError('ECONNRESET', true, false))));
      res.on('end', () => {
        try {
          const read = reader.end();
          finish(() => resolve({ status, ...read }));
        } catch (error) {
          finish(() => reject(error));
        }
      });
    });
    req.end(payload);
  });
}

/** Collects a body, or streams its rows; a row handler's failure is kept for the end. */
class BodyReader {
  private readonly chunks: Buffer[] = [];
  private readonly rows: ResultRowStream | undefined;
  private failure: unknown;

  constructor(onRow: ((row: ResultRow) => void) | undefined) {
    this.rows = onRow && new ResultRowStream(onRow);
  }

  push(chunk: Buffer): void {
    if (!this.rows) this.chunks.push(chunk);
    else if (this.failure === undefined) {
      try {
        this.rows.push(chunk);
      } catch (error) {
        this.failure = error;
      }
    }
  }

  end(): Omit<HttpJsonResponse, 'status'> {
    if (this.failure !== undefined) throw this.failure;
    const ended = this.rows?.end();
    if (ended?.streamed) return { body: { success: true, result: null }, raw: '', streamed: true };
    const raw = (ended ? ended.raw : Buffer.concat(this.chunks)).toString('utf8');
    let body: unknown;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      body = undefined;
    }
    return { body, raw };
  }
}
