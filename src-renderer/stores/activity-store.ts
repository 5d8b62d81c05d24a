import { createStore, type StoreApi } from 'zustand/vanilla';
import type {
  ActivityFeedView,
  ActivityUndoReportView,
  RoamCompanionApi,
} from '../../src-shared/ipc-contract.ts';
import { failed, loading, ready, type LoadState } from './load-state.ts';

/** What an undo names: some changes, or a whole chat. */
export type UndoTarget = { ids: string[] } | { chat: string; graph?: string };

export interface ActivityState {
  feed: ActivityFeedView;
  load: LoadState;
  /** Bumped each time the tray menu asks to show Activity. */
  showRequests: number;
  refresh(): Promise<void>;
  /** `dryRun`: what would change and what would be left alone, writing nothing. */
  undo(target: UndoTarget, dryRun: boolean): Promise<ActivityUndoReportView>;
}

export type ActivityStore = StoreApi<ActivityState>;

const empty: ActivityFeedView = { chats: [], today: 0, truncated: false };

export function createActivityStore(api: RoamCompanionApi): ActivityStore {
  const store = createStore<ActivityState>()((set) => ({
    feed: empty,
    load: loading,
    showRequests: 0,
    async refresh() {
      set((state) => (state.load.phase === 'ready' ? {} : { load: loading }));
      try {
        set({ feed: await api['activity:list'](), load: ready });
      } catch (error) {
        set({ load: failed(error) });
      }
    },
    undo: (target, dryRun) => api['activity:undo']({ ...target, dryRun }),
  }));
  // The journal changed (an agent wrote, an undo ran): the core sends the whole feed.
  api.on('activity:changed', (feed) => store.setState({ feed, load: ready }));
  api.on('activity:show', () => store.setState((s) => ({ showRequests: s.showRequests + 1 })));
  return store;
}
