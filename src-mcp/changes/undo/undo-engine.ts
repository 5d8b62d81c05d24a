/**
 * Undo (docs/undo.md): reverse one change, several, a chat's, or everything since a time, newest
 * first, op by op in reverse order. Each reversal checks that what the change wrote is still
 * there as written; anything someone else changed since is left alone and reported as a
 * conflict. A dry run reports exactly what applying would do and writes nothing. Runs are
 * serialized across processes (a lock beside the journal), and the journal says what is already
 * undone: undoing the same change twice changes nothing.
 */
import { graphId } from '../../../src-shared/constants.ts';
import path from 'node:path';
import { scrubTokens } from '../../../src-shared/local-api/index.ts';
import { withFileLock } from '../../../src-shared/node/file-lock.ts';
import { RoamState } from '../journal/roam-state.ts';
import { SINCE_HINT, sinceMs, type Since } from '../journal/since.ts';
import type { Journal } from '../journal/journal.ts';
import { keptFiles } from '../journal/kept-files.ts';
import { reverseOp } from './reverse.ts';
import { isReversible } from '../journal/journal-fold.ts';
import type { Change, ChangeOp, ChatRef, StepResult, TreeNode } from '../journal/types.ts';
import { UndoRun } from './undo-run.ts';
import { readAhead } from './undo-reads.ts';
import type { Reversal, StepContext } from './undo-step.ts';

/** A Local API call with that graph's token (the tray's store, the server's gateway, the CLI's config). */
export type Caller = (
  graph: string,
  action: string,
  args: unknown[],
  graphType?: 'hosted' | 'offline',
) => Promise<unknown>;

export interface UndoRequest {
  ids?: string[];
  chat?: string;
  /** Every change at or after it (./since.ts). */
  since?: Since;
  graph?: string;
  dryRun?: boolean;
}

export interface UndoActor {
  chat: ChatRef;
  /** What the undo entries name as their tool: undo_changes, `roam-mcp undo`, Roam Companion. */
  tool: string;
  /** Only this chat's changes may be undone (an agent undoes only its own). */
  onlyChat?: string;
}

export type ChangeResult =
  | 'undone'
  | 'would-undo'
  | 'partly-undone'
  | 'conflict'
  | 'already-undone'
  | 'not-undoable'
  | 'nothing-to-undo'
  | 'failed';

export interface ChangeReport {
  id: string;
  at: string;
  graph: string;
  tool: string;
  summary: string;
  result: ChangeResult;
  steps: StepResult[];
}

export interface UndoReport {
  dryRun: boolean;
  changes: ChangeReport[];
  /** Changes taken back completely (or that would be). */
  undone: number;
  /** Steps and parts left alone because someone changed them since. */
  conflicts: number;
  /** The undo entries written (one per graph), themselves undoable. */
  runs: string[];
}

export class UndoError extends Error {
  constructor(
    readonly code: 'NOT_FOUND' | 'NOT_YOUR_CHANGE' | 'NOTHING_SELECTED',
    message: string,
  ) {
    super(message);
    this.name = 'UndoError';
  }
}

function fromTime(since: UndoRequest['since']): number | undefined {
  if (since === undefined) return undefined;
  const ms = sinceMs(since);
  if (Number.isNaN(ms))
    throw new UndoError('NOTHING_SELECTED', `'${String(since)}' is not a time: use ${SINCE_HINT}.`);
  return ms;
}

/** The changes a request names, newest first. */
export function selectChanges(all: readonly Change[], request: UndoRequest, actor: UndoActor): Change[] {
  const mine = (c: Change) => actor.onlyChat === undefined || c.chat.id === actor.onlyChat;
  const inGraph = (c: Change) => request.graph === undefined || c.graph === request.graph;
  let chosen: Change[];
  if (request.ids?.length) {
    chosen = request.ids.map((id) => {
      const change = all.find((c) => c.id === id);
      if (!change)
        throw new UndoError(
          'NOT_FOUND',
          `No change '${id}' in the journal (it keeps 30 days). List them with ${
            // A person (the CLI, the tray) has no agent tools; an agent has no terminal of ours.
            actor.onlyChat === undefined
              ? "'roam-mcp changes' or in Roam Companion's Activity"
              : 'list_changes'
          }.`,
        );
      if (!mine(change))
        throw new UndoError(
          'NOT_YOUR_CHANGE',
          `Change '${id}' was made in another chat; an agent can undo only its own chat's changes. A person can undo it with 'roam-mcp undo ${id}' or in Roam Companion.`,
        );
      return change;
    });
  } else {
    const from = fromTime(request.since);
    if (request.chat === undefined && from === undefined && actor.onlyChat === undefined)
      throw new UndoError('NOTHING_SELECTED', 'Say what to undo: change ids, a chat, or a time (since).');
    // Undo runs are taken back only when named: "undo the chat" never redoes what it undid.
    chosen = all.filter(
      (c) =>
        !c.undoes &&
        mine(c) &&
        (request.chat === undefined || c.chat.id === request.chat) &&
        (from === undefined || Date.parse(c.at) >= from),
    );
  }
  return [...new Set(chosen)]
    .filter(inGraph)
    .reverse()
    .sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
}

