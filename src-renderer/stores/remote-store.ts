import { createStore, type StoreApi } from 'zustand/vanilla';
import type { AccessLevel } from '../../src-shared/constants.ts';
import type { ToolsetName } from '../../src-shared/toolsets.ts';
import type { RemoteView, RoamCompanionApi } from '../../src-shared/ipc-contract.ts';
import { failed, loading, ready, type LoadState } from './load-state.ts';

/**
 * Remote access (Settings > Remote access): the switch, the sign-ins waiting at this machine and
 * the connections. The core sends `remote:changed` when any process changes them (a sign-in
 * opened through the tunnel, one expiring, `roam-mcp remote`), so nothing is polled.
 */
export interface RemoteState {
  remote: RemoteView | null;
  load: LoadState;
  /** The indicator asked to show the screen: it scrolls there once, then clears this. */
  showing: boolean;
  show(): void;
  shown(): void;
  refresh(): Promise<void>;
  turnOn(publicUrl: string): Promise<void>;
  turnOff(): Promise<void>;
  approve(
    id: string,
    choice: { level?: AccessLevel; toolsets?: ToolsetName[]; graphs?: string[] },
  ): Promise<void>;
  deny(id: string): Promise<void>;
  revoke(id: string): Promise<void>;
}

export type RemoteStore = StoreApi<RemoteState>;

export function createRemoteStore(api: RoamCompanionApi): RemoteStore {
  const store = createStore<RemoteState>()((set, get) => {
    const apply = (remote: RemoteView) => set({ remote, load: ready });
    return {
      remote: null,
      load: loading,
      showing: false,
      show: () => set({ showing: true }),
      shown: () => set({ showing: false }),
      async refresh() {
        // Opening the screen again keeps what it shows; only a failed load shows Loading again.
        if (!get().remote) set({ load: loading });
        await api['remote:get']().then(apply, (error: unknown) => set({ load: failed(error) }));
      },
      turnOn: async (publicUrl) => apply(await api['remote:turn-on']({ publicUrl })),
      turnOff: async () => apply(await api['remote:turn-off']()),
      approve: async (id, choice) => apply(await api['remote:approve']({ id, ...choice })),
      deny: async (id) => apply(await api['remote:deny']({ id })),
      revoke: async (id) => apply(await api['remote:revoke']({ id })),
    };
  });
  api.on('remote:changed', (remote) => store.setState({ remote, load: ready }));
  return store;
}
