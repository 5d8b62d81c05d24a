/**
 * Changes waiting for the person, shown by Roam Companion (docs/tray.md, "Approvals"): a server it
 * runs (the tray's HTTP server, or the `--mcp` child) tells its launcher of each waiting proposal
 * as a person reads it (no uid, no code, no hidden text) and of each one that closes, wherever it
 * was answered; the person's Approve or Keep goes back to that server over the launcher's IPC pipe,
 * which runs it through the same path as the approval view in the chat. The
 * first answer wins: an answer for a proposal no longer shown here (answered in the chat, expired,
 * already answered in the tray, or never made) is refused, and the server refuses one it sees late.
 */
import type { ChildMessage, ParentMessage } from '../../../src-shared/child-ipc.ts';
import type { ProposalAnswerView, ProposalView } from '../../../src-shared/ipc-contract.ts';
import { CoreError } from '../core-error.ts';

type ProposalMessage = Extract<ChildMessage, { type: 'proposal' | 'proposal-closed' | 'proposal-answered' }>;

/** One more server whose proposals are shown here (the demo's stdio stand-ins), beside the main one. */
export interface ProposalSource {
  heard(message: ProposalMessage): void;
  /** The server went away: its proposals go, and answers on their way to it are settled. */
  gone(): void;
}

export interface PendingProposals {
  /** The server's messages about proposals (its launcher hands them here). */
  heard(message: ProposalMessage): void;
  /** The server that made them: its proposals live in it, so a new one (or none) drops them all. */
  serverIs(send: ((message: ParentMessage) => void) | undefined): void;
  /** Another server's proposals, answered back through `send`. */
  addServer(send: (message: ParentMessage) => void): ProposalSource;
  list(): ProposalView[];
  answer(id: string, answer: 'approve' | 'keep'): Promise<ProposalAnswerView>;
}

/** More waiting at once is an agent flooding the person: the rest stay answerable in their chats. */
const MAX_SHOWN = 50;

const NO_LONGER =
  'This change no longer waits for an answer: it was answered in the chat or here, or it expired. Nothing more was done; Activity shows what the agent changed.';

type Send = (message: ParentMessage) => void;

export function pendingProposals(changed: (list: ProposalView[]) => void): PendingProposals {
  const shown = new Map<string, ProposalView>();
  /** Who made each proposal shown: its answer goes back there. */
  const madeBy = new Map<string, { send?: Send }>();
  const main: { send?: Send } = {};
  /** Answers on their way to the server, by proposal id. */
  const answering = new Map<string, (answered: ProposalAnswerView) => void>();
  let expiry: NodeJS.Timeout | undefined;
  const list = () => [...shown.values()].filter((p) => Date.parse(p.expiresAt) > Date.now());
  // Also when the next one expires: the server says so only at its next call.
  const publish = () => {
    const now = list();
    changed(now);
    clearTimeout(expiry);
    const next = Math.min(...now.map((p) => Date.parse(p.expiresAt)));
    if (Number.isFinite(next)) expiry = setTimeout(publish, next - Date.now() + 1).unref();
  };
  const settle = (id: string, answered: ProposalAnswerView) => {
    answering.get(id)?.(answered);
    answering.delete(id);
  };
  const heardFrom = (source: { send?: Send }, message: ProposalMessage) => {
    if (message.type === 'proposal') {
      if (shown.size >= MAX_SHOWN) return;
      shown.set(message.proposal.id, message.proposal);
      madeBy.set(message.proposal.id, source);
    } else {
      shown.delete(message.id);
      madeBy.delete(message.id);
      if (message.type === 'proposal-answered')
        settle(message.id, { done: message.done, outcome: message.outcome });
    }
    publish();
  };
  /** `source`'s proposals go; answers on their way to it will never be applied. */
  const drop = (source: { send?: Send }) => {
    for (const [id, by] of madeBy) {
      if (by !== source) continue;
      shown.delete(id);
      madeBy.delete(id);
      settle(id, {
        done: false,
        outcome: 'The server stopped before it could apply the answer. Nothing was changed.',
      });
    }
    publish();
  };

  return {
    heard: (message) => heardFrom(main, message),
    serverIs(next) {
      drop(main);
      main.send = next;
    },
    addServer(send) {
      const source = { send };
      return { heard: (message) => heardFrom(source, message), gone: () => drop(source) };
    },
    list,
    answer(id, answer) {
      const proposal = shown.get(id);
      const send = madeBy.get(id)?.send;
      if (!proposal || !send || answering.has(id) || Date.parse(proposal.expiresAt) <= Date.now())
        return Promise.reject(new CoreError('NOT_FOUND', NO_LONGER));
      const reply = new Promise<ProposalAnswerView>((resolve) => answering.set(id, resolve));
      send({ type: 'proposal-answer', id, answer });
      return reply;
    },
  };
}
