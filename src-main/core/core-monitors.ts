import type { AppStatus } from '../../src-shared/ipc-contract.ts';
import type { LocalApiClient } from '../../src-shared/local-api/index.ts';
import type { Emit } from './core-events.ts';
import type { TrayStore, StoreData } from './store/tray-store.ts';
import { readUrlFile } from '../../src-mcp/data-folder/index.ts';
import { DATA_DIR_ENV } from '../../src-shared/node/data-dir.ts';
import { countSessions } from './clients/mcp-sessions.ts';
import { checkStoredTokens } from './tokens/stored-token-check.ts';
import { RoamStatusMonitor } from './graphs/roam-status.ts';
import { storageWarning } from './store/storage-warning.ts';
import { watchStoreFile } from './store/store-watch.ts';
import type { TrayCoreOptions } from './tray-core-options.ts';

export interface CoreMonitors {
  status: RoamStatusMonitor;
  appStatus(): Promise<AppStatus>;
  /** Tells the renderer the status changed (the HTTP server's state is read through `httpStatus`). */
  publishStatus(): void;
  stop(): void;
}

/**
 * What changes outside the core's own calls: Roam starting or stopping (then revoked tokens),
 * MCP sessions coming and going, and other processes writing the store.
 */
export function startCoreMonitors(deps: {
  options: TrayCoreOptions;
  store: TrayStore;
  api: LocalApiClient;
  emit: Emit;
  storeChanged(data: StoreData): void;
  httpStatus(): AppStatus['http'];
}): CoreMonitors {
  const { options, store, api, emit, storeChanged, httpStatus } = deps;
  let sessions = { total: 0, http: 0 };
  // `--mcp` sessions by their files; HTTP chats as the running server's URL file counts them.
  const where = options.dataDir ? { env: { [DATA_DIR_ENV]: options.dataDir } } : {};
  const countAll = async () => {
    const [stdio, served] = await Promise.all([countSessions(options.storeDir), readUrlFile(where)]);
    const http = served?.chats ?? 0;
    return { total: stdio + http, http };
  };
  const appStatus = async (): Promise<AppStatus> => {
    // Read first: each event carries the HTTP server's state at the change that caused it.
    const http = httpStatus();
    const roam = status.current ?? (await status.check());
    const storage: AppStatus['storage'] = { backend: options.secretBox.backend };
    const warning = storageWarning(options.secretBox.backend);
    if (warning) storage.warning = warning;
    sessions = await countAll();
    return {
      roam: { ...roam },
      mcpSessions: sessions.total,
      httpChats: sessions.http,
      storage,
      ...(http ? { http } : {}),
    };
  };
  const publishStatus = () =>
    void appStatus()
      .then((s) => emit('status:changed', s))
      .catch(() => {}); // The next check reports it.

  const status = new RoamStatusMonitor(api, options.home, (roam) => {
    publishStatus();
    // Roam is back: tokens may have been revoked meanwhile, and "not running" outcomes are stale.
    if (roam.running) {
      void checkStoredTokens(store, api)
        .then(() => storeChanged(store.read()))
        .catch(() => {}); // An unreadable store is reported by the next handler.
    }
  });

  // Launchers and other processes write the store too (tokens obtained by children, revocations).
  const unwatch = watchStoreFile(store.path, () => {
    try {
      storeChanged(store.read());
    } catch {
      // Reported by the next handler that reads the store.
    }
  });
  const pollSessions = async () => {
    const count = await countAll();
    if (count.total !== sessions.total || count.http !== sessions.http) {
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
    status,
    appStatus,
    publishStatus,
    stop() {
      clearInterval(sessionTimer);
      status.stop();
      unwatch();
    },
  };
}
