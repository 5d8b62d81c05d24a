/**
 * The one error type of the Local API client. Its message says what happened and what to do
 * next, and never contains a token: every text that came from the wire is scrubbed first.
 */

/** What went wrong, coarse enough for callers to branch on (the `code` keeps Roam's detail). */
export type LocalApiErrorKind =
  /** 401: the token is missing, malformed, revoked or for another graph. */
  | 'auth'
  /** 403 INSUFFICIENT_SCOPE: the token is valid but cannot do this action. */
  | 'scope'
  /** 403 SCOPE_EXCEEDS_PERMISSION: the Roam user lost the permission the token had. */
  | 'permission'
  /** 400 VERSION_MISMATCH. */
  | 'version'
  /** 404 UNKNOWN_ACTION: this Roam version does not offer the action. */
  | 'unknown-action'
  /** Nothing listens on the port: Roam Desktop is not running (or restarting). */
  | 'not-running'
  /** 504: the graph did not finish loading in Roam's 30 minutes (encrypted graph waiting for its password?). */
  | 'graph-loading'
  /** 500 and other server failures (corrupted token file, action threw, graph window closed). */
  | 'internal'
  /** Token exchange refused: USER_REJECTED, GRAPH_BLOCKED, REQUEST_IN_PROGRESS, TIMEOUT, CANCELLED. */
  | 'exchange'
  /** 403 "Local API is disabled" (older Roam versions with the toggle). */
  | 'disabled'
  /** 400 VALIDATION_ERROR and other rejected requests. */
  | 'validation'
  /** The connection dropped after the request was sent: it may or may not have been applied. */
  | 'connection-lost'
  /** The answer was not the Local API's JSON. */
  | 'protocol'
  /** The caller aborted (signal). */
  | 'cancelled';

const TOKEN_PATTERN = /roam-graph-(?:local-)?token-[A-Za-z0-9_-]+/g;

/** Replaces anything that looks like a Roam token with its prefix and an ellipsis. */
export function scrubTokens(text: string): string {
  return text.replace(TOKEN_PATTERN, (match) =>
    match.startsWith('roam-graph-local-token-') ? 'roam-graph-local-token-…' : 'roam-graph-token-…',
  );
}

export class LocalApiError extends Error {
  /** HTTP status, or 0 when no HTTP answer arrived. */
  readonly status: number;
  /** Roam's error code (e.g. `INSUFFICIENT_SCOPE`, `USER_REJECTED`), or one of ours (`ECONNREFUSED`). */
  readonly code: string;
  readonly kind: LocalApiErrorKind;
  /** Roam's own message, scrubbed of tokens (the `message` adds what to do next). */
  readonly serverMessage: string;
  /** The Local API version Roam stamped on its answer, when it did. */
  readonly apiVersion: string | undefined;
  /** The action the request named, when it was an action call. */
  readonly action: string | undefined;

  constructor(init: {
    status: number;
    code: string;
    kind: LocalApiErrorKind;
    message: string;
    serverMessage?: string;
    apiVersion?: string;
    action?: string;
  }) {
    super(scrubTokens(init.message));
    this.name = 'LocalApiError';
    this.status = init.status;
    this.code = init.code;
    this.kind = init.kind;
    this.serverMessage = scrubTokens(init.serverMessage ?? '');
    this.apiVersion = init.apiVersion;
    this.action = init.action;
  }

  /** The caller gave up (its client cancelled): no answer from Roam will be used. */
  static cancelled(message = 'The request was cancelled.'): LocalApiError {
    return new LocalApiError({ status: 0, code: 'CANCELLED', kind: 'cancelled', message });
  }

  /** Plain data for logs and IPC (Error fields are not enumerable). */
  toJSON(): { status: number; code: string; kind: LocalApiErrorKind; message: string } {
    return { status: this.status, code: this.code, kind: this.kind, message: this.message };
  }
}

