import { createStore, type StoreApi } from 'zustand/vanilla';
import type { BlockedGraphView, RoamCompanionApi, TokenRequestView } from '../../src-shared/ipc-contract.ts';
import { failed, loading, ready, type LoadState } from './load-state.ts';

export interface TokensState {
  /** The latest request per graph id, as the core reports it through 'tokens:request-changed'. */
  requests: Record<string, TokenRequestView>;
  /** Graph ids whose finished request the user has dismissed. */
  dismissed: Record<string, true>;
  blocked: BlockedGraphView[];
  blockedLoad: LoadState;
  refresh(): Promise<void>;
  /** Asks Roam for a token serving the graph's chosen access level. */
  request(graphId: string): Promise<TokenRequestView>;
  cancel(graphId: string): Promise<void>;
  retryBlocked(graphId: string): Promise<TokenRequestView>;
  dismiss(graphId: string): void;
}

export type TokensStore = StoreApi<TokensState>;

export const isPending = (request: TokenRequestView) => request.status === 'waiting';

export function createTokensStore(api: RoamCompanionApi): TokensStore {
  const store = createStore<TokensState>()((set) => ({
    requests: {},
    dismissed: {},
    blocked: [],
    blockedLoad: loading,
    async refresh() {
      set({ blockedLoad: loading });
      try {
        const [requests, blocked] = await Promise.all([api['tokens:requests'](), api['blocked:list']()]);
        for (const request of requests) record(request);
        set({ blocked, blockedLoad: ready });
      } catch (error) {
        set({ blockedLoad: failed(error) });
      }
    },
    async request(graphId) {
      return record(await api['tokens:request']({ id: graphId }));
    },
    async cancel(graphId) {
      await api['tokens:cancel']({ id: graphId });
    },
    async retryBlocked(graphId) {
      return record(await api['blocked:retry']({ id: graphId }));
    },
    dismiss(graphId) {
      set((state) => ({ dismissed: { ...state.dismissed, [graphId]: true } }));
      // The core forgets it too, so a reload does not bring the panel back.
      void api['tokens:dismiss']({ id: graphId }).catch(() => {});
    },
  }));

  // Keeps the newest view of each graph's request; a new request un-dismisses its panel.
  function record(request: TokenRequestView): TokenRequestView {
    store.setState((state) => {
      const current = state.requests[request.graphId];
      if (current && current.startedAt > request.startedAt) return state;
      // The call's answer ("waiting") can arrive after the event with the outcome of the same request.
      const sameRequest = current?.startedAt === request.startedAt;
      if (sameRequest && !isPending(current) && isPending(request)) return state;
      const dismissed = { ...state.dismissed };
      if (!current || current.startedAt !== request.startedAt) delete dismissed[request.graphId];
      return { requests: { ...state.requests, [request.graphId]: request }, dismissed };
    });
    return request;
  }

  api.on('tokens:request-changed', record);
  // The state a finished request described is gone (graph removed, token replaced, Roam back).
  api.on('tokens:request-removed', ({ graphId, startedAt }) =>
    store.setState((state) => {
      if (state.requests[graphId]?.startedAt !== startedAt) return state;
      const requests = { ...state.requests };
      delete requests[graphId];
      return { requests };
    }),
  );
  api.on('blocked:changed', (blocked) => store.setState({ blocked, blockedLoad: ready }));
  return store;
}
