/**
 * Records → changes. An op without its `done` record is "pending" while its writer runs and
 * "unconfirmed" once it is gone (killed between the journal and Roam, or while Roam answered).
 * An op is undone when an applied op of a later entry reverses it and is not itself undone.
 */
import { isProcessAlive } from '../../../src-shared/node/process-alive.ts';
import { entrySummary } from './summary.ts';
import type { Change, ChangeOp, JournalRecord, Op, OpOutcome, StepResult } from './types.ts';

type Begin = Extract<JournalRecord, { k: 'begin' }>;
type End = Extract<JournalRecord, { k: 'end' }>;

interface Group {
  begin?: Begin;
  end?: End;
  ops: Map<number, ChangeOp>;
  done: Map<number, { ok: boolean; error?: string; patch?: object; at: number }>;
}

function group(records: readonly JournalRecord[]): Map<string, Group> {
  const groups = new Map<string, Group>();
  const of = (id: string) => {
    let g = groups.get(id);
    if (!g) groups.set(id, (g = { ops: new Map(), done: new Map() }));
    return g;
  };
  for (const record of records) {
    const g = of(record.id);
    if (record.k === 'begin') g.begin = record;
    else if (record.k === 'end') g.end = record;
    else if (record.k === 'op')
      g.ops.set(record.n, { n: record.n, op: record.op, outcome: 'pending', reverses: record.reverses });
    else for (const item of record.items) g.done.set(item.n, { ...item, at: record.at });
  }
  return groups;
}

function settle(g: Group, alive: (pid: number) => boolean): void {
  for (const op of g.ops.values()) {
    const done = g.done.get(op.n);
    if (done) {
      op.outcome = done.ok ? 'applied' : 'failed';
      op.answeredAt = done.at;
      if (done.error) op.error = done.error;
      if (done.patch) op.op = { ...op.op, ...done.patch } as ChangeOp['op'];
    } else {
      op.outcome = g.begin && alive(g.begin.pid) && !g.end ? 'pending' : 'unconfirmed';
    }
  }
}

const counts = (outcome: OpOutcome) => outcome === 'applied' || outcome === 'unconfirmed';

/**
 * Marks ops that touched a block hidden from AI by a block above it when recorded, and the ops
 * that reverse them (an undo's own entry would quote the same texts), oldest first.
 */
function markHidden(changes: Change[]): void {
  const hidden = new Set<string>();
  for (const c of changes)
    for (const op of c.ops) {
      const recorded = 'hidden' in op.op && op.op.hidden === true;
      if (!recorded && !(op.reverses && hidden.has(`${op.reverses.id}#${op.reverses.n}`))) continue;
      op.hidden = true;
      hidden.add(`${c.id}#${op.n}`);
    }
}

/** Marks ops undone by later, applied, not-undone reversing ops (newest reversals decide). */
function markUndone(changes: Change[]): void {
  const byKey = new Map<string, ChangeOp>();
  for (const c of changes) for (const op of c.ops) byKey.set(`${c.id}#${op.n}`, op);
  const reversedBy = new Map<string, Array<{ id: string; op: ChangeOp }>>();
  for (const c of changes)
    for (const op of c.ops) {
      if (!op.reverses || !counts(op.outcome)) continue;
      const key = `${op.reverses.id}#${op.reverses.n}`;
      reversedBy.set(key, [...(reversedBy.get(key) ?? []), { id: c.id, op }]);
    }
  const memo = new Map<string, string | undefined>();
  const undoneBy = (key: string, depth = 0): string | undefined => {
    if (memo.has(key)) return memo.get(key);
    const live = (reversedBy.get(key) ?? []).find(
      (r) => depth > 64 || undoneBy(`${r.id}#${r.op.n}`, depth + 1) === undefined,
    );
    memo.set(key, live?.id);
    return live?.id;
  };
  for (const [key, op] of byKey) {
    const by = undoneBy(key);
    if (by) op.undoneBy = by;
  }
}

function status(ops: ChangeOp[], end: End | undefined): Change['status'] {
  if (ops.length === 0) return end && !end.ok ? 'failed' : 'applied';
  const outcomes = new Set(ops.map((o) => o.outcome));
  if (outcomes.has('pending')) return 'pending';
  if (outcomes.has('unconfirmed')) return 'unconfirmed';
  if (outcomes.size === 1) return outcomes.has('applied') ? 'applied' : 'failed';
  return 'partial';
}

function toChange(id: string, g: Group & { begin: Begin }): Change {
  const ops = [...g.ops.values()].sort((a, b) => a.n - b.n);
  const b = g.begin;
  return {
    id,
    at: new Date(b.at).toISOString(),
    graph: b.graph,
    ...(b.graphType ? { graphType: b.graphType } : {}),
    ...(b.nickname ? { nickname: b.nickname } : {}),
    chat: b.chat,
    tool: b.tool,
    // Said from the ops each time it is read, so older entries read in today's words too (no
    // uid where a person reads the line); an undo run's line is its own.
    summary:
      (b.undoes && g.end?.summary) ??
      entrySummary(
        b.tool,
        ops.map((o) => o.op),
        b.undoes,
      ),
    status: status(ops, g.end),
    ...(g.end?.error ? { error: g.end.error } : {}),
    ops,
    undoable: false,
    undone: false,
    ...(b.undoes ? { undoes: b.undoes, results: g.end?.results ?? [] } : {}),
  };
}

/** Every change, oldest first. */
export function foldRecords(
  records: readonly JournalRecord[],
  alive: (pid: number) => boolean = isProcessAlive,
): Change[] {
  const changes: Change[] = [];
  for (const [id, g] of group(records)) {
    if (!g.begin) continue; // its beginning was pruned
    settle(g, alive);
    changes.push(toChange(id, g as Group & { begin: Begin }));
  }
  changes.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  markHidden(changes);
  markUndone(changes);
  attachUndoResults(changes);
  for (const c of changes) {
    const reversible = c.ops.filter((o) => counts(o.outcome) && isReversible(o.op));
    c.undone = reversible.length > 0 && reversible.every((o) => o.undoneBy);
    c.undoable = reversible.some((o) => !o.undoneBy);
  }
  return changes;
}

function attachUndoResults(changes: Change[]): void {
  const byId = new Map(changes.map((c) => [c.id, c]));
  for (const run of changes) {
    if (!run.results) continue;
    const perEntry = new Map<string, StepResult[]>();
    for (const r of run.results) perEntry.set(r.id, [...(perEntry.get(r.id) ?? []), r]);
    for (const [id, results] of perEntry) {
      const target = byId.get(id);
      if (target) target.lastUndo = { id: run.id, at: run.at, results };
    }
  }
}

/** Whether this op, once applied, has a way back. */
export function isReversible(op: Op): boolean {
  switch (op.kind) {
    case 'opaque':
      return false;
    case 'delete-file':
      return op.kept !== undefined;
    case 'create-blocks':
      return (op.uids?.length ?? 0) > 0;
    case 'upload':
      return op.url !== undefined;
    case 'comment':
      return (op.uids?.length ?? 0) > 0;
    default:
      return true;
  }
}