/**
 * Guidance per token request outcome (docs/mcp.md, Token exchange), as the MCP server and the
 * connect CLI say it; the tray words these outcomes itself (src-main/core/tokens/token-requests.ts).
 */
const EXCHANGE_GUIDANCE: Record<string, string> = {
  USER_REJECTED:
    'The request was declined in Roam. Ask the user before trying again; they can also create a token in Roam: Settings > Graph > Local API Tokens.',
  GRAPH_BLOCKED:
    "The user chose 'Never Allow' for this graph in Roam. They can unblock it in Roam's settings (Graph > Local API Tokens), then try again.",
  REQUEST_IN_PROGRESS:
    'Another token request for this graph is already waiting in Roam. Answer that dialog in Roam Desktop, then try again.',
  TIMEOUT:
    'Nobody answered the permission dialog in Roam within 5 minutes. Try again when the user is at Roam Desktop.',
  CANCELLED: 'The token request was cancelled before the user answered. Try again.',
};

/** Advice per 401 code Roam sends; other 401s get the generic advice. */
const AUTH_GUIDANCE: Record<string, string> = {
  MISSING_TOKEN: 'No token was sent for this graph.',
  INVALID_TOKEN_FORMAT: 'The token is not a Roam Local API token (they start with roam-graph-local-token-).',
  WRONG_GRAPH_TYPE: 'The token belongs to the other kind of graph (hosted or offline) of that name.',
  TOKEN_NOT_FOUND: 'The token may have been revoked or belong to another graph.',
};

/** "1.1.5" → [1, 1]; anything unreadable → undefined. */
function majorMinor(version: unknown): [number, number] | undefined {
  const match = /^(\d+)\.(\d+)/.exec(String(version ?? ''));
  return match ? [Number(match[1]), Number(match[2])] : undefined;
}

/** Which side to update on VERSION_MISMATCH: the one whose major.minor is behind. */
function versionAdvice(serverMessage: string, roam: string | undefined, expected: unknown): string {
  const theirs = majorMinor(roam);
  const ours = majorMinor(expected);
  const versions = roam
    ? ` Roam Desktop speaks Local API ${roam}; this roam-mcp speaks ${String(expected ?? 'another version')}.`
    : '';
  const roamNewer = theirs && ours && (theirs[0] - ours[0] || theirs[1] - ours[1]) > 0;
  const next = roamNewer
    ? ' Update roam-mcp (the MCP server) to its latest version, then restart the MCP client.'
    : theirs && ours
      ? ' Update Roam Desktop to its latest version.'
      : ' Update Roam Desktop and roam-mcp to their latest versions.';
  return `${serverMessage}.${versions}${next}`;
}

/** What a build that lacks an action keeps from the user, when the caller knows (a tool does). */
export interface MissingFeature {
  /** e.g. "link suggestions (suggest_links)". */
  feature: string;
  /** What Roam Desktop must have to offer it, when not every current build does. */
  needs?: string;
}

/** "This Roam Desktop (Local API 1.1.2) does not offer …: update Roam Desktop …" for an action. */
export function unknownActionAdvice(
  action: string | undefined,
  apiVersion: string | undefined,
  missing?: MissingFeature,
): string {
  const build = apiVersion ? `This Roam Desktop (Local API ${apiVersion})` : 'This Roam Desktop build';
  if (!action) return `${build} does not offer it: update Roam Desktop to its latest version.`;
  const feature = missing ? `${missing.feature}, action ${action}` : `action ${action}`;
  const needs = missing?.needs ? ` It needs ${missing.needs}.` : '';
  return `${build} does not offer ${feature}: update Roam Desktop to its latest version.${needs}`;
}

/**
 * Turns a non-2xx Local API answer into a LocalApiError with guidance; `action` names what a
 * build that lacks it (UNKNOWN_ACTION) should be updated for.
 */
