import { createStore, type StoreApi } from 'zustand/vanilla';
import type { KeyView, RoamCompanionApi } from '../../src-shared/ipc-contract.ts';

/** The keys of clients connected over HTTP, by name: the renderer never sees a key. */
export interface KeysState {
  keys: KeyView[];
  refresh(): Promise<void>;
  revoke(name: string): Promise<void>;
}

export type KeysStore = StoreApi<KeysState>;

export function createKeysStore(api: RoamCompanionApi): KeysStore {
  return createStore<KeysState>()((set) => ({
    keys: [],
    async refresh() {
      set({ keys: await api['keys:list']() });
    },
    async revoke(name) {
      set({ keys: await api['keys:revoke']({ name }) });
    },
  }));
}
