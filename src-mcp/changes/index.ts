/**
 * The change journal and undo, for the MCP server, the CLI and the tray (docs/undo.md). Every
 * roam-mcp on this machine writes to one journal in `<data folder>/journal/`; anything here
 * reads all of it.
 */
import { watch } from 'node:fs';
import type { GraphType } from '../../src-shared/constants.ts';
import { personChat } from '../contract/chat.ts';
import { sinceMs, type Since } from './journal/since.ts';
import type { Journal } from './journal/journal.ts';
import type { Change, ChatRef } from './journal/types.ts';
import {
  runUndo,
  type Caller,
  type UndoActor,
  type UndoReport,
  type UndoRequest,
} from './undo/undo-engine.ts';
import { VIEW_READS } from './journal/roam-state.ts';
import { REVERSING_ACTIONS } from './undo/undo-step.ts';

export type { Change, ChatRef, Op, OpKind, StepResult, TreeNode } from './journal/types.ts';
export type { Caller, UndoActor, UndoReport, UndoRequest } from './undo/undo-engine.ts';
export { UndoError } from './undo/undo-engine.ts';
export { Journal, journalOpener, type OpenJournal } from './journal/journal.ts';
export { JournalStore } from './journal/journal-store.ts';
export { personChat } from '../contract/chat.ts';
export { createdByAgent } from './journal/created.ts';
export { describeChange, type OpDescription, type OutlineBlock } from './undo/describe.ts';
export { entrySummary } from './journal/summary.ts';

export interface ChangeFilter {
  /** Graph name (as Roam names it; the journal keeps names, not nicknames). */
  graph?: string;
  chat?: string;
  /** Changes at or after it (./since.ts). */
  since?: Since;
  /** Undo runs are changes too; false leaves them out. Default true. */
  includeUndo?: boolean;
}

export interface JournalOption {
  /** The journal to read (the server's, or the one the CLI or the tray opened). */
  journal: Journal;
}

/** Changes matching the filter, newest first. */
export async function listChanges(filter: ChangeFilter, { journal }: JournalOption): Promise<Change[]> {
  const from = filter.since === undefined ? undefined : sinceMs(filter.since);
  return (await journal.changes())
    .filter(
      (c) =>
        (filter.graph === undefined || c.graph === filter.graph) &&
        (filter.chat === undefined || c.chat.id === filter.chat) &&
        (from === undefined || Date.parse(c.at) >= from) &&
        (filter.includeUndo !== false || !c.undoes),
    )
    .reverse();
}

/** One chat (an MCP session, or a person's undo session) as the Activity view groups it. */
export interface ChatSummary {
  chat: ChatRef;
  graphs: string[];
  firstAt: string;
  lastAt: string;
  changes: number;
  undoable: number;
  undone: number;
}

/** Chats with changes matching the filter, most recently active first. */
export async function listChats(filter: ChangeFilter, options: JournalOption): Promise<ChatSummary[]> {
  const chats = new Map<string, ChatSummary>();
  for (const change of (await listChanges(filter, options)).reverse()) {
    const summary = chats.get(change.chat.id) ?? {
      chat: change.chat,
      graphs: [],
      firstAt: change.at,
      lastAt: change.at,
      changes: 0,
      undoable: 0,
      undone: 0,
    };
    if (!summary.graphs.includes(change.graph)) summary.graphs.push(change.graph);
    summary.lastAt = change.at;
    summary.changes++;
    if (change.undoable) summary.undoable++;
    if (change.undone) summary.undone++;
    // The client's name arrives after the first change on some connections.
    if (change.chat.client) summary.chat = change.chat;
    chats.set(change.chat.id, summary);
  }
  return [...chats.values()].sort((a, b) => (a.lastAt < b.lastAt ? 1 : -1));
}

/** Every Local API action an undo may call: its reads of the graph and its reversing writes. */
export const UNDO_ACTIONS: readonly string[] = [...VIEW_READS, ...REVERSING_ACTIONS];

/** The graphs an undo can reach and how it calls one: the server's session, the CLI's config, the tray's store. */
export interface UndoGraphs<G extends { name: string; type: GraphType }> {
  graphs(): readonly G[];
  /** One Local API call on that graph, with its token. */
  call(graph: G, action: string, args: unknown[]): Promise<unknown>;
  /** What to say when the change's graph is not among them: what happened and what to do next. */
  missing(name: string): Error;
}

/**
 * The one `Caller` the undo engine and the change-review reads use: each call goes to the graph the
 * change was made on (its name, and its type when the journal recorded one).
 */
export function undoCaller<G extends { name: string; type: GraphType }>(reach: UndoGraphs<G>): Caller {
  return async (name, action, args, type) => {
    const graph = reach.graphs().find((g) => g.name === name && (type === undefined || g.type === type));
    if (!graph) throw reach.missing(name);
    return reach.call(graph, action, args);
  };
}

/**
 * Undoes changes (by ids, a chat, or since a time; `dryRun` to see what would change) on behalf
 * of a person: `caller` performs each Local API call with that graph's token. The undo is
 * journaled under `actor` (default: a person using Roam Companion).
 */
export async function undoChanges(
  request: UndoRequest,
  caller: Caller,
  options: JournalOption & { actor?: UndoActor },
): Promise<UndoReport> {
  const actor = options.actor ?? { chat: personChat('Roam Companion'), tool: 'Roam Companion' };
  return runUndo(request, { journal: options.journal, caller, actor });
}

/**
 * Calls `onChange` (at most every `debounceMs`) when anything is appended to the journal by any
 * process: a file watch on the journal folder. Call `close` to stop.
 */
export async function watchJournal(
  onChange: () => void,
  options: JournalOption & { debounceMs?: number },
): Promise<{ close(): void }> {
  const { journal } = options;
  await journal.store.ensure();
  let timer: NodeJS.Timeout | undefined;
  const watcher = watch(journal.store.dir, { persistent: false }, () => {
    if (timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      onChange();
    }, options.debounceMs ?? 100);
  });
  return {
    close() {
      if (timer) clearTimeout(timer);
      watcher.close();
    },
  };
}