export function errorFromResponse(status: number, body: unknown, action?: string): LocalApiError {
  const { code, message } = readErrorField(body);
  const serverMessage = message || `HTTP ${status}`;
  const stamped = (body as { apiVersion?: unknown } | undefined)?.apiVersion;
  const apiVersion = typeof stamped === 'string' || typeof stamped === 'number' ? String(stamped) : undefined;
  const make = (kind: LocalApiErrorKind, text: string, errCode = code || `HTTP_${status}`) =>
    new LocalApiError({ status, code: errCode, kind, message: text, serverMessage, apiVersion, action });

  if (code && code in EXCHANGE_GUIDANCE) {
    return make('exchange', `${serverMessage}. ${EXCHANGE_GUIDANCE[code]}`);
  }
  switch (code) {
    case 'INSUFFICIENT_SCOPE':
      return make(
        'scope',
        `${serverMessage}. The token for this graph does not allow this action. Get a token with broader access: run 'roam-mcp connect' (or create one in Roam: Settings > Graph > Local API Tokens) and choose "Read + Append" or "Full access".`,
      );
    case 'SCOPE_EXCEEDS_PERMISSION':
      return make(
        'permission',
        `${serverMessage}. Your Roam account no longer has the permission this needs on this graph (for example, you were changed to a reader). Ask the graph's owner for access, or only read.`,
      );
    case 'VERSION_MISMATCH':
      return make(
        'version',
        versionAdvice(
          serverMessage,
          apiVersion,
          (body as { expectedApiVersion?: unknown }).expectedApiVersion,
        ),
      );
    case 'UNKNOWN_ACTION':
      return make('unknown-action', `${serverMessage}. ${unknownActionAdvice(action, apiVersion)}`);
    case 'VALIDATION_ERROR':
      return make('validation', `${serverMessage}. The request was rejected as invalid.`);
  }
  if (status === 401) {
    const why = AUTH_GUIDANCE[code] ?? AUTH_GUIDANCE.TOKEN_NOT_FOUND;
    return make(
      'auth',
      `Roam rejected the token: ${serverMessage}. ${why} Get a new one with 'roam-mcp connect' (or Roam: Settings > Graph > Local API Tokens).`,
      code || 'UNAUTHORIZED',
    );
  }
  if (status === 403 && /disabled/i.test(serverMessage)) {
    return make(
      'disabled',
      `${serverMessage}. Then try again (newer Roam Desktop versions always enable it).`,
      code || 'LOCAL_API_DISABLED',
    );
  }
  if (status === 504) {
    return make(
      'graph-loading',
      `The graph did not finish loading in Roam Desktop in time (${serverMessage}). If it is encrypted, enter its password in the Roam window, then try again.`,
      code || 'GRAPH_LOADING_TIMEOUT',
    );
  }
  if (status >= 500) {
    if (/token file/i.test(serverMessage)) {
      return make(
        'internal',
        `Roam Desktop failed: ${serverMessage}. Its token file (local-api-tokens.edn) is damaged: recreate the graph's tokens in Roam (Settings > Graph > Local API Tokens).`,
        code || 'TOKEN_FILE_CORRUPTED',
      );
    }
    return make(
      'internal',
      `Roam could not run the request: ${serverMessage}. Check the arguments (uids come from <roam uid="..."/> tags); if they are right, try again, and restart Roam Desktop if it keeps failing.`,
      code || 'INTERNAL_ERROR',
    );
  }
  return make('validation', `Roam Desktop refused the request (HTTP ${status}): ${serverMessage}`);
}

function readErrorField(body: unknown): { code: string; message: string } {
  if (!body || typeof body !== 'object') return { code: '', message: '' };
  const error = (body as { error?: unknown }).error;
  if (typeof error === 'string') return { code: '', message: error };
  if (error && typeof error === 'object') {
    const { code, message } = error as { code?: unknown; message?: unknown };
    return {
      code: typeof code === 'string' ? code : '',
      message: typeof message === 'string' ? message.replace(/\.$/, '') : '',
    };
  }
  return { code: '', message: '' };
}
