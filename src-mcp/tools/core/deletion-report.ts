/**
 * Roam's deletion report (docs/mcp.md, Deletes): newer builds answer a delete with
 * `{deleted: boolean, reason?}`; `deleted: false` means nothing was deleted, which the agent
 * must see as NOT_FOUND, never as success. Older builds answer null (no report).
 */
import { ToolError } from '../../contract/tool-errors.ts';

export interface DeletionReport {
  deleted?: unknown;
  reason?: unknown;
}

/** Roam's reason, one line, at most 80 characters (it is quoted to the agent). */
function shortReason(reason: unknown): string {
  const text = String(reason).replace(/\s+/g, ' ').trim();
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/** Whether Roam said the target is simply not there (no reason counts as "not-found"). */
export function isNotFoundReason(reason: unknown): boolean {
  return reason === undefined || reason === null || reason === 'not-found';
}

/** NOT_FOUND for `{deleted: false}`: "already gone, don't retry", or Roam's other reason quoted. */
export function notDeletedError(
  kind: 'page' | 'block',
  uid: string,
  graph: string,
  reason: unknown,
): ToolError {
  const what = kind === 'page' ? 'Page' : 'Block';
  const details = { uid, ...(reason !== undefined && reason !== null ? { reason } : {}) };
  if (isNotFoundReason(reason)) {
    return new ToolError(
      'NOT_FOUND',
      `Nothing was deleted: ${what.toLowerCase()} uid '${uid}' does not exist in graph "${graph}". If it was deleted earlier (or with a parent), it is already gone: do not retry. Otherwise find the right uid with search.`,
      { ...details, suggested_next_tool: 'search' },
    );
  }
  return new ToolError(
    'NOT_FOUND',
    `Nothing was deleted: Roam did not delete ${what.toLowerCase()} uid '${uid}' in graph "${graph}" (reason: "${shortReason(reason)}"). Do not assume it is gone: read it with get_${kind === 'page' ? 'page' : 'block'} before acting further.`,
    details,
  );
}

/** Throws NOT_FOUND when Roam reported that nothing was deleted; a null (older build) passes. */
export function checkDeletionReport(
  result: unknown,
  kind: 'page' | 'block',
  uid: string,
  graph: string,
): void {
  const report = result as DeletionReport | null | undefined;
  if (report && typeof report === 'object' && report.deleted === false)
    throw notDeletedError(kind, uid, graph, report.reason);
}
