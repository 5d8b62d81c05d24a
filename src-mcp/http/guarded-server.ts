/**
 * The HTTP server under its connection limits (docs/reliability.md "Connections"): past
 * maxConnections a new connection gets a clear 503 and is closed (past twice that Node drops it
 * unanswered); a request whose headers or body arrive too slowly gets a clear 408 (Node's
 * headersTimeout and requestTimeout), where Node would answer a bare 408 or 400.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { HubLimits } from './limits.ts';
import { rawRefusal, refusals } from './refusals.ts';

export function guardedServer(
  limits: HubLimits,
  handle: (req: IncomingMessage, res: ServerResponse) => void,
): Server {
  const sockets = new Set<Socket>();
  const refused = new WeakSet<Socket>();
  const responseOf = new WeakMap<Socket, ServerResponse>();
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      // How often Node looks for requests past those timeouts.
      connectionsCheckingInterval: Math.min(1000, Math.ceil(limits.headersTimeoutMs / 4)),
    },
    (req, res) => {
      if (refused.has(req.socket)) return; // answered 503 when it connected
      responseOf.set(req.socket, res);
      handle(req, res);
    },
  );
  server.maxConnections = limits.maxConnections * 2;
  server.on('connection', (socket: Socket) => {
    if (sockets.size >= limits.maxConnections) {
      refused.add(socket);
      socket.end(rawRefusal(refusals.tooManyConnections(limits.maxConnections)), () => socket.destroy());
      return;
    }
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    const answered = responseOf.get(socket)?.headersSent ?? false;
    if (!socket.writable || answered || error.code === 'ECONNRESET') return void socket.destroy();
    const refusal =
      error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? refusals.requestTimeout(limits.headersTimeoutMs, limits.requestTimeoutMs)
        : refusals.badRequest();
    socket.end(rawRefusal(refusal), () => socket.destroy());
  });
  return server;
}
