import { createStore, type StoreApi } from 'zustand/vanilla';
import type {
  ClientChangeView,
  ClientId,
  ClientView,
  RoamCompanionApi,
} from '../../src-shared/ipc-contract.ts';
import { failed, loading, ready, type LoadState } from './load-state.ts';

export interface ClientsState {
  clients: ClientView[];
  load: LoadState;
  refresh(): Promise<void>;
  preview(id: ClientId, action: 'install' | 'uninstall'): Promise<ClientChangeView>;
  apply(id: ClientId, action: 'install' | 'uninstall'): Promise<ClientView>;
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
    preview: (id, action) => api['clients:preview']({ id, action }),
    async apply(id, action) {
      const client = await (action === 'install'
        ? api['clients:install']({ id })
        : api['clients:uninstall']({ id }));
      set((state) => ({ clients: state.clients.map((c) => (c.id === client.id ? client : c)) }));
      return client;
    },
  }));
  api.on('clients:changed', (clients) => store.setState({ clients, load: ready }));
  return store;
}
