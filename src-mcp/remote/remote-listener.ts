/**
 * The tunnel's own listener (docs/remote.md): a second loopback port, apart from the local hub,
 * serving only OAuth and MCP for the public URL. Being on this port is what makes a request
 * remote, whatever its Host header says (Cloudflare may rewrite it); a local key means nothing
 * here (only tokens this server issued for `<public URL>/mcp` pass, src-mcp/remote/remote-mcp.ts)
 * and the public name means nothing on the local port (its Host check,
 * src-mcp/http/request-guards.ts). A switch at the machine (`roam-mcp remote off`) refuses
 * everything here and ends the connections' streams and chats.
 */
import { watch } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { log } from '../contract/log.ts';
import { StartupError } from '../contract/startup-error.ts';
import { guardedServer } from '../http/guarded-server.ts';
import { parseJson, readBody } from '../http/http-hub.ts';
import { DEFAULT_LIMITS, type HubLimits } from '../http/limits.ts';
import { sendWebResponse, webRequest } from '../http/node-bridge.ts';
import { refusalResponse, refusals } from '../http/refusals.ts';
import type { RoamMcpServer } from '../server/server.ts';
import { RemoteAuthority } from './authority.ts';
import { json, oauthRoutes } from './oauth-routes.ts';
import type { RemoteSettings } from './remote-config.ts';
import { remoteMcp, type RemoteMcp } from './remote-mcp.ts';
import { RemoteStore, type RemoteAt } from './remote-store.ts';

export interface RemoteListenerOptions {
  mcp: RoamMcpServer;
  settings: RemoteSettings;
  where: RemoteAt;
  limits?: Partial<HubLimits>;
}

export interface RemoteListener {
  /** Where the tunnel points: http://127.0.0.1:PORT. */
  local: string;
  publicUrl: string;
  port: number;
  close(): Promise<void>;
}

const PROXY_IDLE_MS = 130_000;

const SWITCHED_OFF =
  'Remote access is switched off at the machine (roam-mcp remote on, or Roam Companion > Settings > Remote access).';

export async function startRemoteListener(options: RemoteListenerOptions): Promise<RemoteListener> {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const store = new RemoteStore(options.where);
  const authority = new RemoteAuthority(options.settings, store);
  const oauth = oauthRoutes(authority);
  const mcp = remoteMcp(options.mcp, authority, limits);

  async function route(request: Request, body: Buffer, res: ServerResponse): Promise<Response> {
    const { pathname } = new URL(request.url);
    if (!(await store.read()).enabled)
      return json(503, { error: 'temporarily_unavailable', error_description: SWITCHED_OFF });
    if (pathname === '/mcp') return mcp.serve(request, parseJson(body), res);
    if (request.method === 'OPTIONS')
      return new Response(null, {
        status: 204,
        headers: {
          'access-control-allow-origin': '*',
          'access-control-allow-methods': 'GET, POST',
          'access-control-allow-headers': 'authorization, content-type, mcp-protocol-version',
        },
      });
    const found = oauth(request.method, pathname);
    if (found) return found(request, body);
    return json(404, { error: 'not_found', error_description: `Nothing is served at ${pathname} here.` });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req, limits.maxBodyBytes);
    if (body === 'too-large') {
      await sendWebResponse(res, refusalResponse(refusals.bodyTooLarge(limits.maxBodyBytes)));
      return;
    }
    // The public origin, whatever Host says: the listener, not the header, decides what is remote.
    const request = webRequest(req, res, body, authority.names.origin);
    await sendWebResponse(res, await route(request, body, res));
  }

  const server = guardedServer(limits, (req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (req.socket.destroyed || !req.socket.writable) return;
      log('error', `remote: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end();
    });
  });
  // Longer than a tunnel keeps an idle connection to us (Go's proxies 90 s, caddy 2 min): else it
  // may send a request down a connection Node is closing that moment, and answer 502.
  server.keepAliveTimeout = PROXY_IDLE_MS;
  const port = await listen(server, options.settings.port);
  const local = `http://127.0.0.1:${port}`;
  const servedAt = {
    publicUrl: options.settings.publicUrl,
    local,
    pid: process.pid,
    startedAt: new Date().toISOString(),
  };
  await store.update((state) => void (state.served = servedAt));
  const stopSweeping = keepSwept(store, authority, mcp, Math.min(limits.idleMs, 60_000));
  return {
    local,
    publicUrl: options.settings.publicUrl,
    port,
    async close() {
      stopSweeping();
      await store
        .update((state) => {
          if (state.served?.pid === process.pid) delete state.served;
        })
        .catch(() => {});
      await mcp.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A revoke or the switch (the file changed) ends streams at once; every `everyMs` too, in case a
 * change was missed, and codes past their time go.
 */
function keepSwept(
  store: RemoteStore,
  authority: RemoteAuthority,
  mcp: RemoteMcp,
  everyMs: number,
): () => void {
  const endGone = () =>
    void store.read().then(
      (state) => mcp.endGone(state),
      () => {},
    );
  const watcher = watch(path.dirname(store.file), { persistent: false }, endGone);
  watcher.on('error', () => {});
  const sweeper = setInterval(() => {
    authority.sweep();
    endGone();
  }, everyMs);
  sweeper.unref();
  return () => {
    clearInterval(sweeper);
    watcher.close();
  };
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new StartupError(
              `port ${port} on 127.0.0.1 is in use by another program`,
              'Choose another with --remote-port N (0 picks a free one).',
            )
          : error,
      ),
    );
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}
