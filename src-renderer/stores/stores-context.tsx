import { createContext, useContext, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { RoamCompanionApi } from '../../src-shared/ipc-contract.ts';
import { createActivityStore, type ActivityState, type ActivityStore } from './activity-store.ts';
import { createAppStore, type AppState, type AppStore } from './app-store.ts';
import { createClientsStore, type ClientsState, type ClientsStore } from './clients-store.ts';
import { createGraphsStore, type GraphsState, type GraphsStore } from './graphs-store.ts';
import { createKeysStore, type KeysState, type KeysStore } from './keys-store.ts';
import { createProposalsStore, type ProposalsState, type ProposalsStore } from './proposals-store.ts';
import { createRemoteStore, type RemoteState, type RemoteStore } from './remote-store.ts';
import { createTokensStore, type TokensState, type TokensStore } from './tokens-store.ts';

export interface Stores {
  graphs: GraphsStore;
  tokens: TokensStore;
  clients: ClientsStore;
  app: AppStore;
  activity: ActivityStore;
  keys: KeysStore;
  proposals: ProposalsStore;
  remote: RemoteStore;
}

/** One store per domain, each fed by the bridge's calls and events. */
export function createStores(api: RoamCompanionApi): Stores {
  return {
    graphs: createGraphsStore(api),
    tokens: createTokensStore(api),
    clients: createClientsStore(api),
    app: createAppStore(api),
    activity: createActivityStore(api),
    keys: createKeysStore(api),
    proposals: createProposalsStore(api),
    remote: createRemoteStore(api),
  };
}

/** First load of every domain; afterwards events keep them current. */
export async function loadAll(stores: Stores): Promise<void> {
  await Promise.all([
    stores.graphs.getState().refresh(),
    stores.graphs.getState().checkImport(),
    stores.tokens.getState().refresh(),
    stores.clients.getState().refresh(),
    stores.app.getState().refresh(),
    stores.activity.getState().refresh(),
    stores.proposals.getState().refresh(),
    stores.remote.getState().refresh(),
  ]);
}

const StoresContext = createContext<Stores | null>(null);

export function StoresProvider({ stores, children }: { stores: Stores; children: ReactNode }) {
  return <StoresContext.Provider value={stores}>{children}</StoresContext.Provider>;
}

function useStores(): Stores {
  const stores = useContext(StoresContext);
  if (!stores) throw new Error('StoresProvider is missing above this component.');
  return stores;
}

export function useGraphs<T>(select: (state: GraphsState) => T): T {
  return useStore(useStores().graphs, select);
}
export function useTokens<T>(select: (state: TokensState) => T): T {
  return useStore(useStores().tokens, select);
}
export function useClients<T>(select: (state: ClientsState) => T): T {
  return useStore(useStores().clients, select);
}
export function useApp<T>(select: (state: AppState) => T): T {
  return useStore(useStores().app, select);
}
export function useActivity<T>(select: (state: ActivityState) => T): T {
  return useStore(useStores().activity, select);
}
export function useKeys<T>(select: (state: KeysState) => T): T {
  return useStore(useStores().keys, select);
}
export function useProposals<T>(select: (state: ProposalsState) => T): T {
  return useStore(useStores().proposals, select);
}
export function useRemote<T>(select: (state: RemoteState) => T): T {
  return useStore(useStores().remote, select);
}
