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
  /** What the last import did, for the offer's place in the view; null when there is nothing to say. */
  importNote: string | null;
  checkImport(): Promise<void>;
  runImport(): Promise<GraphView[]>;
  dismissImport(): Promise<void>;
  clearImportNote(): void;
}

export type GraphsStore = StoreApi<GraphsState>;

const graphsText = (n: number) => (n === 1 ? '1 graph' : `${n} graphs`);

/** Says what an import did, including "nothing new" when every graph was already here. */
export function importNote(added: number, offered: number): string {
  const kept = Math.max(offered - added, 0);
  if (added === 0) {
    return offered
      ? `Nothing new to import: ${offered === 1 ? 'the graph' : `all ${offered} graphs`} of the file ${offered === 1 ? 'is' : 'are'} already here, kept as they are.`
      : 'Nothing new to import: every graph of the file is already here.';
  }
  const rest = kept
    ? ` ${graphsText(kept)} already here ${kept === 1 ? 'was' : 'were'} kept as ${kept === 1 ? 'it is' : 'they are'}.`
    : '';
  return `Imported ${graphsText(added)}.${rest}`;
}

export function createGraphsStore(api: RoamCompanionApi): GraphsStore {
  const store = createStore<GraphsState>()((set, get) => ({
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
    // Every change reaches this store one way: the 'graphs:changed' event the core sends after it.
    add: (input) => api['graphs:add'](input),
    update: (input) => api['graphs:update'](input),
    remove: (id) => api['graphs:remove']({ id }),
    checkNickname: (input) => api['graphs:check-nickname'](input),
    ...importSlice(api, set, get),
  }));

  api.on('graphs:changed', (graphs) => {
    store.setState({ graphs, load: ready });
    // Graphs added by hand may be the very ones offered: the offer counts only what is left.
    if (store.getState().importOffer) void store.getState().checkImport();
  });
  return store;
}

type ImportSlice = Pick<
  GraphsState,
  'importOffer' | 'importNote' | 'checkImport' | 'runImport' | 'dismissImport' | 'clearImportNote'
>;

/** The offer to import the official server's graphs, and what the import did. */
function importSlice(
  api: RoamCompanionApi,
  set: GraphsStore['setState'],
  get: GraphsStore['getState'],
): ImportSlice {
  return {
    importOffer: null,
    async checkImport() {
      try {
        const check = await api['import:check']();
        set({ importOffer: check.available ? { path: check.path, graphCount: check.graphCount } : null });
      } catch {
        set({ importOffer: null }); // only an offer: the graphs view works without it
      }
    },
    importNote: null,
    async runImport() {
      const offered = get().importOffer?.graphCount ?? 0;
      const before = new Set(get().graphs.map((g) => g.id));
      const graphs = await api['import:run']();
      const added = graphs.filter((g) => !before.has(g.id)).length;
      set({ importOffer: null, importNote: importNote(added, offered) });
      return graphs;
    },
    async dismissImport() {
      await api['import:dismiss']();
      set({ importOffer: null });
    },
    clearImportNote() {
      set({ importNote: null });
    },
  };
}
