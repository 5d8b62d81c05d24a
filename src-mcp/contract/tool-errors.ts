/**
 * Every failure an agent sees, in one shape (docs/mcp.md, Errors): `{error: {code, message,
 * ...recovery}}` with `isError: true`. A code to branch on, a message that says what happened and
 * what to do next, and recovery hints (`retryable`, `suggested_next_tool`, `graph`, `field`).
 */
import type { ToolName } from './tool-names.ts';
import { LocalApiError, scrubTokens, tokenRequestRefusal } from '../../src-shared/local-api/index.ts';

/** Every code an agent can branch on; docs/mcp.md's Errors table says when each comes. */
export const TOOL_ERROR_CODES = [
  'CONFIG_NOT_FOUND',
  'CONFIG_INVALID',
  'CONFIG_NOT_WRITABLE',
  'GRAPH_NOT_SELECTED',
  'GRAPH_NOT_FOUND',
  'GRAPH_SWITCHED_OFF',
  'ACCESS_LEVEL',
  'GRAPH_TICKET_REQUIRED',
  'INVALID_PARAMS',
  'NOT_FOUND',
  'PAGE_EXISTS',
  'HIDDEN_CONTENT',
  'TOO_LARGE',
  'AUTH_FAILED',
  'INSUFFICIENT_SCOPE',
  'SCOPE_EXCEEDS_PERMISSION',
  'VERSION_MISMATCH',
  'UNKNOWN_ACTION',
  'BATCH_PARTIAL',
  'BATCH_FAILED',
  'WRITE_UNCONFIRMED',
  'GRAPH_LOADING_TIMEOUT',
  'ROAM_INTERNAL_ERROR',
  'ROAM_REJECTED_REQUEST',
  'ROAM_NOT_RUNNING',
  'LOCAL_API_DISABLED',
  'CONNECTION_LOST',
  'ROAM_PROTOCOL_ERROR',
  'USER_REJECTED',
  'GRAPH_BLOCKED',
  'REQUEST_IN_PROGRESS',
  'TIMEOUT',
  'CANCELLED',
  'TOKEN_REQUEST_FAILED',
  'UNKNOWN_TOOL',
  'EXTENSION_TOOL_FAILED',
  'TOOLSET_NOT_ENABLED',
  'UPLOAD_FOLDER_NOT_SET',
  'FETCH_FAILED',
  'JOURNAL_QUOTA',
  'JOURNAL_UNAVAILABLE',
  'NOT_YOUR_CHANGE',
  'NOTHING_SELECTED',
  'INTERNAL_ERROR',
] as const;
export type ToolErrorCode = (typeof TOOL_ERROR_CODES)[number];

/** Whether `code` (Roam's, say) is one of ours. */
export const isToolErrorCode = (code: string): code is ToolErrorCode =>
  (TOOL_ERROR_CODES as readonly string[]).includes(code);

/** A failed token request's code: Roam's refusal (USER_REJECTED, ...) when it is one we list. */
export const tokenRequestCode = (error: LocalApiError): ToolErrorCode =>
  isToolErrorCode(error.code) ? error.code : 'TOKEN_REQUEST_FAILED';

/** A failure the agent can act on: `{error: {code, message, ...recovery}}` with `isError: true`. */
/** Recovery hints beside the code and message; a suggested tool is one that exists. */
export type ToolErrorDetails = Record<string, unknown> & { suggested_next_tool?: ToolName };

export class ToolError extends Error {
  constructor(
    readonly code: ToolErrorCode,
    message: string,
    readonly details: ToolErrorDetails = {},
  ) {
    super(message);
    this.name = 'ToolError';
  }
}

const CODE_BY_KIND: Record<LocalApiError['kind'], ToolErrorCode> = {
  auth: 'AUTH_FAILED',
  scope: 'INSUFFICIENT_SCOPE',
  permission: 'SCOPE_EXCEEDS_PERMISSION',
  version: 'VERSION_MISMATCH',
  'unknown-action': 'UNKNOWN_ACTION',
  'not-running': 'ROAM_NOT_RUNNING',
  'graph-loading': 'GRAPH_LOADING_TIMEOUT',
  internal: 'ROAM_INTERNAL_ERROR',
  exchange: 'TOKEN_REQUEST_FAILED',
  disabled: 'LOCAL_API_DISABLED',
  validation: 'ROAM_REJECTED_REQUEST',
  'connection-lost': 'CONNECTION_LOST',
  protocol: 'ROAM_PROTOCOL_ERROR',
  cancelled: 'CANCELLED',
};

/**
 * A failed token request as a tool error (docs/mcp.md, Token exchange): it keeps Roam's own code
 * (USER_REJECTED, GRAPH_BLOCKED, ...), is retryable unless the user decided (the shared table,
 * src-shared/local-api/token-request-refusals.ts), and points to select_graph when asking again
 * is the way forward.
 */
export function tokenRequestError(error: LocalApiError, graph?: { nickname: string }): ToolError {
  const message = graph ? `No token for graph '${graph.nickname}': ${error.message}` : error.message;
  // An agent asks again only when nobody decided (src-shared/local-api/token-request-refusals.ts).
  const askAgain = tokenRequestRefusal(error.code)?.askAgain;
  return new ToolError(tokenRequestCode(error), message, {
    ...(graph ? { graph: graph.nickname } : {}),
    retryable: askAgain === undefined || askAgain === 'anyone',
    // select_graph asks again, or joins the dialog already open.
    ...(askAgain === 'anyone' ? { suggested_next_tool: 'select_graph' } : {}),
  });
}

/** Converts anything a handler threw into a ToolError; unknown errors become INTERNAL_ERROR. */
export function toToolError(error: unknown, graph?: { nickname: string }): ToolError {
  if (error instanceof ToolError) return error;
  const where = graph ? { graph: graph.nickname } : {};
  if (error instanceof LocalApiError) {
    if (error.kind === 'exchange') return tokenRequestError(error, graph);
    const details: ToolErrorDetails = { ...where };
    if (error.kind === 'auth') details.suggested_next_tool = 'select_graph';
    // Which Roam build answered, so "update Roam Desktop" can be checked against it.
    if ((error.kind === 'version' || error.kind === 'unknown-action') && error.apiVersion)
      details.roamApiVersion = error.apiVersion;
    // A write that may have landed: check before retrying (src-shared/local-api/local-api-client.ts).
    if (error.code === 'WRITE_UNCONFIRMED')
      Object.assign(details, { retryable: false, suggested_next_tool: 'get_block' });
    return new ToolError(CODE_BY_KIND[error.kind], error.message, details);
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ToolError(
    'INTERNAL_ERROR',
    `roam-mcp failed unexpectedly: ${scrubTokens(message)}. Try again; if it persists, report it with the MCP client's log.`,
    where,
  );
}

/** The agent-facing JSON text of an error result. */
export function errorText(error: ToolError): string {
  return JSON.stringify({ error: { code: error.code, message: error.message, ...error.details } });
}
