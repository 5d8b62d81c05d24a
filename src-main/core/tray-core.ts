/**
 * The tray's logic in plain Node (no electron): graph store, token requests, client installers,
 * Roam status, MCP child supervisor, and the IPC handlers as plain functions. The Electron shell,
 * the `--mcp` launcher and the browser preview (demo) all run this same core.
 */
import type { RequestHandlers } from '../../src-shared/ipc-contract.ts';
import type { EventChannel, EventPayloads } from '../../src-shared/ipc-contract.ts';
import { LocalApiClient } from '../../src-shared/local-api/index.ts';
import { graphId } from '../../src-shared/constants.ts';
import { createCoreEvents, sendsOnlyChanges } from './core-events.ts';
import { startCoreMonitors } from './core-monitors.ts';
import { openTrayStore } from './store/tray-store.ts';
import { toBlockedViews, toGraphView } from './graphs/graph-views.ts';
import { startActivity } from './activity/activity.ts';
import { activityHandlers } from './ipc-handlers/activity.ts';
import { appHandlers } from './ipc-handlers/app.ts';
import { clientHandlers } from './ipc-handlers/clients.ts';
import type { CoreContext } from './ipc-handlers/core-context.ts';
import { graphHandlers } from './ipc-handlers/graphs.ts';
import { keyHandlers } from './ipc-handlers/keys.ts';
import { diagnosticsHandlers } from './ipc-handlers/diagnostics.ts';
import { proposalHandlers } from './ipc-handlers/proposals.ts';
import { remoteHandlers } from './ipc-handlers/remote.ts';
import { startTrayRemote, type TrayRemote } from './remote/tray-remote.ts';
import { pendingProposals, type PendingProposals } from './approvals/pending-proposals.ts';
import { forkSpawner } from './clients/mcp-launcher.ts';
import { startHttpHubChild, type HttpHubChild } from './clients/http-hub-child.ts';
import { tokenHandlers } from './ipc-handlers/tokens.ts';
import { validatedHandlers, type CoreHandlers } from './validated-handlers.ts';
import { TokenRequestManager } from './tokens/token-requests.ts';
import type { TrayCoreOptions } from './tray-core-options.ts';

export type { CoreHandlers } from './validated-handlers.ts';

export interface TrayCore {
  /** One handler per IPC channel; each validates its input with the contract's zod schema. */
  handlers: CoreHandlers;
  on<E extends EventChannel>(event: E, listener: (payload: EventPayloads[E]) => void): () => void;
  /** Starts the HTTP server now when it waits to restart (the tray menu's "Try now"). */
  retryHttpServer(): void;
  /** Shows another server's proposals too (the demo's stdio stand-ins), answered back to it. */
  addProposalServer: PendingProposals['addServer'];
  close(): Promise<void>;
}

/** The HTTP server every HTTP client connects to, when the tray runs one. */
function startTrayHttpServer(
  options: TrayCoreOptions,
  store: ReturnType<typeof openTrayStore>,
  onStatus: () => void,
  proposals: PendingProposals,
  remote: TrayRemote,
): HttpHubChild | undefined {
  if (!options.httpHub) return undefined;
  return startHttpHubChild({
    storeDir: options.storeDir,
    secretBox: options.secretBox,
    mcpServerPath: options.mcpServerPath,
    spawn: options.httpHub.spawn ?? forkSpawner({ stdio: 'ignore' }),
    ...(options.store ? { store: options.store } : {}),
    port: options.httpHub.port,
    ...(options.httpHub.restartDelayMs ? { restartDelayMs: options.httpHub.restartDelayMs } : {}),
    home: options.home,
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    onStatus,
    opensAtLogin: () => store.read().settings.launchAtLogin,
    proposals,
    serveArgs: remote.serveArgs,
  });
}

export function createTrayCore(options: TrayCoreOptions): TrayCore {
  const { emit, on } = createCoreEvents();
  const store = openTrayStore(options);
  const api = new LocalApiClient({ home: options.home });
  const graphViews: CoreContext['graphViews'] = (data = store.read()) =>
    data.graphs.map((g) => toGraphView(g, data, tokens.isWaiting(graphId(g))));
  // Each change reaches the renderer once: the core's own writes also wake the store-file watcher.
  const emitChanged = sendsOnlyChanges(emit);
  const storeChanged: CoreContext['storeChanged'] = (data) => {
    tokens.prune(data, monitors.status.current?.running);
    emitChanged('graphs:changed', graphViews(data));
    emitChanged('blocked:changed', toBlockedViews(data));
  };
  const tokens = new TokenRequestManager(store, api, {
    requestChanged: (view) => emit('tokens:request-changed', view),
    requestRemoved: ({ graphId, startedAt }) => emit('tokens:request-removed', { graphId, startedAt }),
    storeChanged,
  });
  const monitors = startCoreMonitors({
    options,
    store,
    api,
    emit,
    storeChanged,
    httpStatus: () => hub?.status(),
  });

  const { status, appStatus } = monitors;
  const proposals = pendingProposals((list) => emit('proposals:changed', list));
  const remote = startTrayRemote({
    ...options,
    changed: (view) => emitChanged('remote:changed', view),
    graphs: () => graphViews(),
    restartServer: async () => hub?.restart(),
  });
  const hub = startTrayHttpServer(options, store, monitors.publishStatus, proposals, remote);
  const hubUrl = async () => hub?.url();
  const ctx: CoreContext = {
    options,
    store,
    api,
    tokens,
    status,
    emit,
    graphViews,
    storeChanged,
    appStatus,
    hubUrl,
    hubOpensAtLoginChanged: async () => hub?.opensAtLoginChanged(),
    retryHttpServer: () => hub?.retryNow(),
  };
  const activity = startActivity({
    dataDir: options.dataDir,
    store,
    api,
    feedChanged: (feed) => emitChanged('activity:changed', feed),
  });
  const impl: RequestHandlers = {
    ...graphHandlers(ctx),
    ...tokenHandlers(ctx),
    ...clientHandlers(ctx),
    ...appHandlers(ctx),
    ...activityHandlers(activity),
    ...keyHandlers(ctx),
    ...diagnosticsHandlers(ctx),
    ...proposalHandlers(proposals),
    ...remoteHandlers(remote),
  };
  return {
    handlers: validatedHandlers(impl),
    on,
    addProposalServer: proposals.addServer,
    retryHttpServer: ctx.retryHttpServer,
    async close() {
      monitors.stop();
      remote.close();
      await hub?.stop();
      await activity.close();
      await tokens.close();
    },
  };
}