/** The ops to take back, last first. */
function pending(change: Change): ChangeOp[] {
  return change.ops
    .filter((o) => (o.outcome === 'applied' || o.outcome === 'unconfirmed') && !o.undoneBy)
    .reverse();
}

const SUCCESS = new Set<StepResult['status']>(['undone', 'would-undo', 'already-undone']);

function resultOf(steps: StepResult[], dry: boolean): ChangeResult {
  const statuses = new Set(steps.map((s) => s.status));
  const did = statuses.has('undone') || statuses.has('would-undo') || statuses.has('already-undone');
  if (did && steps.every((s) => SUCCESS.has(s.status)) && !steps.some(hasParts))
    return dry ? 'would-undo' : 'undone';
  if (did) return 'partly-undone';
  if (statuses.has('failed')) return 'failed';
  if (statuses.has('conflict')) return 'conflict';
  return 'not-undoable';
}

const hasParts = (s: StepResult) => (s.conflicts?.length ?? 0) > 0;

export interface RunOptions {
  journal: Journal;
  caller: Caller;
  actor: UndoActor;
  dry: boolean;
}

async function runGraph(
  changes: Change[],
  options: RunOptions,
): Promise<{ reports: ChangeReport[]; run?: string }> {
  const [first] = changes;
  if (!first) return { reports: [] };
  const { journal, caller, actor, dry } = options;
  const call = (action: string, args: unknown[]) => caller(first.graph, action, args, first.graphType);
  const view = new RoamState(call);
  const run = dry
    ? undefined
    : new UndoRun(journal, {
        graph: first.graph,
        graphType: first.graphType,
        chat: actor.chat,
        tool: actor.tool,
        undoes: changes.map((c) => c.id),
      });
  await run?.begin();
  const files = keptFiles(journal.store.dir);
  const firstEids = firstEidsOf(await journal.changes());
  // Only a warm-up: a read that fails here fails again in its step, which reports it there.
  await readAhead(
    view,
    changes.filter((c) => !c.undone).flatMap((c) => pending(c).map((o) => o.op)),
  ).catch(() => undefined);
  const reports: ChangeReport[] = [];
  const all: StepResult[] = [];
  for (const change of changes) {
    const steps = await undoChange(change, { view, dry, files, run, call, firstEids });
    all.push(...steps);
    reports.push(report(change, steps, dry));
  }
  await run?.end(all, summaryOf(reports, dry));
  return { reports, ...(run ? { run: run.id } : {}) };
}

/** The smallest entity id the journal ever saw for each uid (delete snapshots keep them). */
function firstEidsOf(changes: readonly Change[]): Map<string, number> {
  const first = new Map<string, number>();
  const note = (uid: string | undefined, eid: number | undefined) => {
    if (uid && eid !== undefined && eid < (first.get(uid) ?? Infinity)) first.set(uid, eid);
  };
  const walk = (nodes: readonly TreeNode[]) =>
    nodes.forEach((n) => {
      note(n.uid, n.eid);
      walk(n.children);
    });
  for (const change of changes)
    for (const { op } of change.ops) {
      if (op.kind === 'delete-blocks') walk(op.items.map((i) => i.block));
      if (op.kind === 'delete-page') {
        note(op.uid, op.eid);
        walk(op.children);
      }
    }
  return first;
}

interface ChangeRun {
  firstEids: Map<string, number>;
  view: RoamState;
  dry: boolean;
  files: StepContext['files'];
  run?: UndoRun;
  call: (action: string, args: unknown[]) => Promise<unknown>;
}

