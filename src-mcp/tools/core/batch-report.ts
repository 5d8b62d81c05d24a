/**
 * Roam's per-item batch report (docs/mcp.md, Batch edits): checked strictly (one item per input,
 * in input order, each naming its uid with a boolean `ok`), then told to the agent so a partial
 * success can never pass for a full one: any failed item makes the result an error that lists
 * what was applied and what was not.
 */
import { LIMITS, truncate } from '../../contract/limits.ts';
import { isToolErrorCode, ToolError } from '../../contract/tool-errors.ts';

export interface ItemReport {
  uid: string;
  ok: boolean;
  code?: string;
  message?: string;
  deleted?: boolean;
  reason?: string;
  note?: string;
}

const optionalText = (value: unknown) =>
  typeof value === 'string' && value ? truncate(value, LIMITS.context) : undefined;

/** The report as Roam sent it, or WRITE_UNCONFIRMED when it cannot be trusted item by item. */
export function readReport(action: string, uids: string[], payload: unknown): ItemReport[] {
  const malformed = (why: string) =>
    new ToolError(
      'WRITE_UNCONFIRMED',
      `Roam answered ${action} with a report that cannot be read (${why}), so which items were applied is unknown. Read the blocks with get_block before retrying any of them.`,
      { retryable: false, suggested_next_tool: 'get_block' },
    );
  const results = (payload as { results?: unknown } | null | undefined)?.results;
  if (!Array.isArray(results)) throw malformed('no results list');
  if (results.length !== uids.length) throw malformed(`${results.length} results for ${uids.length} items`);
  return results.map((item: unknown, i) => {
    const report = (item ?? {}) as Record<string, unknown>;
    if (report.uid !== uids[i]) throw malformed(`item ${i} does not name uid '${uids[i]}'`);
    if (typeof report.ok !== 'boolean') throw malformed(`item ${i} has no ok flag`);
    const code = optionalText(report.code) ?? (report.deleted === false ? 'NOT_FOUND' : undefined);
    const text = optionalText(report.message);
    const note = optionalText(report.note);
    const reason = optionalText(report.reason);
    return {
      uid: uids[i] as string,
      ok: report.ok,
      ...(code && !report.ok ? { code } : {}),
      ...(text ? { message: text } : {}),
      ...(typeof report.deleted === 'boolean' ? { deleted: report.deleted } : {}),
      ...(reason ? { reason } : {}),
      ...(note ? { note } : {}),
    };
  });
}

function describeFailure(item: ItemReport): string {
  const why =
    item.message ??
    (item.reason
      ? `reason: ${item.reason}`
      : item.code === 'NOT_FOUND'
        ? 'no such block'
        : 'no reason given');
  return `${item.uid} (${item.code ?? 'FAILED'}: ${why})`;
}

/** The success value when every item was applied; otherwise throws the per-item error. */
export function batchOutcome(verb: 'updated' | 'deleted', results: ItemReport[]) {
  const failed = results.filter((r) => !r.ok);
  const succeeded = results.length - failed.length;
  if (failed.length === 0) return { success: true, succeeded, failed: 0, results };
  const details = { succeeded, failed: failed.length, results };
  const list = failed.map(describeFailure).join('; ');
  if (succeeded === 0) {
    const codes = new Set(failed.map((r) => r.code));
    const [only] = codes;
    const code = codes.size === 1 && only !== undefined && isToolErrorCode(only) ? only : 'BATCH_FAILED';
    throw new ToolError(code, `Nothing was ${verb}: all ${failed.length} items failed: ${list}.`, details);
  }
  throw new ToolError(
    'BATCH_PARTIAL',
    `Only ${succeeded} of ${results.length} blocks were ${verb}; ${failed.length} failed: ${list}. The ${succeeded} others stay ${verb} (see results): retry only the failed items, after fixing them.`,
    details,
  );
}
