/**
 * node:http ⇄ the web-standard Request/Response the SDK's HTTP pieces take. Not the SDK's
 * `toNodeHandler` (@modelcontextprotocol/node): its Hono adapter imports node:crypto's default
 * export, which the bundle's shared chunk would then evaluate at every stdio start
 * (test/mcp/start-path.test.ts). The body arrives here already read under the cap.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';

/** The request as the SDK reads it; its signal aborts when the client goes away. */
export function webRequest(req: IncomingMessage, res: ServerResponse, body: Buffer, origin: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const aborted = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) aborted.abort();
  });
  const method = req.method ?? 'GET';
  return new Request(new URL(req.url ?? '/', origin), {
    method,
    headers,
    signal: aborted.signal,
    ...(method === 'GET' || method === 'HEAD' || method === 'DELETE' ? {} : { body: new Uint8Array(body) }),
  });
}

/** Writes the SDK's answer, streaming (SSE) with Node's backpressure when it has a body stream. */
export async function sendWebResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    const before = headers[name];
    headers[name] = before === undefined ? value : [...(Array.isArray(before) ? before : [before]), value];
  });
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  // An event stream may stay silent for long: the client learns it is open now, not at its first event.
  res.flushHeaders();
  const stream = Readable.fromWeb(response.body as unknown as NodeReadableStream);
  await new Promise<void>((resolve) => {
    stream.once('error', () => res.destroy());
    res.once('close', () => {
      stream.destroy();
      resolve();
    });
    stream.pipe(res);
  });
}
