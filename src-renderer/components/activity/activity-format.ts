/** Words and times the Activity view shows, and its graph filter. */
import type {
  ActivityChatView,
  ActivityFeedView,
  ActivityStepView,
} from '../../../src-shared/ipc-contract.ts';

/** "14:02" today, "Nov 25, 14:02" before. */
export function when(iso: string, now = new Date()): string {
  const at = new Date(iso);
  const time = at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  if (at.toDateString() === now.toDateString()) return time;
  return `${at.toLocaleDateString([], { month: 'short', day: 'numeric' })}, ${time}`;
}

/** The client as a person reads it; a chat through the tunnel is marked remote. */
const clientOf = (chat: ActivityChatView) =>
  `${chat.client ?? 'An AI client'}${chat.remote ? ' (remote)' : ''}`;

export function chatTitle(chat: ActivityChatView, chats: readonly ActivityChatView[] = [chat]): string {
  if (chat.kind === 'person') return 'Your undos in Roam Companion';
  const client = clientOf(chat);
  // Two chats of one client read apart: numbered by when they started, the first 1.
  const same = chats
    .filter((c) => c.kind === 'agent' && clientOf(c) === client)
    .sort((a, b) => a.startedAt.localeCompare(b.startedAt) || a.id.localeCompare(b.id));
  return same.length > 1 ? `${client} · chat ${same.findIndex((c) => c.id === chat.id) + 1}` : client;
}

export const resultText: Record<string, string> = {
  undone: 'Undone',
  'would-undo': 'Will be undone',
  'partly-undone': 'Partly undone',
  conflict: 'Left alone (changed since)',
  'already-undone': 'Already undone',
  'not-undoable': 'Cannot be undone',
  'nothing-to-undo': 'Nothing to undo',
  failed: 'Failed',
};

/**
 * The step lines worth reading: what was left alone and why, or what failed; a detail that only
 * repeats its state ("already undone") says nothing the change's own line does not.
 */
export function stepNotes(steps: readonly ActivityStepView[]): string[] {
  const says = (s: ActivityStepView) => s.detail.trim().toLowerCase() !== stepLabel(s).toLowerCase();
  return steps.flatMap((s) => [
    ...(s.status === 'undone' || s.status === 'would-undo' || !says(s)
      ? []
      : [`${stepLabel(s)}: ${s.detail}`]),
    ...(s.conflicts ?? []).map((c) => `Left alone: ${c}`),
  ]);
}

const stepLabel = (step: ActivityStepView) =>
  step.status === 'conflict' ? 'Left alone' : (resultText[step.status] ?? step.status);

/** The graphs the feed mentions, by the name the tray shows. */
export function feedGraphs(feed: ActivityFeedView): string[] {
  return [...new Set(feed.chats.flatMap((c) => c.graphs))].sort();
}

/** The chats with only the changes to `graph` (all when none is chosen). */
export function filterByGraph(chats: readonly ActivityChatView[], graph: string): ActivityChatView[] {
  if (!graph) return [...chats];
  return chats
    .map((c) => ({ ...c, changes: c.changes.filter((ch) => (ch.nickname ?? ch.graph) === graph) }))
    .filter((c) => c.changes.length > 0);
}

export function changesCount(n: number): string {
  return n === 1 ? '1 change' : `${n} changes`;
}
