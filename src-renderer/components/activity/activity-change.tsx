import type { ActivityChangeView } from '../../../src-shared/ipc-contract.ts';
import { stepNotes, when } from './activity-format.ts';
import { UndoPanel, useUndoFlow } from './activity-undo.tsx';
import { ChangeDiff } from '../shared/change-diff.tsx';
import { QuotedLine } from '../shared/graph-text.tsx';

/** One change as one line, with its state, what its last undo left alone, and its own Undo. */
export function ActivityChange(props: { change: ActivityChangeView; showGraph: boolean }) {
  const { change } = props;
  const flow = useUndoFlow({ ids: [change.id] });
  const notes = change.lastUndo ? stepNotes(change.lastUndo.steps) : [];
  const offersUndo = change.undoable && !change.undone;
  const canUndo = offersUndo && flow.phase.kind === 'idle';
  // Undoing an undo redoes it; undoing a redo takes its changes back again.
  const redo = change.isUndo && !change.isRedo;
  return (
    <li className="activity-change" aria-label={change.summary}>
      <div className="row">
        <time className="muted small" dateTime={change.at}>
          {when(change.at)}
        </time>
        {/* Once it is undone, the focus comes back to the line itself instead of its button. */}
        <span className="grow" tabIndex={-1} ref={offersUndo ? undefined : flow.openerRef}>
          <QuotedLine text={change.summary} />
          {props.showGraph && (
            <span className="muted small">
              {' · '}
              <bdi>{change.nickname ?? change.graph}</bdi>
            </span>
          )}
        </span>
        <ChangeBadge change={change} conflicted={notes.length > 0} />
        {canUndo && (
          <button
            type="button"
            ref={flow.openerRef}
            disabled={flow.busy}
            onClick={flow.start}
            aria-label={`${redo ? 'Redo' : 'Undo'}: ${change.summary}`}
          >
            {redo ? 'Redo…' : 'Undo…'}
          </button>
        )}
      </div>
      <ChangeDiff details={change.details} label={`What changed: ${change.summary}`} />
      {(change.undid || change.leftAlone) && (
        <ul
          className="activity-notes small"
          aria-label={change.isRedo ? 'What this redo put back' : 'What this undo took back'}
        >
          {change.undid?.map((line, i) => (
            <li key={`undid-${i}`}>
              <QuotedLine text={`${change.isRedo ? 'Put back' : 'Took back'}: ${line}`} />
            </li>
          ))}
          {change.leftAlone?.map((line, i) => (
            <li key={`left-${i}`}>
              <QuotedLine text={`Left alone (changed since): ${line}`} />
            </li>
          ))}
        </ul>
      )}
      {notes.length > 0 && (
        <ul className="activity-notes small" aria-label="Left alone by the last undo">
          {notes.map((note) => (
            <li key={note}>
              <QuotedLine text={note} />
            </li>
          ))}
        </ul>
      )}
      <UndoPanel flow={flow} what={whatItIs(change)} redo={redo} />
    </li>
  );
}

const whatItIs = (change: ActivityChangeView) =>
  change.isRedo ? 'this redo' : change.isUndo ? 'this undo' : 'this change';

function ChangeBadge(props: { change: ActivityChangeView; conflicted: boolean }) {
  const { change } = props;
  if (change.undone) return <span className="badge change-undone">Undone</span>;
  if (props.conflicted) return <span className="badge change-conflict">Conflict</span>;
  if (change.status === 'failed') return <span className="badge change-failed">Refused by Roam</span>;
  if (change.status === 'unconfirmed') return <span className="badge change-conflict">Unconfirmed</span>;
  return null;
}
