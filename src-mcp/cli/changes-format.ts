/** How `roam-mcp changes` and `roam-mcp undo` print for a person (the --json forms are the raw objects). */
import { opSummary, plural } from '../changes/journal/summary.ts';
import type { Change } from '../changes/journal/types.ts';
import type { UndoReport } from '../changes/undo/undo-engine.ts';

const time = (iso: string) => iso.replace('T', ' ').slice(0, 19);

function state(change: Change): string {
  if (change.undone) return 'undone';
  if (change.status === 'unconfirmed') return 'unconfirmed';
  if (change.status === 'failed') return 'failed';
  return change.undoable ? 'undoable' : 'not undoable';
}

function client(change: Change): string {
  const c = change.chat.client;
  return c?.name
    ? `${c.name}${c.version ? ` ${c.version}` : ''}`
    : change.chat.kind === 'person'
      ? 'a person'
      : 'unknown client';
}

/** Changes grouped by chat, newest first. */
export function formatChanges(changes: readonly Change[], journalDir?: string): string {
  if (changes.length === 0)
    return `No changes recorded${journalDir ? ` in ${journalDir}` : ''} (the journal keeps 30 days).\n`;
  const lines: string[] = [];
  let chat: string | undefined;
  for (const change of changes) {
    if (change.chat.id !== chat) {
      chat = change.chat.id;
      lines.push('', `Chat ${chat} — ${client(change)}, started ${time(change.chat.startedAt)}`);
    }
    lines.push(`  ${change.id}  ${time(change.at)}  ${change.graph}  ${change.summary}  [${state(change)}]`);
    const conflicts = change.lastUndo?.results.filter((r) => r.status === 'conflict') ?? [];
    for (const r of conflicts) lines.push(`      conflict at the last undo: ${r.detail}`);
  }
  return `${lines.join('\n').trimStart()}\n`;
}

const LABEL: Record<string, string> = {
  undone: 'undone',
  'would-undo': 'would undo',
  'partly-undone': 'partly undone',
  conflict: 'left alone (conflict)',
  'already-undone': 'already undone',
  'not-undoable': 'cannot be undone',
  'nothing-to-undo': 'nothing to undo (it changed nothing)',
  failed: 'failed',
};

export function formatReport(report: UndoReport): string {
  if (report.changes.length === 0) return 'Nothing to undo.\n';
  const lines = report.changes.flatMap((c) => [
    `${c.id}  ${c.summary}: ${LABEL[c.result] ?? c.result}`,
    ...c.steps
      .filter((s) => s.detail && s.n >= 0)
      .flatMap((s) => [
        `    ${s.status === 'conflict' ? 'conflict: ' : ''}${s.detail}`,
        ...(s.conflicts ?? []).map((x) => `    conflict: ${x}`),
      ]),
  ]);
  const head = report.dryRun
    ? 'Dry run: nothing was changed.'
    : `Undid ${report.undone === report.changes.length ? plural(report.undone, 'change') : `${report.undone} of ${plural(report.changes.length, 'change')}`}.`;
  const tail = report.conflicts
    ? `${plural(report.conflicts, 'conflict')} left alone: someone changed ${report.conflicts === 1 ? 'it' : 'those'} since.`
    : '';
  return `${[head, ...lines, tail].filter(Boolean).join('\n')}\n`;
}

/**
 * `roam-mcp changes --json`: each change with one line per op instead of what the op recorded
 * (a deleted page's snapshot, a created outline), so the output stays small however big the
 * writes were.
 */
export function changesJson(changes: readonly Change[]): string {
  const light = changes.map(({ ops, ...change }) => ({
    ...change,
    ops: ops.map(({ op, ...rest }) => ({ ...rest, kind: op.kind, summary: opSummary(op) })),
  }));
  return `${JSON.stringify({ changes: light }, null, 2)}\n`;
}
