import type { TokenRequestView } from '../../src-shared/ipc-contract.ts';
import { pendingStatuses } from '../stores/tokens-store.ts';
import { useTokens } from '../stores/stores-context.tsx';
import { accessLevelText } from './access-levels.ts';
import { ActionError, useActionError } from './action-error.tsx';
import { Countdown } from './countdown.tsx';

/** One graph's token request: what to do in Roam while it waits, then its outcome in plain words. */
export function TokenRequestPanel(props: {
  request: TokenRequestView;
  label: string;
  onShowBlocked(): void;
}) {
  const { request, label } = props;
  const requestToken = useTokens((s) => s.request);
  const cancel = useTokens((s) => s.cancel);
  const dismiss = useTokens((s) => s.dismiss);
  const { error, run } = useActionError();
  const pending = pendingStatuses.has(request.status);
  const retry = (
    <button
      type="button"
      onClick={() => void run(() => requestToken(request.graphId, request.requestedAccessLevel))}
    >
      Try again
    </button>
  );
  const close = (
    <button type="button" onClick={() => dismiss(request.graphId)}>
      Dismiss
    </button>
  );

  return (
    <section className={`card request request-${request.status}`} aria-label={`Token request for ${label}`}>
      <TokenRequestStatus request={request} label={label} />
      <div className="actions">
        {pending && (
          <button type="button" onClick={() => void run(() => cancel(request.graphId))}>
            Cancel request
          </button>
        )}
        {['rejected', 'timeout', 'cancelled', 'error'].includes(request.status) && retry}
        {request.status === 'blocked' && (
          <button type="button" onClick={props.onShowBlocked}>
            Show blocked graphs
          </button>
        )}
        {!pending && close}
      </div>
      <ActionError error={error} />
    </section>
  );
}

function TokenRequestStatus(props: { request: TokenRequestView; label: string }) {
  const { request, label } = props;
  const pending = pendingStatuses.has(request.status);
  const asked = accessLevelText[request.requestedAccessLevel].label;
  return (
    <div role="status">
      {pending && (
        <>
          <p className="strong">Approve the dialog in Roam Desktop</p>
          <p>
            Roam Desktop is asking whether Roam Companion may use “{label}” with {asked} access. Switch to
            Roam Desktop and click Allow. Roam stops waiting in <Countdown until={request.expiresAt} />.
          </p>
        </>
      )}
      {request.status === 'approved' && (
        <>
          <p className="strong">Approved: {label} is connected.</p>
          {request.grantedAccessLevel && (
            <p>Granted access: {accessLevelText[request.grantedAccessLevel].label}.</p>
          )}
          {request.downgraded && (
            <p className="warning-text">
              Roam granted less than you asked ({asked}): your account’s permission on this graph is lower.
              Agents get{' '}
              {request.grantedAccessLevel ? accessLevelText[request.grantedAccessLevel].label : 'the granted'}{' '}
              access.
            </p>
          )}
        </>
      )}
      {request.status === 'rejected' && (
        <p className="strong">The request for {label} was declined in Roam. Try again and click Allow.</p>
      )}
      {request.status === 'blocked' && (
        <p className="strong">
          {label} is blocked: “Never Allow” was chosen in Roam. It moved to Blocked, which explains how to
          undo it.
        </p>
      )}
      {request.status === 'timeout' && (
        <p className="strong">
          Roam stopped waiting for {label} after 5 minutes without an answer. Try again.
        </p>
      )}
      {request.status === 'cancelled' && <p className="strong">Token request for {label} cancelled.</p>}
      {request.status === 'error' && <p className="strong">Token request for {label} failed.</p>}
      {request.message && request.status !== 'approved' && <p className="small">{request.message}</p>}
    </div>
  );
}
