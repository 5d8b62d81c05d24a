/**
 * The browser preview (and `npm run demo`): the real tray core in plain Node, bridged to the
 * renderer over HTTP on 127.0.0.1 — `POST /ipc/<channel>` for requests, `GET /events` (SSE) for
 * events, everything else from the built renderer. No Electron anywhere.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createFileKeySecretBox } from '../core/store/file-key-secret-box.ts';
import type { TrayCoreOptions } from '../core/tray-core-options.ts';
import { createTrayCore, type TrayCore } from '../core/tray-core.ts';
import { handleEvents } from './event-stream.ts';
import { handleIpc } from './ipc-route.ts';
import { previewDataDir } from './preview-data-dir.ts';
import { sendError } from './json-response.ts';
import { keyRefusal, newPreviewKey, pageUrlWithKey } from './preview-key.ts';
import { rejectionReason } from './request-guard.ts';
import { serveStatic } from './static-files.ts';

/** What the preview needs of the emulator: "opening Roam Desktop" restarts it when it is down. */
export interface RoamStandIn {
  start(port?: number): Promise<void>;
}

export interface PreviewOptions {
  /** Temp HOME: client configs, ~/.roam-local-api.json (written by the emulator) live here. */
  home: string;
  /** The emulator playing Roam Desktop, so 'roam:open' can start it again after `stop()`. */
  emulator?: RoamStandIn;
  /** Where the core keeps its store and the preview key. Default: `<home>/.roam-companion`. */
  storeDir?: string;
  /** Built renderer to serve. Default: `<root>/dist/renderer`. */
  rendererDir?: string;
  /** Built roam-mcp bundle client configs point at. Default: `<root>/dist/roam-mcp.mjs`. */
  mcpServerPath?: string;
  /** Repository root for the defaults above. Default: the current directory. */
  root?: string;
  /** 0 (default) = an ephemeral port. */
  port?: number;
  platform?: NodeJS.Platform;
  /** How often the core re-checks Roam and MCP sessions (tests shorten it). */
  statusPollMs?: number;
  launcher?: TrayCoreOptions['launcher'];
  /** Where client configs are looked up (APPDATA, XDG_CONFIG_HOME…); `{}` keeps them all in `home`. */
  env?: TrayCoreOptions['env'];
  /** Whose change journal Activity shows. Default: previewDataDir(home), inside the temp HOME. */
  dataDir?: string;
  /** Run the HTTP server too (the demo: port 0), as the tray does. */
  httpHub?: TrayCoreOptions['httpHub'];
  /**
   * Stands in for the app's clipboard in main (tests). Without it (the demo: this server cannot
   * write the person's clipboard) Claude Code keeps its stdio command, which holds no key.
   */
  writeClipboard?: TrayCoreOptions['writeClipboard'];
}

export interface Preview {
  /** The server's base URL (no key): `${url}ipc/<channel>`, `${url}events`. */
  readonly url: string;
  /** The page to open: the base URL with the run's key in its fragment (preview-key.ts). */
  readonly pageUrl: string;
  /** The run's key, for callers other than the page (tests): `Authorization: Bearer <key>`. */
  readonly key: string;
  readonly port: number;
  readonly core: TrayCore;
  /** Deep links the core asked to open (roam://…), for tests and the demo's log. */
  readonly openedUrls: readonly string[];
  close(): Promise<void>;
}

export async function startPreview(options: PreviewOptions): Promise<Preview> {
  const root = options.root ?? process.cwd();
  const storeDir = options.storeDir ?? path.join(options.home, '.roam-companion');
  const openedUrls: string[] = [];
  const core = await createTrayCore({
    home: options.home,
    storeDir,
    secretBox: createFileKeySecretBox(storeDir),
    mcpServerPath: options.mcpServerPath ?? path.join(root, 'dist', 'roam-mcp.mjs'),
    platform: options.platform,
    launcher: options.launcher,
    env: options.env,
    statusPollMs: options.statusPollMs,
    dataDir: options.dataDir ?? previewDataDir(options.home),
    ...(options.httpHub ? { httpHub: options.httpHub } : {}),
    ...(options.writeClipboard ? { writeClipboard: options.writeClipboard } : {}),
    async openExternal(url) {
      openedUrls.push(url);
      if (url.startsWith('roam:')) await options.emulator?.start().catch(() => undefined);
    },
  });
  const key = newPreviewKey();
  try {
    const server = await listen(
      core,
      key,
      options.rendererDir ?? path.join(root, 'dist', 'renderer'),
      options.port ?? 0,
    );
    const port = (server.address() as AddressInfo).port;
    const url = `http://127.0.0.1:${port}/`;
    return {
      url,
      pageUrl: pageUrlWithKey(url, key),
      key,
      port,
      core,
      openedUrls,
      async close() {
        server.closeAllConnections(); // ends open event streams too
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await core.close();
      },
    };
  } catch (error) {
    await core.close();
    throw error;
  }
}

async function listen(core: TrayCore, key: string, rendererDir: string, port: number) {
  const server = createServer((req, res) => {
    route(core, key, rendererDir, (server.address() as AddressInfo).port, req, res).catch(
      (error: unknown) => {
        if (!res.headersSent) {
          sendError(res, 500, {
            code: 'INTERNAL',
            message: `The preview server failed: ${(error as Error).message}. Restart it.`,
          });
        } else res.destroy();
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}

async function route(
  core: TrayCore,
  key: string,
  rendererDir: string,
  port: number,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const refusal = rejectionReason(req, port);
  if (refusal) return sendError(res, 403, { code: 'FORBIDDEN_SENDER', message: refusal });
  const { pathname } = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (pathname.startsWith('/ipc/') || pathname === '/events') {
    const refused = keyRefusal(req, key);
    if (refused)
      return sendError(res, refused.status, { code: 'FORBIDDEN_SENDER', message: refused.message });
  }
  if (pathname.startsWith('/ipc/')) return handleIpc(core, pathname.slice('/ipc/'.length), req, res);
  if (pathname === '/events') return handleEvents(core, req, res);
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    return sendError(res, 405, {
      code: 'INVALID_INPUT',
      message: `${req.method} is not supported on ${pathname}.`,
    });
  }
  return serveStatic(rendererDir, pathname, res);
}
