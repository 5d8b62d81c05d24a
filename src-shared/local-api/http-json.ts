/**
 * One JSON request to the Local API over node:http. Not fetch: undici gives up after 300 s
 * without response headers, but Roam may hold a request for 30 minutes while a graph loads
 * (docs/reliability.md). Here nothing times out on the client side; only the caller's signal aborts.
 */
import http from 'node:http';

export interface HttpJsonResponse {
  status: number;
  /** Parsed JSON body, or undefined when the body was not JSON (see `raw`). */
  body: unknown;
  raw: string;
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

// Kept-alive sockets make a call cost one round trip, not a TCP handshake; idle ones are unref'd.
const agent = new http.Agent({ keepAlive: true, keepAliveMsecs: 1000, maxSockets: 16 });

export function requestJson(
  method: 'GET' | 'POST',
  url: string,
  options: { body?: unknown; headers?: Record<string, string>; signal?: AbortSignal },
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
    const req = http.request(url, { method, headers, agent });
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
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', () => finish(() => reject(new HttpTransportError('ECONNRESET', true, false))));
      res.on('aborted', () => finish(() => reject(new HttpTransportError('ECONNRESET', true, false))));
      res.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        let body: unknown;
        try {
          body = raw ? JSON.parse(raw) : undefined;
        } catch {
          body = undefined;
        }
        finish(() => resolve({ status: res.statusCode ?? 0, body, raw }));
      });
    });
    req.end(payload);
  });
}
