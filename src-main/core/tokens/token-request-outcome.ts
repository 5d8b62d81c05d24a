/**
 * A failed token request in a person's words: the tray shows these to the user who asked, not to
 * an agent, so the Local API's advice for agents (uids, tool names) never reaches them.
 */
import type { TokenRequestCause, TokenRequestStatus } from '../../../src-shared/ipc-contract.ts';
import { LocalApiError, tokenRequestRefusal } from '../../../src-shared/local-api/index.ts';
import type { GraphType } from '../../../src-shared/roam-config.ts';
import { HOW_TO_UNBLOCK } from '../graphs/graph-views.ts';

export interface FailedOutcome {
  status: TokenRequestStatus;
  message: string;
  cause?: TokenRequestCause;
  mayAskAgain: boolean;
}

/** What to do next after each refusal (the panel's headline already says what happened). */
const REFUSAL_MESSAGE: Partial<Record<TokenRequestStatus, string>> = {
  rejected: 'Changed your mind? Press Try again and click Allow in Roam Desktop.',
  blocked: `Roam blocks token requests for this graph ("Never Allow"). ${HOW_TO_UNBLOCK}`,
  'in-progress':
    'Roam is already showing a token request for this graph (from another app or window). Answer it in Roam Desktop, or wait for it to expire, then try again.',
  timeout: 'Nothing was stored. Press Try again to ask again when you are at Roam Desktop.',
  cancelled: 'Nothing was stored. Press Try again to ask again.',
};

/** What the panel says about a request that ended without a token. */
export function failedOutcome(
  error: unknown,
  aborted: boolean,
  graph: { name: string; type: GraphType },
): FailedOutcome {
  if (aborted || (error instanceof LocalApiError && error.kind === 'cancelled')) {
    return { status: 'cancelled', message: REFUSAL_MESSAGE.cancelled!, mayAskAgain: true };
  }
  if (!(error instanceof LocalApiError)) {
    const detail = error instanceof Error ? error.message : String(error);
    return { status: 'error', message: `The token request failed: ${detail}. Try again.`, mayAskAgain: true };
  }
  return (
    refusalOutcome(error.code) ?? { status: 'error', mayAskAgain: true, ...failureInWords(error, graph) }
  );
}

/** The outcome of one of Roam's refusals (USER_REJECTED, GRAPH_BLOCKED, …), or undefined for another code. */
export function refusalOutcome(code: string): FailedOutcome | undefined {
  const refusal = tokenRequestRefusal(code);
  if (!refusal) return undefined;
  const status = refusal.outcome;
  return { status, message: REFUSAL_MESSAGE[status]!, mayAskAgain: refusal.askAgain !== 'after-unblock' };
}

function failureInWords(
  error: LocalApiError,
  graph: { name: string; type: GraphType },
): { message: string; cause?: TokenRequestCause } {
  if (error.kind === 'not-running') {
    return {
      cause: 'roam-not-running',
      message:
        'Roam Desktop is not running, so nobody could approve the request. Open Roam Desktop, then press Try again.',
    };
  }
  // Roam answers a request for a graph it cannot open with a bare 500 ("does not exist or you have no access").
  if (error.kind === 'internal' && /exist|no access|could not open|not found/i.test(error.serverMessage)) {
    return {
      cause: 'graph-not-found',
      message: `Roam Desktop could not open the ${graph.type} graph '${graph.name}': it does not exist, or your account cannot open it. Check the name as Roam shows it (the last part of the graph's address); if it is wrong, remove this graph and add it again with the right name.`,
    };
  }
  const said = error.serverMessage ? ` (Roam said: ${error.serverMessage})` : '';
  return {
    message: `Roam Desktop could not handle the token request${said}. Try again; if it keeps failing, restart Roam Desktop.`,
  };
}
