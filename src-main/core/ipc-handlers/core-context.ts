/** What every handler group needs from the core; built once by createTrayCore. */
import type { EventChannel, EventPayloads, GraphView } from '../../../src-shared/ipc-contract.ts';
import type { LocalApiClient } from '../../../src-shared/local-api/index.ts';
import type { TrayStore, StoreData } from '../store/tray-store.ts';
import type { RoamStatusMonitor } from '../graphs/roam-status.ts';
import type { TokenRequestManager } from '../tokens/token-requests.ts';
import type { TrayCoreOptions } from '../tray-core-options.ts';
import type { AppStatus } from '../../../src-shared/ipc-contract.ts';

export interface CoreContext {
  options: TrayCoreOptions;
  store: TrayStore;
  api: LocalApiClient;
  tokens: TokenRequestManager;
  status: RoamStatusMonitor;
  emit<E extends EventChannel>(event: E, payload: EventPayloads[E]): void;
  graphViews(data?: StoreData): GraphView[];
  /** Re-sends graphs and the blocked list after any store change. */
  storeChanged(data: StoreData): void;
  appStatus(): Promise<AppStatus>;
  /** The tray's HTTP server's URL once it listens; undefined when it runs none. */
  hubUrl(): Promise<string | undefined>;
  /** The "open at login" setting changed (installs made while the tray is closed follow it). */
  hubOpensAtLoginChanged(): Promise<void>;
  /** Starts a restarting HTTP server now (nothing when it is not waiting to restart). */
  retryHttpServer(): void;
}
