/**
 * The Roam Local API emulator, as Roam Desktop serves the API: a real `node:http` server on 127.0.0.1 in front of
 * one DataScript database per graph. See docs/emulator.md and ./types.ts for the contract.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { GraphType } from '../../src-shared/roam-config.ts';
import { ACCESS_LEVELS, scopesOf } from '../../src-shared/roam-config.ts';
import { writeFileAtomic } from '../../src-shared/node/atomic-write.ts';
import { findAction } from './actions.ts';
import { seedComments } from './comment-actions.ts';
import { seedShortcuts } from './shortcut-actions.ts';
import { extrasOf, setExtras } from './graph-extras.ts';
import { demoGraphContent } from './demo-graph.ts';
import { FaultPlan, faultBody } from './faults.ts';
import { runGraphCall } from './graph-call.ts';
import type { HostedGraph } from './graph-call.ts';
import { generateGraph } from './generate-graph.ts';
import { loadGraph } from './graph-loader.ts';
import { TokenExchange } from './token-exchange.ts';
import { TokenStore } from './token-store.ts';
import type { Author } from './roam-graph.ts';
import type {
  ActionRunner,
  Emulator,
  EmulatedGraph,
  EmulatorOptions,
  GraphSpec,
  PageSpec,
  RecordedRequest,
} from './types.ts';

export { demoGraphContent } from './demo-graph.ts';
export { generateGraph } from './generate-graph.ts';
export type * from './types.ts';

/** The Local API version current Roam Desktop builds report. */
export const DEFAULT_API_VERSION = '1.1.5';
const FIVE_MINUTES = 5 * 60_000;

const graphKey = (name: string, type: GraphType) => `${type}:${name}`;

function contentOf(spec: GraphSpec): readonly PageSpec[] {
  const content = spec.content ?? 'empty';
  if (content === 'empty') return [];
  if (content === 'demo') return demoGraphContent();
  if (Array.isArray(content)) return content;
  return generateGraph(content.generate);
}

function flattenHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Starts the emulator: loads every graph, listens, writes `{home}/.roam-local-api.json`. */
export async function startEmulator(options: EmulatorOptions): Promise<Emulator> {
  const apiVersion = options.apiVersion ?? DEFAULT_API_VERSION;
  const semanticSearch = options.semanticSearch ?? false;
  const tokens = new TokenStore();
  const graphs = new Map<string, HostedGraph>();
  const openGraphs = new Map<string, { name: string; type: GraphType }>();
  const requests: RecordedRequest[] = [];
  const faults = new FaultPlan();

  for (const spec of options.graphs) {
    const type = spec.type ?? 'hosted';
    if (graphs.has(graphKey(spec.name, type))) {
      throw new Error(
        `startEmulator: ${type} graph '${spec.name}' is listed twice; give each graph one entry.`,
      );
    }
    const content = contentOf(spec);
    const graph = loadGraph(spec.name, type, content);
    graph.displayNames = { ...graph.displayNames, ...spec.displayNames };
    graph.refPreviews = spec.refPreviews ?? 'alias';
    seedShortcuts(graph, content);
    setExtras(graph, {
      extensionTools: spec.extensionTools ?? [],
      developerExtensions: spec.developerExtensions ?? [],
    });
    seedComments(graph, spec.comments ?? []);
    graphs.set(graphKey(spec.name, type), {
      graph,
      userPermission: spec.userPermission ?? (spec.public ? 'read-only' : 'full'),
      missingActions: new Set(spec.missingActions ?? []),
      olderShapes: spec.olderShapes ?? false,
      public: spec.public ?? false,
    });
    for (const { token, accessLevel, ai } of spec.tokens ?? [])
      tokens.add(token, { graph: spec.name, type, accessLevel, ...(ai ? { ai } : {}) });
  }

  const requireGraph = (name: string, type: GraphType = 'hosted'): HostedGraph => {
    const entry = graphs.get(graphKey(name, type));
    if (!entry) {
      const known = [...graphs.values()].map((g) => `${g.graph.name} (${g.graph.type})`).join(', ');
      throw new Error(`The emulator has no ${type} graph '${name}'. Known graphs: ${known || 'none'}.`);
    }
    return entry;
  };
  const markOpen = (name: string, type: GraphType) => openGraphs.set(graphKey(name, type), { name, type });

  const exchange = new TokenExchange({
    tokens,
    timeoutMs: options.tokenRequestTimeoutMs ?? FIVE_MINUTES,
    userPermission: (name, type) => graphs.get(graphKey(name, type))?.userPermission,
    onOpen: markOpen,
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const record: RecordedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: flattenHeaders(req),
      body: undefined,
    };
    requests.push(record);
    const send = (status: number, body: unknown) => {
      record.status = status;
      res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(body));
    };
    res.setHeader('Access-Control-Allow-Origin', '*');
    if (req.method === 'OPTIONS') {
      res.setHeader('Access-Control-Allow-Headers', 'Authorization, Content-Type');
      res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
      record.status = 204;
      res.writeHead(204).end();
      return;
    }

    const raw = await readBody(req);
    let body: unknown;
    if (raw.trim() !== '') {
      try {
        body = JSON.parse(raw);
      } catch (error) {
        record.body = raw;
        return send(400, {
          success: false,
          error: {
            code: 'INVALID_JSON',
            message: `The request body is not valid JSON (${(error as Error).message}). Send a JSON object such as {"action": "data.q", "args": ["[:find ?t :where [?p :node/title ?t]]"]} with Content-Type: application/json.`,
          },
        });
      }
    }
    record.body = body;
    const segments = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    const isGraphCall =
      req.method === 'POST' && segments.length === 2 && segments[0] === 'api' && segments[1] !== 'graphs';
    if (isGraphCall) {
      record.graph = segments[1];
      const action = (body as { action?: unknown } | undefined)?.action;
      if (typeof action === 'string') record.action = action;
    }

    const fault = faults.take(record.action);
    if (fault?.kind === 'latency') {
      // A client that gives up must not leave a timer holding the process.
      const gone = new AbortController();
      res.once('close', () => gone.abort());
      const waited = await delay(fault.ms, true, { signal: gone.signal }).catch(() => false);
      if (!waited) return;
    }
    if (fault?.kind === 'drop') {
      req.socket.destroy();
      return;
    }
    if (fault?.kind === 'status') return send(fault.status, faultBody(fault.status, record.graph));
    if (fault?.kind === 'malformed-json') {
      record.status = 200;
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
      res.end('{"success": true, "result": {"markdown": "# Trunc');
      return;
    }

    const route = `${req.method} ${url.pathname}`;
    if (route === 'GET /api/graphs/open')
      return send(200, { success: true, result: [...openGraphs.values()] });
    if (route === 'GET /api/graphs/available') {
      return send(200, {
        success: true,
        result: [...graphs.values()]
          .filter((entry) => !entry.public)
          .map(({ graph }) => ({ name: graph.name, type: graph.type })),
      });
    }
    if (route === 'POST /api/graphs/tokens/request') {
      const pending = exchange.request(body, (reply) => {
        if (!res.destroyed) send(reply.status, reply.body);
        else record.status = reply.status;
      });
      res.on('close', () => {
        if (!res.writableEnded) pending.cancel();
      });
      return;
    }
    if (route === 'POST /api/graphs/tokens/info') return tokenInfo(req, send);
    if (isGraphCall) {
      const reply = runGraphCall(
        {
          tokens,
          apiVersion,
          semanticSearch,
          graphs: (name, type) => graphs.get(graphKey(name, type)),
          markOpen,
        },
        {
          graph: segments[1] as string,
          type: url.searchParams.get('type') === 'offline' ? 'offline' : 'hosted',
          authorization: req.headers.authorization,
          body,
        },
      );
      return send(reply.status, reply.body);
    }
    send(404, {
      success: false,
      error: {
        message: `No such endpoint: ${route}. The Local API serves POST /api/{graph}[?type=offline], GET /api/graphs/open, GET /api/graphs/available and POST /api/graphs/tokens/request.`,
      },
    });
  }

  function tokenInfo(req: IncomingMessage, send: (status: number, body: unknown) => void): void {
    const auth = tokens.identify(req.headers.authorization);
    if (!auth.ok)
      return send(auth.status, { success: false, error: { code: auth.code, message: auth.message } });
    send(200, {
      success: true,
      graphName: auth.grant.graph,
      graphType: auth.grant.type,
      accessLevel: auth.grant.accessLevel,
      scopes: Object.fromEntries(scopesOf(auth.grant.accessLevel).map((scope) => [scope, true])),
    });
  }

  let server: Server | undefined;
  let port = 0;
  const portFile = path.join(options.home, '.roam-local-api.json');

  async function listen(wanted = 0): Promise<void> {
    if (server) throw new Error('The emulator is already running; call stop() before start().');
    const next = createServer((req, res) => {
      handle(req, res).catch((error: unknown) => {
        if (!res.headersSent) {
          res.writeHead(500, { 'Content-Type': 'application/json; charset=utf-8' });
          res.end(JSON.stringify({ success: false, error: { message: (error as Error).message } }));
        }
      });
    });
    await new Promise<void>((resolve, reject) => {
      next.once('error', reject);
      next.listen(wanted, '127.0.0.1', () => resolve());
    });
    server = next;
    port = (next.address() as AddressInfo).port;
    await writeFileAtomic(portFile, `${JSON.stringify({ port }, null, 2)}\n`, 0o644);
  }

  async function stop(): Promise<void> {
    const current = server;
    server = undefined;
    exchange.cancelAll();
    // Roam quit: its graph windows are closed.
    openGraphs.clear();
    if (!current) return;
    await new Promise<void>((resolve) => {
      current.close(() => resolve());
      current.closeAllConnections();
    });
  }

  await listen(options.port ?? 0);

  return {
    get port() {
      return port;
    },
    get url() {
      return `http://127.0.0.1:${port}`;
    },
    requests,
    clearRequests: () => void requests.splice(0),
    addToken(name, type, accessLevel, tokenOptions) {
      requireGraph(name, type);
      if (!ACCESS_LEVELS.includes(accessLevel))
        throw new Error(`addToken: unknown access level '${accessLevel}'.`);
      const ai = tokenOptions?.ai === true ? { ai: true } : {};
      return tokens.mint({ graph: name, type, accessLevel, ...ai });
    },
    revokeToken: (token) => tokens.revoke(token),
    setUserPermission(name, type, level) {
      requireGraph(name, type).userPermission = level;
    },
    setTokenFileCorrupted(corrupted) {
      tokens.corrupted = corrupted;
    },
    decide: (name, decision, type) => exchange.decide(name, decision, type),
    autoDecide: (decision, delayMs) => exchange.autoDecide(decision, delayMs),
    pendingTokenRequests: () => exchange.pendingRequests(),
    unblock: (name, type) => exchange.unblock(name, type),
    setFault: (fault, faultOptions) => faults.set(fault, faultOptions),
    stop,
    start: (wanted) => listen(wanted ?? 0),
    graph(name, type = 'hosted'): EmulatedGraph {
      const { graph, olderShapes } = requireGraph(name, type);
      const runner = (author: Author): ActionRunner => ({
        run(action, args = []) {
          const handler = findAction(action, { semanticSearch, olderShapes });
          if (!handler) throw new Error(`API action not found: ${action}`);
          return graph.actingAs(author, () => handler(graph, args));
        },
      });
      return {
        ...runner('human'),
        asPerson: (displayName) => runner(displayName === undefined ? 'human' : { person: displayName }),
        asAgent: () => runner('ai'),
        counts: () => graph.counts(),
        get ui() {
          return extrasOf(graph).ui;
        },
      };
    },
    close: stop,
  };
}
