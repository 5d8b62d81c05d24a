/**
 * Local API failures as agent-facing tool errors (docs/mcp.md, Errors): a code
 * to branch on, a message that says what happened and what to do next, and recovery hints.
 */
import { LocalApiError, scrubTokens } from '../src-shared/local-api/index.ts';
import { ToolError } from './tool-definition.ts';

const CODE_BY_KIND: Record<LocalApiError['kind'], string> = {
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

/** Converts anything a handler threw into a ToolError; unknown errors become INTERNAL_ERROR. */
export function toToolError(error: unknown, graph?: { nickname: string }): ToolError {
  if (error instanceof ToolError) return error;
  const where = graph ? { graph: graph.nickname } : {};
  if (error instanceof LocalApiError) {
    // Exchange outcomes keep Roam's own codes (USER_REJECTED, GRAPH_BLOCKED, ...).
    const code = error.kind === 'exchange' ? error.code : CODE_BY_KIND[error.kind];
    const details: Record<string, unknown> = { ...where };
    if (error.kind === 'auth') details.suggested_next_tool = 'select_graph';
    // Which Roam build answered, so "update Roam Desktop" can be checked against it.
    if ((error.kind === 'version' || error.kind === 'unknown-action') && error.apiVersion)
      details.roamApiVersion = error.apiVersion;
    if (error.kind === 'exchange' && ['TIMEOUT', 'CANCELLED', 'REQUEST_IN_PROGRESS'].includes(error.code)) {
      details.retryable = true;
    }
    if (error.kind === 'exchange' && error.code === 'USER_REJECTED') details.retryable = false;
    // A write that may have landed: check before retrying (src-shared/local-api/local-api-client.ts).
    if (error.code === 'WRITE_UNCONFIRMED')
      Object.assign(details, { retryable: false, suggested_next_tool: 'get_block' });
    return new ToolError(code, error.message, details);
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ToolError(
    'INTERNAL_ERROR',
    `roam-mcp failed unexpectedly: ${scrubTokens(message)}. Try again; if it persists, report it with the MCP client's log.`,
    where,
  );
}
