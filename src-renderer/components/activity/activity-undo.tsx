import { useId, useState } from 'react';
import type { ActivityChangeView, ActivityUndoReportView } from '../../../src-shared/ipc-contract.ts';
import { useActivity } from '../../stores/stores-context.tsx';
import type { UndoTarget } from '../../stores/activity-store.ts';
import { ActionError, useActionError } from '../shared/action-error.tsx';
import { changesCount, resultText, stepNotes } from './activity-format.ts';
import { trapTab } from '../shared/focus-trap.ts';
import { useReturnFocus } from '../shared/return-focus.ts';
import { ChangeDiff } from '../shared/change-diff.tsx';
import { QuotedLine } from '../shared/graph-text.tsx';

type Phase = { kind: 'idle' } | { kind: 'preview' | 'done'; report: ActivityUndoReportView };

/** Undo always runs dry first: the preview says what will change and what will be left alone. */
export function useUndoFlow(target: UndoTarget) {
  const undo = useActivity((s) => s.undo);
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const { error, busy, run } = useActionError();
  const returnFocus = useReturnFocus<'opener'>();
  return {
    phase,
    error,
    busy,
    openerRef: returnFocus.ref('opener'),
    start: () => void run(async () => setPhase({ kind: 'preview', report: await undo(target, true) })),
    confirm: () => void run(async () => setPhase({ kind: 'done', report: await undo(target, false) })),
    close() {
      returnFocus.arm('opener');
      setPhase({ kind: 'idle' });
    },
  };
}

export type UndoFlow = ReturnType<typeof useUndoFlow>;

interface PanelProps {
  flow: UndoFlow;
  what: string;
  /** Undoing an undo: the dialog says Redo, as the button that opened it did. */
  redo?: boolean;
}

/** The dry run to confirm, or the outcome to read; nothing while idle. */
export function UndoPanel(props: PanelProps) {
  const { flow } = props;
  if (flow.phase.kind === 'idle') return <ActionError error={flow.error} />;
  return flow.phase.kind === 'preview' ? (
    <UndoPreview {...props} report={flow.phase.report} />
  ) : (
    <UndoOutcome {...props} report={flow.phase.report} />
  );
}

function UndoPreview(props: PanelProps & { report: ActivityUndoReportView }) {
  const { flow, report, redo } = props;
  const titleId = useId();
  const known = useKnownChanges();
  return (
    <div
      role="dialog"
      aria-labelledby={titleId}
      className="confirm undo-panel"
      onKeyDown={(event) => {
        if (event.key === 'Escape') flow.close();
        else trapTab(event);
      }}
    >
      <p id={titleId} className="strong">
        {redo ? `Redo: put back what ${props.what} took back?` : `Undo ${props.what}?`}
      </p>
      <p>{previewLine(report, changesDone(report, known), redo)}</p>
      {/* The answer first: the buttons stay in view above a long list. */}
      <div className="actions">
        <button type="button" autoFocus onClick={flow.close}>
          Cancel
        </button>
        <button
          type="button"
          className="danger"
          disabled={flow.busy || report.undone === 0}
          onClick={flow.confirm}
        >
          {flow.busy ? (redo ? 'Redoing…' : 'Undoing…') : redo ? 'Redo now' : 'Undo now'}
        </button>
      </div>
      <ActionError error={flow.error} />
      <ReportByPage report={report} redo={redo} />
    </div>
  );
}

function UndoOutcome(props: PanelProps & { report: ActivityUndoReportView }) {
  const { flow, report } = props;
  const known = useKnownChanges();
  return (
    <div
      role="status"
      className="notice undo-panel"
      aria-label={`${props.redo ? 'Redo' : 'Undo'} of ${props.what}`}
    >
      <p className="strong">{outcomeLine(report, changesDone(report, known), props.redo)}</p>
      <button type="button" autoFocus onClick={flow.close}>
        Dismiss
      </button>
      <ReportByPage report={report} redo={props.redo} />
    </div>
  );
}

type ReportedChange = ActivityUndoReportView['changes'][number];
type KnownChanges = Map<string, ActivityChangeView>;

function useKnownChanges(): KnownChanges {
  const feed = useActivity((s) => s.feed);
  return new Map(feed.chats.flatMap((chat) => chat.changes.map((change) => [change.id, change] as const)));
}

