import { useEffect, useId, useRef, useState } from 'react';
import type { GraphView } from '../../../src-shared/ipc-contract.ts';
import { useGraphs, useTokens } from '../../stores/stores-context.tsx';
import { AccessSummary } from './access-summary.tsx';
import { confirmText } from '../shared/confirm-field.tsx';
import { ActionError, useActionError } from '../shared/action-error.tsx';
import { ConfirmDialog } from '../shared/confirm-dialog.tsx';
import { CopyButton } from '../shared/copy-button.tsx';
import { EditGraphForm } from './edit-graph-form.tsx';
import { TokenRequestPanel } from './token-request-panel.tsx';
import { isPending } from '../../stores/tokens-store.ts';
import { tokenStateText } from './token-state.ts';
import { useReturnFocus } from '../shared/return-focus.ts';

type Run = (action: () => Promise<unknown>) => Promise<void>;

/** What "Request token" does when the graph already has a working one. */
const replaceHint =
  'Asks Roam Desktop for a new token, e.g. with another access level; the current one keeps working until you approve.';
type Opener = 'edit' | 'remove';

export function GraphRow(props: { graph: GraphView; focus: { at: number } | null; onShowBlocked(): void }) {
  const { graph, focus } = props;
  const rowRef = useRef<HTMLLIElement>(null);
  useEffect(() => {
    if (!focus) return;
    rowRef.current?.scrollIntoView?.({ block: 'nearest' });
    rowRef.current?.focus();
  }, [focus]);
  const remove = useGraphs((s) => s.remove);
  const requestToken = useTokens((s) => s.request);
  const [mode, setMode] = useState<'view' | 'edit' | 'confirm-remove'>('view');
  const returnFocus = useReturnFocus<Opener>();
  const backToView = (from: Opener) => {
    returnFocus.arm(from);
    setMode('view');
  };
  const { error, run } = useActionError();

  return (
    <li
      className={`card graph${graph.enabled ? '' : ' off'}`}
      aria-label={graph.nickname}
      ref={rowRef}
      tabIndex={-1}
    >
      <GraphSummary graph={graph} run={run} />
      {!graph.enabled && (
        <p className="small off-note">Switched off: agents do not see this graph until you enable it.</p>
      )}
      <AccessSummary graph={graph} onRequestToken={() => void run(() => requestToken(graph.id))} />
      {graph.confirm && graph.confirm !== 'destructive' && (
        // Said only when it is not the default: the row stays short for most graphs.
        <p className="small confirm-summary">{confirmText[graph.confirm].row}</p>
      )}
      {/* A graph Roam cannot open is removed with the row's own Remove, below its request's answer. */}
      <RequestPanel graph={graph} onShowBlocked={props.onShowBlocked} />
      {mode === 'view' && (
        <GraphActions
          graph={graph}
          run={run}
          focusRef={returnFocus.ref}
          onEdit={() => setMode('edit')}
          onRemove={() => setMode('confirm-remove')}
        />
      )}
      {mode === 'edit' && <EditGraphForm graph={graph} onClose={() => backToView('edit')} />}
      {mode === 'confirm-remove' && (
        <ConfirmDialog
          title={`Remove ${graph.nickname}?`}
          body="Agents lose access to this graph and its token is deleted from this computer. The graph itself stays in Roam."
          confirmLabel="Remove"
          onCancel={() => backToView('remove')}
          onConfirm={() => {
            setMode('view');
            void run(() => remove(graph.id));
          }}
        />
      )}
      <ActionError error={error} />
    </li>
  );
}

/** The graph's token request, while it waits and until its outcome is dismissed or out of date. */
function RequestPanel(props: { graph: GraphView; onShowBlocked(): void }) {
  const { graph } = props;
  const request = useTokens((s) => s.requests[graph.id]);
  const dismissed = useTokens((s) => s.dismissed[graph.id]);
  if (!request || dismissed) return null;
  return (
    <TokenRequestPanel
      request={request}
      label={graph.nickname}
      keepsToken={graph.token.state === 'ok'}
      onShowBlocked={props.onShowBlocked}
    />
  );
}

function GraphSummary(props: { graph: GraphView; run: Run }) {
  const { graph, run } = props;
  const update = useGraphs((s) => s.update);
  return (
    <>
      <div className="row">
        <div className="grow">
          <span className="strong graph-nickname">{graph.nickname}</span>
          <div className="muted small">
            {graph.name} · {graph.type === 'hosted' ? 'Hosted' : 'Offline'}
          </div>
        </div>
        <span className={`badge token-${graph.token.state}`}>
          {tokenStateText[graph.token.state]}
          {graph.token.state === 'ok' && graph.token.last4 ? ` ··${graph.token.last4}` : ''}
        </span>
        <label className="switch-field" title="Offer this graph to AI agents">
          <span className="switch">
            <input
              type="checkbox"
              role="switch"
              aria-label={`Enabled: ${graph.nickname}`}
              checked={graph.enabled}
              onChange={(event) => void run(() => update({ id: graph.id, enabled: event.target.checked }))}
            />
            <span aria-hidden="true" className="slider" />
          </span>
          <span className="small" aria-hidden="true">
            {graph.enabled ? 'On' : 'Off'}
          </span>
        </label>
      </div>
      {/* Below the row, the whole card wide: beside the badge and the switch it was squeezed. */}
      {graph.description && <p className="small graph-description">{graph.description}</p>}
    </>
  );
}

function GraphActions(props: {
  graph: GraphView;
  run: Run;
  focusRef(which: Opener): (element: HTMLElement | null) => void;
  onEdit(): void;
  onRemove(): void;
}) {
  const { graph, run, focusRef } = props;
  const requestToken = useTokens((s) => s.request);
  // While the request's answer offers "Try again", a second button doing the same would only confuse.
  const offersRetry = useTokens((s) => {
    const request = s.requests[graph.id];
    return (
      !!request &&
      !s.dismissed[graph.id] &&
      !isPending(request) &&
      request.mayAskAgain &&
      request.status !== 'approved'
    );
  });
  const hintId = useId();
  return (
    <div className="actions">
      {graph.token.state === 'ok' && (
        <span id={hintId} className="visually-hidden">
          {replaceHint}
        </span>
      )}
      {!offersRetry && (
        <button
          type="button"
          aria-label={`Request token for ${graph.nickname}`}
          aria-describedby={graph.token.state === 'ok' ? hintId : undefined}
          title={graph.token.state === 'ok' ? replaceHint : undefined}
          disabled={graph.token.state === 'waiting'} // one dialog per graph in Roam at a time
          onClick={() => void run(() => requestToken(graph.id))}
        >
          Request token
        </button>
      )}
      <button
        type="button"
        ref={focusRef('edit')}
        aria-label={`Edit ${graph.nickname}`}
        onClick={props.onEdit}
      >
        Edit
      </button>
      <button
        type="button"
        aria-label={`Remove ${graph.nickname}`}
        ref={focusRef('remove')}
        onClick={props.onRemove}
      >
        Remove
      </button>
      <CopyButton text={graph.nickname} label={`Copy nickname ${graph.nickname}`}>
        Copy nickname
      </CopyButton>
    </div>
  );
}
