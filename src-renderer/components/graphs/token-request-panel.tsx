import type { TokenRequestView } from '../../../src-shared/ipc-contract.ts';
import { isPending } from '../../stores/tokens-store.ts';
import { useApp, useTokens } from '../../stores/stores-context.tsx';
import { accessLevelText } from '../shared/access-levels.ts';
import { ActionError, useActionError } from '../shared/action-error.tsx';
import { Countdown } from './countdown.tsx';

/**
 * One graph's token request, inside its row: what to do in Roam while it waits, then its outcome in
 * plain words with the way forward. The core drops it once the state it describes is gone.
 */
export function TokenRequestPanel(props: {
  request: TokenRequestView;
  label: string;
  /** The graph still holds a token that works (a new one was asked for, and refused). */
  keepsToken?: boolean;
  onShowBlocked(): void;
}) {
  const { request, label } = props;
  const requestToken = useTokens((s) => s.request);
  const cancel = useTokens((s) => s.cancel);
  const dismiss = useTokens((s) => s.dismiss);
  const openRoam = useApp((s) => s.openRoam);
  const { error, run } = useActionError();
  const pending = isPending(request);
  // A plain approval is one line: several of them (an import, a few adds) do not stack up.
  if (request.status === 'approved' && !request.downgraded) {
    return (
      <section className="request request-approved row" aria-label={`Token request for ${label}`}>
        <p className="strong grow" role="status">
          {headline(request, label)}
        </p>
        <DismissButton label={label} onClick={() => dismiss(request.graphId)} />
      </section>
    );
  }
  return (
    <section
      className={`request request-${request.status}${request.downgraded ? ' request-downgraded' : ''}`}
      aria-label={`Token request for ${label}`}
    >
      {/* Only the headline is live: the countdown below would otherwise be read out every second. */}
      <p className="strong" role="status">
        {headline(request, label)}
      </p>
      <RequestDetails request={request} label={label} keepsToken={props.keepsToken === true} />
      <div className="actions">
        {pending && (
          <button type="button" onClick={() => void run(() => cancel(request.graphId))}>
            Cancel request
          </button>
        )}
        {request.cause === 'roam-not-running' && (
          <button type="button" onClick={() => void run(openRoam)}>
            Open Roam Desktop
          </button>
        )}
        {!pending && request.mayAskAgain && request.status !== 'approved' && (
          <button type="button" onClick={() => void run(() => requestToken(request.graphId))}>
            Try again
          </button>
        )}
        {request.status === 'blocked' && (
          <button type="button" onClick={props.onShowBlocked}>
            Show blocked graphs
          </button>
        )}
        {!pending && <DismissButton label={label} onClick={() => dismiss(request.graphId)} />}
      </div>
      <ActionError error={error} />
    </section>
  );
}

function headline(request: TokenRequestView, label: string): string {
  switch (request.status) {
    case 'waiting':
      return 'Approve the dialog in Roam Desktop';
    case 'approved':
      return request.downgraded
        ? `Approved with less access than you chose: ${label} is connected.`
        : `Approved: ${label} is connected.`;
    case 'rejected':
      return `The request for ${label} was declined in Roam.`;
    case 'blocked':
      return `${label} is blocked: “Never Allow” was chosen in Roam.`;
    case 'timeout':
      return `Roam stopped waiting for ${label} after 5 minutes without an answer.`;
    case 'in-progress':
      return `Roam is already asking about ${label} in another dialog.`;
    case 'cancelled':
      return `Token request for ${label} cancelled.`;
    case 'error':
      return `Token request for ${label} failed.`;
  }
}

function RequestDetails(props: { request: TokenRequestView; label: string; keepsToken: boolean }) {
  const { request, label } = props;
  const asked = accessLevelText[request.requestedAccessLevel].label;
  if (isPending(request)) {
    return (
      <p>
        Roam Desktop is asking whether Roam Companion may use “{label}” with {asked} access. Switch to Roam
        Desktop and click Allow. Roam stops waiting in <Countdown until={request.expiresAt} />.
      </p>
    );
  }
  if (request.status === 'approved') {
    const granted = request.grantedAccessLevel ? accessLevelText[request.grantedAccessLevel].label : asked;
    return (
      <>
        <p>
          Granted access: {granted}
          {request.downgraded
            ? ` (you asked for ${asked}: your account’s permission on this graph is lower).`
            : '.'}
        </p>
      </>
    );
  }
  // The graph stays here; Blocked lists it too, with how to let Roam ask again.
  if (request.status === 'blocked')
    return (
      <p className="small">
        Roam Desktop will not ask about it again until you unblock it: Blocked lists it, with how.
        {props.keepsToken
          ? ' Its current token still works, so agents keep the access it grants.'
          : ' Until then it has no token, and agents cannot use it.'}
      </p>
    );
  return request.message ? <p className="small">{request.message}</p> : null;
}

function DismissButton(props: { label: string; onClick: () => void }) {
  return (
    <button type="button" aria-label={`Dismiss the token request for ${props.label}`} onClick={props.onClick}>
      Dismiss
    </button>
  );
}
