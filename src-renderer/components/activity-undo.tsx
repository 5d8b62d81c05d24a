import { useId, useState } from 'react';
import type { ActivityChangeView, ActivityUndoReportView } from '../../src-shared/ipc-contract.ts';
import { useActivity } from '../stores/stores-context.tsx';
import type { UndoTarget } from '../stores/activity-store.ts';
import { ActionError, useActionError } from './action-error.tsx';
import { changesCount, resultText, stepNotes } from './activity-format.ts';
import { trapTab } from './focus-trap.ts';
import { useReturnFocus } from './return-focus.ts';
import { ChangeDiff } from './change-diff.tsx';
import { QuotedLine } from './graph-text.tsx';

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
      <p>{previewLine(report, redo)}</p>
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
  return (
    <div
      role="status"
      className="notice undo-panel"
      aria-label={`${props.redo ? 'Redo' : 'Undo'} of ${props.what}`}
    >
      <p className="strong">{outcomeLine(report, props.redo)}</p>
      <button type="button" autoFocus onClick={flow.close}>
        Dismiss
      </button>
      <ReportByPage report={report} redo={props.redo} />
    </div>
  );
}

type ReportedChange = ActivityUndoReportView['changes'][number];

/** The report's changes grouped by the page they happened on, each with its diff, in a box that scrolls. */
function ReportByPage(props: { report: ActivityUndoReportView; redo?: boolean | undefined }) {
  const feed = useActivity((s) => s.feed);
  const known = new Map<string, ActivityChangeView>(
    feed.chats.flatMap((chat) => chat.changes.map((change) => [change.id, change] as const)),
  );
  const groups = new Map<string, ReportedChange[]>();
  for (const change of props.report.changes) {
    const page = known.get(change.id)?.page;
    const key = page ? `In '${page}'` : 'Elsewhere';
    groups.set(key, [...(groups.get(key) ?? []), change]);
  }
  return (
    <div className="undo-report-box" tabIndex={0} role="region" aria-label="What the undo covers">
      {[...groups].map(([heading, changes]) => (
        <section key={heading} aria-label={heading}>
          <h4 className="small">{`${heading} · ${changesCount(changes.length)}`}</h4>
          <ul className="undo-report small">
            {changes.map((change) => (
              <li key={change.id} className={`undo-${change.result}`}>
                <span className="strong">
                  {(props.redo ? redoText[change.result] : undefined) ??
                    resultText[change.result] ??
                    change.result}
                </span>
                <QuotedLine text={`: ${reportLine(known.get(change.id), change)}`} />
                <ChangeDiff
                  details={known.get(change.id)?.details ?? []}
                  label={`What changed: ${known.get(change.id)?.summary ?? change.summary}`}
                />
                {stepNotes(change.steps).map((note) => (
                  <span key={note} className="undo-note">
                    <QuotedLine text={note} />
                  </span>
                ))}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

/** A redo puts back what the undo took back: said so, rather than "undone". */
const redoText: Record<string, string> = { 'would-undo': 'Will be put back', undone: 'Put back' };

/**
 * The change's line: the feed's (it names places by page; the engine's may name them by uid),
 * and for an undo being redone, what it took back rather than its own "Undid …".
 */
function reportLine(known: ActivityChangeView | undefined, change: ReportedChange): string {
  if (known?.isUndo && known.undid?.length) return known.undid.join('; ');
  return known?.summary ?? change.summary;
}

function previewLine(report: ActivityUndoReportView, redo?: boolean): string {
  if (report.undone === 0) return `Nothing here can be ${redo ? 'redone' : 'undone'} now: see why below.`;
  const left = report.conflicts
    ? ` ${leftAlone(report.conflicts)} someone changed since will be left alone.`
    : '';
  return `${changesCount(report.undone)} will be ${redo ? 'put back' : 'taken back'}.${left} Nothing has changed yet.`;
}

function outcomeLine(report: ActivityUndoReportView, redo?: boolean): string {
  if (report.undone === 0) return `Nothing was ${redo ? 'redone' : 'undone'}: see why below.`;
  const left = report.conflicts
    ? ` ${leftAlone(report.conflicts)} changed since ${report.conflicts === 1 ? 'was' : 'were'} left alone.`
    : '';
  return `${redo ? 'Redone' : 'Undone'}: ${changesCount(report.undone)}.${left}`;
}

const leftAlone = (n: number) => (n === 1 ? '1 part' : `${n} parts`);
