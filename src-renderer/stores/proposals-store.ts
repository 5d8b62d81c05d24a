import { createStore, type StoreApi } from 'zustand/vanilla';
import type { ProposalView, RoamCompanionApi } from '../../src-shared/ipc-contract.ts';

/** What became of the person's last answer here, or of a change answered elsewhere. */
export interface ProposalNote {
  text: string;
  /** The answer did what was asked (else: it came too late, or failed). */
  done: boolean;
}

export interface ProposalsState {
  /** Changes agents asked for that wait for the person (docs/tray.md, "Approvals"). */
  waiting: ProposalView[];
  /** Ids being answered now: their buttons are disabled. */
  answering: string[];
  note?: ProposalNote;
  /** Bumped each time a notification or the tray menu asks to show them. */
  showRequests: number;
  refresh(): Promise<void>;
  answer(id: string, answer: 'approve' | 'keep'): Promise<void>;
  /** The person read the note: it goes (and the panel with it, when nothing waits). */
  dismissNote(): void;
}

export type ProposalsStore = StoreApi<ProposalsState>;

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function createProposalsStore(api: RoamCompanionApi): ProposalsStore {
  const store = createStore<ProposalsState>()((set, get) => ({
    waiting: [],
    answering: [],
    showRequests: 0,
    async refresh() {
      set({ waiting: await api['proposals:list']().catch(() => get().waiting) });
    },
    dismissNote: () => set({ note: undefined }),
    async answer(id, answer) {
      set((s) => ({ answering: [...s.answering, id] }));
      try {
        const answered = await api['proposals:answer']({ id, answer });
        set({ note: { text: answered.outcome, done: answered.done } });
      } catch (error) {
        set({ note: { text: message(error), done: false } });
      } finally {
        set((s) => ({
          answering: s.answering.filter((a) => a !== id),
          waiting: s.waiting.filter((p) => p.id !== id),
        }));
      }
    },
  }));
  api.on('proposals:changed', (waiting) => {
    const before = store.getState().waiting;
    const { answering } = store.getState();
    // A change shown here that closed without an answer from here was answered in the chat or expired.
    const elsewhere = before.filter((p) => !waiting.some((w) => w.id === p.id) && !answering.includes(p.id));
    store.setState({
      waiting,
      ...(elsewhere.length
        ? {
            note: {
              text: 'A change no longer waits here: it was answered in the chat, or it expired.',
              done: false,
            },
          }
        : {}),
    });
  });
  api.on('proposals:show', () => store.setState((s) => ({ showRequests: s.showRequests + 1 })));
  return store;
}
