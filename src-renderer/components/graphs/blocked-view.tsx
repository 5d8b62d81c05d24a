import type { BlockedGraphView } from '../../../src-shared/ipc-contract.ts';
import { useTokens } from '../../stores/stores-context.tsx';
import { LoadGate } from '../shared/load-gate.tsx';
import { ActionError, useActionError } from '../shared/action-error.tsx';

/** Graphs the user blocked with "Never Allow" in Roam, how to unblock them, and a retry. */
/** `onRetried`: the retried graph's row is shown, where the request's answer arrives. */
export function BlockedView(props: { onRetried(graphId: string): void }) {
  const blocked = useTokens((s) => s.blocked);
  const load = useTokens((s) => s.blockedLoad);
  const refresh = useTokens((s) => s.refresh);
  return (
    <div className="view">
      <h2>Blocked graphs</h2>
      <LoadGate state={load} what="blocked graphs" onRetry={() => void refresh()}>
        {blocked.length === 0 ? (
          <div className="empty">
            <p className="strong">Nothing is blocked</p>
            <p className="muted">
              When you choose “Never Allow” on a token request in Roam Desktop, the graph shows up here.
            </p>
          </div>
        ) : (
          <ul className="list" aria-label="Blocked graphs">
            {blocked.map((graph) => (
              <BlockedRow key={graph.graphId} graph={graph} onRetried={props.onRetried} />
            ))}
          </ul>
        )}
      </LoadGate>
    </div>
  );
}

function BlockedRow(props: { graph: BlockedGraphView; onRetried(graphId: string): void }) {
  const { graph } = props;
  const retry = useTokens((s) => s.retryBlocked);
  const { error, run } = useActionError();
  return (
    <li className="card" aria-label={graph.nickname}>
      <div className="row">
        <span className="strong grow">{graph.nickname}</span>
        <span className="badge graph-type">{graph.type === 'hosted' ? 'Hosted' : 'Offline'}</span>
      </div>
      <p className="muted small">
        {graph.nickname === graph.name ? '' : `Graph ${graph.name} · `}Blocked{' '}
        {new Date(graph.blockedAt).toLocaleString()}
      </p>
      <p>{graph.howToUnblock}</p>
      <div className="actions">
        <button
          type="button"
          aria-label={`Retry ${graph.nickname}`}
          onClick={() =>
            void run(async () => {
              await retry(graph.graphId);
              props.onRetried(graph.graphId);
            })
          }
        >
          Retry
        </button>
      </div>
      <ActionError error={error} />
    </li>
  );
}
