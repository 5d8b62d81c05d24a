import { createStore, type StoreApi } from 'zustand/vanilla';
import type {
  ClientChangeOutcome,
  ClientChangeView,
  ClientId,
  ClientView,
  RequestResults,
  RoamCompanionApi,
} from '../../src-shared/ipc-contract.ts';
import type { ToolsetName } from '../../src-shared/toolsets.ts';
import { failed, loading, ready, type LoadState } from './load-state.ts';

export interface ClientsState {
  clients: ClientView[];
  load: LoadState;
  refresh(): Promise<void>;
  /** `toolsets`: a new choice for the entry (docs/mcp.md, Toolsets); absent keeps the entry's. */
  preview(id: ClientId, action: 'install' | 'uninstall', toolsets?: ToolsetName[]): Promise<ClientChangeView>;
  apply(
    id: ClientId,
    action: 'install' | 'uninstall',
    toolsets?: ToolsetName[],
  ): Promise<ClientChangeOutcome>;
  /** A client connected over HTTP: its key's toolsets change (ClientView.transport). */
  setToolsets(id: ClientId, toolsets: ToolsetName[]): Promise<ClientView>;
  /** Main makes Claude Code's key and copies its command (ClientView.commandKey); the key stays there. */
  copyCommand(id: 'claude-code'): Promise<RequestResults['clients:copy-command']>;
}

export type ClientsStore = StoreApi<ClientsState>;

export function createClientsStore(api: RoamCompanionApi): ClientsStore {
  const store = createStore<ClientsState>()((set) => ({
    clients: [],
    load: loading,
    async refresh() {
      // Re-checks keep the list on screen; only the first load shows "Loading".
      set((state) => (state.load.phase === 'ready' ? {} : { load: loading }));
      try {
        set({ clients: await api['clients:list'](), load: ready });
      } catch (error) {
        set({ load: failed(error) });
      }
    },
    preview: (id, action, toolsets) =>
      api['clients:preview']({ id, action, ...(toolsets ? { toolsets } : {}) }),
    async apply(id, action, toolsets) {
      const outcome = await (action === 'install'
        ? api['clients:install']({ id, ...(toolsets ? { toolsets } : {}) })
        : api['clients:uninstall']({ id }));
      const { client } = outcome;
      set((state) => ({ clients: state.clients.map((c) => (c.id === client.id ? client : c)) }));
      return outcome;
    },
    async setToolsets(id, toolsets) {
      const client = await api['clients:set-toolsets']({ id, toolsets });
      set((state) => ({ clients: state.clients.map((c) => (c.id === client.id ? client : c)) }));
      return client;
    },
    copyCommand: (id) => api['clients:copy-command']({ id }),
  }));
  api.on('clients:changed', (clients) => store.setState({ clients, load: ready }));
  return store;
}
