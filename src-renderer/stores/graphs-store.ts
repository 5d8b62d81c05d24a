import { createStore, type StoreApi } from 'zustand/vanilla';
import type {
  AvailableGraph,
  GraphView,
  RequestInput,
  RequestResults,
  RoamCompanionApi,
} from '../../src-shared/ipc-contract.ts';
import { failed, loading, ready, type LoadState } from './load-state.ts';

export interface GraphsState {
  graphs: GraphView[];
  load: LoadState;
  /** Graphs Roam reports as available, for the add form. */
  available: AvailableGraph[];
  availableLoad: LoadState;
  refresh(): Promise<void>;
  refreshAvailable(): Promise<void>;
  add(input: RequestInput<'graphs:add'>): Promise<GraphView>;
  update(input: RequestInput<'graphs:update'>): Promise<GraphView>;
  remove(id: string): Promise<void>;
  checkNickname(
    input: RequestInput<'graphs:check-nickname'>,
  ): Promise<RequestResults['graphs:check-nickname']>;
  /** Graphs found in ~/.roam-tools.json (the official server's config), offered once for import. */
  importOffer: { path: string; graphCount: number } | null;
  checkImport(): Promise<void>;
  runImport(): Promise<GraphView[]>;
  dismissImport(): void;
}

export type GraphsStore = StoreApi<GraphsState>;

export function createGraphsStore(api: RoamCompanionApi): GraphsStore {
  const store = createStore<GraphsState>()((set) => ({
    graphs: [],
    load: loading,
    available: [],
    availableLoad: loading,
    async refresh() {
      set({ load: loading });
      try {
        set({ graphs: await api['graphs:list'](), load: ready });
      } catch (error) {
        set({ load: failed(error) });
      }
    },
    async refreshAvailable() {
      set({ availableLoad: loading });
      try {
        set({ available: await api['graphs:available'](), availableLoad: ready });
      } catch (error) {
        set({ available: [], availableLoad: failed(error) });
      }
    },
    async add(input) {
      const graph = await api['graphs:add'](input);
      upsert(graph);
      return graph;
    },
    async update(input) {
      const graph = await api['graphs:update'](input);
      upsert(graph);
      return graph;
    },
    async remove(id) {
      await api['graphs:remove']({ id });
      set((state) => ({ graphs: state.graphs.filter((g) => g.id !== id) }));
    },
    checkNickname: (input) => api['graphs:check-nickname'](input),
    importOffer: null,
    async checkImport() {
      try {
        const check = await api['import:check']();
        set({ importOffer: check.available ? { path: check.path, graphCount: check.graphCount } : null });
      } catch {
        set({ importOffer: null }); // only an offer: the graphs view works without it
      }
    },
    async runImport() {
      const graphs = await api['import:run']();
      set({ graphs, importOffer: null, load: ready });
      return graphs;
    },
    dismissImport() {
      set({ importOffer: null });
    },
  }));

  // The result of a call lands at once; the 'graphs:changed' event that follows confirms it.
  function upsert(graph: GraphView): void {
    store.setState((state) => {
      const exists = state.graphs.some((g) => g.id === graph.id);
      return {
        graphs: exists ? state.graphs.map((g) => (g.id === graph.id ? graph : g)) : [...state.graphs, graph],
      };
    });
  }

  api.on('graphs:changed', (graphs) => store.setState({ graphs, load: ready }));
  return store;
}
