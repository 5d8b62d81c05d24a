import { useEffect, useRef, useState } from 'react';
import type { GraphView } from '../../src-shared/ipc-contract.ts';
import { describeError } from '../bridge/bridge-error.ts';
import { useGraphs, useTokens } from '../stores/stores-context.tsx';
import { accessLevelText } from './access-levels.ts';
import { ConfirmDialog } from './confirm-dialog.tsx';
import { CopyButton } from './copy-button.tsx';
import { EditGraphForm } from './edit-graph-form.tsx';
import { tokenStateText } from './token-state.ts';

export function GraphRow(props: { graph: GraphView; focus: { at: number } | null }) {
  const { graph, focus } = props;
  const rowRef = useRef<HTMLLIElement>(null);
  useEffect(() => {
    if (!focus) return;
    rowRef.current?.scrollIntoView?.({ block: 'nearest' });
    rowRef.current?.focus();
  }, [focus]);
  const update = useGraphs((s) => s.update);
  const remove = useGraphs((s) => s.remove);
  const requestToken = useTokens((s) => s.request);
  const [mode, setMode] = useState<'view' | 'edit' | 'confirm-remove'>('view');
  // Keyboard users land back on the button that opened the form or the confirmation.
  const returnFocus = useRef<'edit' | 'remove' | null>(null);
  const backToView = (from: 'edit' | 'remove') => {
    returnFocus.current = from;
    setMode('view');
  };
  const focusIfReturning = (which: 'edit' | 'remove') => (element: HTMLButtonElement | null) => {
    if (element && returnFocus.current === which) {
      returnFocus.current = null;
      element.focus();
    }
  };
  const [error, setError] = useState<string | null>(null);

  async function run(action: () => Promise<unknown>) {
    setError(null);
    try {
      await action();
    } catch (failure) {
      setError(describeError(failure));
    }
  }

  return (
    <li className="card graph" aria-label={graph.nickname} ref={rowRef} tabIndex={-1}>
      <div className="row">
        <div className="grow">
          <span className="strong">{graph.nickname}</span>
          <div className="muted small">
            {graph.name} · {graph.type === 'hosted' ? 'Hosted' : 'Offline'} ·{' '}
            {accessLevelText[graph.accessLevel].label}
          </div>
          {graph.description && <div className="small">{graph.description}</div>}
        </div>
        <span className={`badge token-${graph.token.state}`}>
          {tokenStateText[graph.token.state]}
          {graph.token.state === 'ok' && graph.token.last4 ? ` ··${graph.token.last4}` : ''}
        </span>
        <label className="switch" title="Offer this graph to AI agents">
          <input
            type="checkbox"
            role="switch"
            aria-label={`Enabled: ${graph.nickname}`}
            checked={graph.enabled}
            onChange={(event) => void run(() => update({ id: graph.id, enabled: event.target.checked }))}
          />
          <span aria-hidden="true" className="slider" />
        </label>
      </div>
      {mode === 'view' && (
        <div className="actions">
          <button
            type="button"
            aria-label={`Request token for ${graph.nickname}`}
            disabled={graph.token.state === 'waiting'} // one dialog per graph in Roam at a time
            onClick={() => void run(() => requestToken(graph.id, graph.accessLevel))}
          >
            Request token
          </button>
          <button
            type="button"
            ref={focusIfReturning('edit')}
            aria-label={`Edit ${graph.nickname}`}
            onClick={() => setMode('edit')}
          >
            Edit
          </button>
          <button
            type="button"
            aria-label={`Remove ${graph.nickname}`}
            ref={focusIfReturning('remove')}
            onClick={() => setMode('confirm-remove')}
          >
            Remove
          </button>
          <CopyButton text={graph.nickname} label={`Copy nickname ${graph.nickname}`}>
            Copy nickname
          </CopyButton>
        </div>
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
      {error && (
        <p role="alert" className="error-text">
          {error}
        </p>
      )}
    </li>
  );
}
