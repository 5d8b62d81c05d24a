import { useId, useState } from 'react';
import type { ActivityUndoReportView } from '../../src-shared/ipc-contract.ts';
import { useActivity } from '../stores/stores-context.tsx';
import type { UndoTarget } from '../stores/activity-store.ts';
import { ActionError, useActionError } from './action-error.tsx';
import { changesCount, resultText, stepNotes } from './activity-format.ts';
import { trapTab } from './focus-trap.ts';
import { useReturnFocus } from './return-focus.ts';

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

/** The dry run to confirm, or the outcome to read; nothing while idle. */
export function UndoPanel(props: { flow: UndoFlow; what: string }) {
  const { flow } = props;
  if (flow.phase.kind === 'idle') return <ActionError error={flow.error} />;
  return flow.phase.kind === 'preview' ? (
    <UndoPreview flow={flow} report={flow.phase.report} what={props.what} />
  ) : (
    <UndoOutcome flow={flow} report={flow.phase.report} what={props.what} />
  );
}

function UndoPreview(props: { flow: UndoFlow; report: ActivityUndoReportView; what: string }) {
  const { flow, report } = props;
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
      <p id={titleId} className="strong">{`Undo ${props.what}?`}</p>
      <p>{previewLine(report)}</p>
      <ReportList report={report} />
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
          Undo now
        </button>
      </div>
      <ActionError error={flow.error} />
    </div>
  );
}

function UndoOutcome(props: { flow: UndoFlow; report: ActivityUndoReportView; what: string }) {
  const { flow, report } = props;
  return (
    <div role="status" className="notice undo-panel" aria-label={`Undo of ${props.what}`}>
      <p className="strong">{outcomeLine(report)}</p>
      <ReportList report={report} />
      <button type="button" autoFocus onClick={flow.close}>
        Dismiss
      </button>
    </div>
  );
}

function ReportList(props: { report: ActivityUndoReportView }) {
  return (
    <ul className="undo-report small">
      {props.report.changes.map((change) => (
        <li key={change.id} className={`undo-${change.result}`}>
          <span className="strong">{resultText[change.result] ?? change.result}</span>
          {`: ${change.summary}`}
          {stepNotes(change.steps).map((note) => (
            <span key={note} className="undo-note">
              {note}
            </span>
          ))}
        </li>
      ))}
    </ul>
  );
}

function previewLine(report: ActivityUndoReportView): string {
  if (report.undone === 0) return 'Nothing here can be undone now: see why below.';
  const left = report.conflicts
    ? ` ${leftAlone(report.conflicts)} someone changed since will be left alone.`
    : '';
  return `${changesCount(report.undone)} will be taken back.${left} Nothing has changed yet.`;
}

function outcomeLine(report: ActivityUndoReportView): string {
  if (report.undone === 0) return 'Nothing was undone: see why below.';
  const left = report.conflicts ? ` ${leftAlone(report.conflicts)} changed since were left alone.` : '';
  return `Undone: ${changesCount(report.undone)}.${left}`;
}

const leftAlone = (n: number) => (n === 1 ? '1 part' : `${n} parts`);
