import { createStore, type StoreApi } from 'zustand/vanilla';
import type { AppSettings, AppStatus, RoamCompanionApi } from '../../src-shared/ipc-contract.ts';
import { failed, loading, ready, type LoadState } from './load-state.ts';

/** Status (Roam running, port, MCP sessions) and settings: the app-wide domain. */
export interface AppState {
  status?: AppStatus;
  statusLoad: LoadState;
  settings?: AppSettings;
  settingsLoad: LoadState;
  /** The browser preview's server stopped answering: the status shown is not current. */
  bridgeLost?: boolean;
  /** Set by a deep link ('app:navigate'): the graph to show; `at` makes repeats distinct. */
  focus: { graphId: string; at: number } | null;
  refresh(): Promise<void>;
  /** Switches to Graphs and brings this graph's row (and its request's answer) into view. */
  showGraph(graphId: string): void;
  openRoam(): Promise<void>;
  retryHttpServer(): Promise<void>;
  changeSettings(patch: Partial<AppSettings>): Promise<AppSettings>;
  /** Main puts roam-mcp doctor's redacted checks on the clipboard; this learns only the counts. */
  copyDiagnostics(): Promise<{ problems: number; warnings: number }>;
}

export type AppStore = StoreApi<AppState>;

export function createAppStore(api: RoamCompanionApi): AppStore {
  const store = createStore<AppState>()((set) => ({
    statusLoad: loading,
    settingsLoad: loading,
    focus: null,
    async refresh() {
      set({ statusLoad: loading, settingsLoad: loading });
      await Promise.all([
        api['status:get']().then(
          (status) => set({ status, statusLoad: ready }),
          (error: unknown) => set({ statusLoad: failed(error) }),
        ),
        api['settings:get']().then(
          (settings) => set({ settings, settingsLoad: ready }),
          (error: unknown) => set({ settingsLoad: failed(error) }),
        ),
      ]);
    },
    showGraph(graphId) {
      set({ focus: { graphId, at: Date.now() } });
    },
    async openRoam() {
      await api['roam:open']();
    },
    async retryHttpServer() {
      await api['http:retry']();
    },
    async changeSettings(patch) {
      const settings = await api['settings:set'](patch);
      set({ settings });
      return settings;
    },
    async copyDiagnostics() {
      const { problems, warnings } = await api['diagnostics:copy']();
      return { problems, warnings };
    },
  }));
  api.on('status:changed', (status) => store.setState({ status, statusLoad: ready }));
  api.on('app:navigate', ({ graphId }) => store.setState({ focus: { graphId, at: Date.now() } }));
  return store;
}
