import type { GraphView } from '../../../src-shared/ipc-contract.ts';
import { accessFit } from './access-fit.ts';
import { accessLevelText } from '../shared/access-levels.ts';

/** The chosen access level beside what the token allows, and what follows from the two. */
export function AccessSummary(props: { graph: GraphView; onRequestToken(): void }) {
  const { graph } = props;
  const chosen = accessLevelText[graph.accessLevel].label;
  const granted = graph.token.grantedAccessLevel && accessLevelText[graph.token.grantedAccessLevel].label;
  const fit = accessFit(graph);
  return (
    <div className="access small">
      <p>
        <span className="muted">Access:</span> <span className="strong">{chosen}</span>
        {fit === 'same' && <span className="muted"> · the token grants the same</span>}
        {fit === 'unknown' && <span className="muted"> · Roam has not said what the token grants</span>}
      </p>
      {fit === 'narrower' && (
        <p className="muted">
          The token grants {granted}; roam-mcp holds agents to {chosen}.
        </p>
      )}
      {fit === 'wider' && (
        <div className="notice warning">
          <p>
            The token is limited to {granted}, so agents get {granted} access until Roam approves a {chosen}{' '}
            token.
          </p>
          <button
            type="button"
            disabled={graph.token.state === 'waiting'}
            aria-label={`Request a ${chosen} token for ${graph.nickname}`}
            onClick={props.onRequestToken}
          >
            Request a {chosen} token
          </button>
        </div>
      )}
    </div>
  );
}
