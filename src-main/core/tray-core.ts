/**
 * The tray's logic in plain Node (no electron): graph store, token requests, client installers,
 * Roam status, MCP child supervisor, and the IPC handlers as plain functions. The Electron shell,
 * the `--mcp` launcher and the browser preview (demo) all run this same core.
 */
import {
  requestSchemas,
  type AppStatus,
  type EventChannel,
  type EventPayloads,
  type RequestChannel,
  type RequestResults,
} from '../../src-shared/ipc-contract.ts';
import { LocalApiClient, LocalApiError } from '../../src-shared/local-api/index.ts';
import { graphId } from '../../src-shared/constants.ts';
import { CoreError } from './core-error.ts';
import { GraphStore, createConfBackend, toBlockedViews, toGraphView } from './graph-store.ts';
import { appHandlers } from './ipc-handlers/app.ts';
import { clientHandlers } from './ipc-handlers/clients.ts';
import type { CoreContext } from './ipc-handlers/core-context.ts';
import { graphHandlers } from './ipc-handlers/graphs.ts';
import { tokenHandlers } from './ipc-handlers/tokens.ts';
import { countSessions } from './mcp-sessions.ts';
import { RoamStatusMonitor } from './roam-status.ts';
import { watchStoreFile } from './store-watch.ts';
import { TokenRequestManager } from './token-requests.ts';
import { checkRevokedTokens } from './revoked-tokens.ts';
import type { TrayCoreOptions } from './tray-core-options.ts';

export type CoreHandlers = {
  [C in RequestChannel]: (input: unknown) => Promise<RequestResults[C]>;
};

export interface TrayCore {
  /** One handler per IPC channel; each validates its input with the contract's zod schema. */
  handlers: CoreHandlers;
  on<E extends EventChannel>(event: E, listener: (payload: EventPayloads[E]) => void): () => void;
  close(): Promise<void>;
}

/** What the user should know about how tokens are protected on this machine. */
export function storageWarning(backend: string): string | undefined {
  if (backend === 'basic_text') {
    return 'No system keyring was found, so tokens are stored with a fixed, publicly known key (safeStorage basic_text). Install and unlock GNOME Keyring or KWallet, then restart Roam Companion.';
  }
  if (backend === 'preview-file-key') {
    return 'Preview mode: tokens are encrypted with a key file stored next to the settings. Not for real use.';
  }
  return undefined;
}

export function createTrayCore(options: TrayCoreOptions): TrayCore {
  const listeners = new Map<EventChannel, Set<(payload: never) => void>>();
  const emit = <E extends EventChannel>(event: E, payload: EventPayloads[E]) => {
    for (const listener of listeners.get(event) ?? []) (listener as (p: EventPayloads[E]) => void)(payload);
  };

  const store = new GraphStore(
    options.store ?? createConfBackend(options.storeDir),
    options.storeDir,
    options.secretBox,
  );
  const api = new LocalApiClient({ home: options.home });
  let sessions = 0;
  const appStatus = async (): Promise<AppStatus> => {
    const roam = status.current ?? (await status.check());
    const storage: AppStatus['storage'] = { backend: options.secretBox.backend };
    const warning = storageWarning(options.secretBox.backend);
    if (warning) storage.warning = warning;
    sessions = await countSessions(options.storeDir);
    return { roam: { ...roam }, mcpSessions: sessions, storage };
  };
  const publishStatus = () =>
    void appStatus()
      .then((s) => emit('status:changed', s))
      .catch(() => {}); // The next check reports it.

  const status = new RoamStatusMonitor(api, options.home, (roam) => {
    publishStatus();
    if (roam.running) {
      void checkRevokedTokens(store, api)
        .then((changed) => changed && storeChanged(store.read()))
        .catch(() => {}); // An unreadable store is reported by the next handler.
    }
  });

  const graphViews: CoreContext['graphViews'] = (data = store.read()) =>
    data.graphs.map((g) => toGraphView(g, data, tokens.isWaiting(graphId(g))));
  const storeChanged: CoreContext['storeChanged'] = (data) => {
    emit('graphs:changed', graphViews(data));
    emit('blocked:changed', toBlockedViews(data));
  };
  const tokens = new TokenRequestManager(store, api, {
    requestChanged: (view) => emit('tokens:request-changed', view),
    storeChanged,
  });

  const ctx: CoreContext = { options, store, api, tokens, status, emit, graphViews, storeChanged, appStatus };
  const impl = { ...graphHandlers(ctx), ...tokenHandlers(ctx), ...clientHandlers(ctx), ...appHandlers(ctx) };

  const handlers = {} as Record<RequestChannel, (input: unknown) => Promise<unknown>>;
  for (const channel of Object.keys(requestSchemas) as RequestChannel[]) {
    const run = impl[channel] as (input: unknown) => Promise<unknown>;
    handlers[channel] = async (input) => {
      const parsed = requestSchemas[channel].safeParse(input ?? undefined);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
        throw new CoreError(
          'INVALID_INPUT',
          `Invalid input for ${channel}: ${where}${issue?.message}. Correct it and try again.`,
        );
      }
      try {
        return await run(parsed.data);
      } catch (error) {
        if (error instanceof LocalApiError) {
          throw new CoreError(
            error.kind === 'not-running' ? 'ROAM_NOT_RUNNING' : 'UNAVAILABLE',
            error.message,
          );
        }
        throw error;
      }
    };
  }

  // Launchers and other processes write the store too (tokens obtained by children, revocations).
  const unwatch = watchStoreFile(store.path, () => {
    try {
      storeChanged(store.read());
    } catch {
      // Reported by the next handler that reads the store.
    }
  });
  const pollSessions = async () => {
    const count = await countSessions(options.storeDir);
    if (count !== sessions) {
      sessions = count;
      publishStatus();
    }
  };
  const pollMs = options.statusPollMs ?? 5000;
  const sessionTimer = pollMs > 0 ? setInterval(() => void pollSessions(), pollMs) : undefined;
  sessionTimer?.unref();
  void pollSessions();
  status.start(pollMs);

  return {
    handlers: handlers as CoreHandlers,
    on(event, listener) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener as (payload: never) => void);
      return () => set.delete(listener as (payload: never) => void);
    },
    async close() {
      clearInterval(sessionTimer);
      status.stop();
      unwatch();
      await tokens.close();
    },
  };
}