/**
 * The agents' changes a report's change stands for: itself, or for an undo run (redone, or undone
 * again) the changes it took back or put back, each by the feed's line (places by page, not uid).
 */
function linesOf(known: ActivityChangeView | undefined, change: ReportedChange): string[] {
  if (known?.isUndo) return known.undid ?? [];
  return [known?.summary ?? change.summary];
}

/** How many agents' changes the run takes (or would take) back, or puts back: the ones it names. */
function changesDone(report: ActivityUndoReportView, known: KnownChanges): number {
  return report.changes
    .filter((c) => c.result === 'undone' || c.result === 'would-undo')
    .reduce((n, c) => n + linesOf(known.get(c.id), c).length, 0);
}

/**
 * The diff of what the run does to the change: an agent's change or a redo run, as it was made
 * (being undone); an undo being redone, what the redo puts back.
 */
function diffOf(
  known: ActivityChangeView | undefined,
  redo: boolean | undefined,
): ActivityChangeView['details'] {
  if (!known) return [];
  return redo && known.redoDetails ? known.redoDetails : known.details;
}

/** The report's changes grouped by the page they happened on, each with its diff, in a box that scrolls. */
function ReportByPage(props: { report: ActivityUndoReportView; redo?: boolean | undefined }) {
  const known = useKnownChanges();
  const groups = new Map<string, ReportedChange[]>();
  for (const change of props.report.changes) {
    const seen = known.get(change.id);
    // An undo run spans pages: its graph says where.
    const key = seen?.isUndo
      ? `In ${seen.nickname ?? seen.graph}`
      : seen?.page
        ? `In '${seen.page}'`
        : 'Elsewhere';
    groups.set(key, [...(groups.get(key) ?? []), change]);
  }
  return (
    <div className="undo-report-box" tabIndex={0} role="region" aria-label="What the undo covers">
      {[...groups].map(([heading, changes]) => (
        <section key={heading} aria-label={heading}>
          <h4 className="small">
            <QuotedLine
              text={`${heading} · ${changesCount(
                changes.reduce((n, c) => n + Math.max(1, linesOf(known.get(c.id), c).length), 0),
              )}`}
            />
          </h4>
          <ul className="undo-report small">
            {changes.map((change) => {
              const seen = known.get(change.id);
              const label =
                (props.redo ? redoText[change.result] : undefined) ??
                resultText[change.result] ??
                change.result;
              const lines = linesOf(seen, change);
              return (
                <li key={change.id} className={`undo-${change.result}`}>
                  {(lines.length ? lines : [change.summary]).map((line, i) => (
                    <p key={i} className="undo-line">
                      <span className="strong">{label}</span>
                      <QuotedLine text={`: ${line}`} />
                    </p>
                  ))}
                  <ChangeDiff
                    details={diffOf(seen, props.redo)}
                    label={`What changed: ${seen?.summary ?? change.summary}`}
                  />
                  {stepNotes(change.steps).map((note) => (
                    <span key={note} className="undo-note">
                      <QuotedLine text={note} />
                    </span>
                  ))}
                </li>
              );
            })}
          </ul>
        </section>
      ))}
    </div>
  );
}

/** A redo puts back what the undo took back: said so, rather than "undone". */
const redoText: Record<string, string> = { 'would-undo': 'Will be put back', undone: 'Put back' };

function previewLine(report: ActivityUndoReportView, done: number, redo?: boolean): string {
  if (report.undone === 0) return `Nothing here can be ${redo ? 'redone' : 'undone'} now: see why below.`;
  const left = report.conflicts
    ? ` ${leftAlone(report.conflicts)} someone changed since will be left alone.`
    : '';
  return `${changesCount(done)} will be ${redo ? 'put back' : 'taken back'}.${left} Nothing has changed yet.`;
}

function outcomeLine(report: ActivityUndoReportView, done: number, redo?: boolean): string {
  if (report.undone === 0) return `Nothing was ${redo ? 'redone' : 'undone'}: see why below.`;
  const left = report.conflicts
    ? ` ${leftAlone(report.conflicts)} changed since ${report.conflicts === 1 ? 'was' : 'were'} left alone.`
    : '';
  return `${redo ? 'Redone' : 'Undone'}: ${changesCount(done)}.${left}`;
}

const leftAlone = (n: number) => (n === 1 ? '1 part' : `${n} parts`);