async function undoChange(change: Change, r: ChangeRun): Promise<StepResult[]> {
  if (change.undone) return [{ id: change.id, n: -1, status: 'already-undone', detail: 'already undone' }];
  if (!change.ops.some((o) => o.outcome === 'applied' || o.outcome === 'unconfirmed'))
    return [
      {
        id: change.id,
        n: -1,
        status: 'nothing-to-undo',
        detail: 'it changed nothing (Roam refused the write)',
      },
    ];
  const steps: StepResult[] = [];
  for (const op of pending(change)) {
    if (!isReversible(op.op)) {
      steps.push({ id: change.id, n: op.n, status: 'not-undoable', detail: notUndoableDetail(op) });
      continue;
    }
    try {
      const reversal = await reverseOp(op.op, stepContext(change.id, op, r));
      steps.push(stepResult(change.id, op.n, reversal, r.dry));
    } catch (error) {
      // A write may have landed half-way: read Roam again (a dry run wrote nothing, its model stands).
      if (!r.dry) r.view.forget();
      steps.push({
        id: change.id,
        n: op.n,
        status: 'failed',
        detail: scrubTokens((error as Error).message),
      });
    }
  }
  if (steps.length === 0)
    steps.push({
      id: change.id,
      n: -1,
      status: 'not-undoable',
      detail: 'nothing it wrote can be taken back',
    });
  return steps;
}

function notUndoableDetail(op: ChangeOp): string {
  if (op.op.kind === 'opaque') return op.op.reason;
  if (op.outcome === 'unconfirmed') return 'the write was never confirmed and Roam did not say what it made';
  return 'Roam did not say what it made';
}

function stepResult(id: string, n: number, reversal: Reversal, dry: boolean): StepResult {
  const status =
    reversal.status === 'undone'
      ? dry
        ? 'would-undo'
        : 'undone'
      : reversal.status === 'already'
        ? 'already-undone'
        : reversal.status;
  return {
    id,
    n,
    status,
    detail: reversal.detail,
    ...(reversal.conflicts?.length ? { conflicts: reversal.conflicts } : {}),
  };
}

function stepContext(id: string, op: ChangeOp, r: ChangeRun): StepContext {
  const n = op.n;
  return {
    view: r.view,
    dry: r.dry,
    unconfirmed: op.outcome === 'unconfirmed',
    answeredAt: op.answeredAt,
    firstEid: (uid, now) => {
      const first = r.firstEids.get(uid);
      return first === undefined ? now : now === undefined ? first : Math.min(first, now);
    },
    files: r.files,
    async apply(ops, run) {
      if (r.dry || !r.run) {
        await run(async () => undefined);
        return;
      }
      const ns = await r.run.intent(ops, { id, n });
      try {
        const patches = await run(r.call);
        await r.run.done(ns, true, patches ?? []);
      } catch (error) {
        await r.run.done(ns, false, [], (error as Error).message).catch(() => {});
        throw error;
      }
    },
  };
}

function report(change: Change, steps: StepResult[], dry: boolean): ChangeReport {
  const only = steps.length === 1 && steps[0]?.n === -1 ? steps[0].status : undefined;
  const fixed = only === 'already-undone' || only === 'nothing-to-undo' ? only : undefined;
  return {
    id: change.id,
    at: change.at,
    graph: change.graph,
    tool: change.tool,
    summary: change.summary,
    result: fixed ?? resultOf(steps, dry),
    steps,
  };
}

function summaryOf(reports: ChangeReport[], dry: boolean): string {
  const done = reports.filter((r) => r.result === 'undone' || r.result === 'would-undo').length;
  const conflicts = reports.filter((r) => r.result === 'conflict' || r.result === 'partly-undone').length;
  const all = reports.length === 1 ? '1 change' : `${reports.length} changes`;
  const ofAll = done === reports.length ? all : `${done} of ${all}`;
  return `${dry ? 'Would undo' : 'Undid'} ${ofAll}${conflicts ? `, ${conflicts} with conflicts left alone` : ''}`;
}

/** Runs an undo (or its dry run) for the request; one run per graph. */
export async function runUndo(request: UndoRequest, options: Omit<RunOptions, 'dry'>): Promise<UndoReport> {
  const dry = request.dryRun === true;
  const go = async (): Promise<UndoReport> => {
    const chosen = selectChanges(await options.journal.changes(), request, options.actor);
    const graphs = [...new Set(chosen.map((c) => graphId({ name: c.graph, type: c.graphType })))];
    const changes: ChangeReport[] = [];
    const runs: string[] = [];
    for (const key of graphs) {
      const mine = chosen.filter((c) => graphId({ name: c.graph, type: c.graphType }) === key);
      const { reports, run } = await runGraph(mine, { ...options, dry });
      changes.push(...reports);
      if (run) runs.push(run);
    }
    const conflicts = changes.reduce(
      (sum, c) => sum + c.steps.filter((s) => s.status === 'conflict' || hasParts(s)).length,
      0,
    );
    const undone = changes.filter((c) => c.result === 'undone' || c.result === 'would-undo').length;
    return { dryRun: dry, changes, undone, conflicts, runs };
  };
  if (dry) return go();
  const lock = path.join(options.journal.store.dir, 'undo');
  return withFileLock(
    lock,
    'Another undo is running on this machine; try again in a moment.',
    go,
    `${lock}.lock`,
  );
}
