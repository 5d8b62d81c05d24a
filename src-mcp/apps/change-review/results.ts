/**
 * The two results the change-review app shows, read from a tool result as the host hands it over:
 * list_changes' page of this chat's changes and undo_changes' report (docs/undo.md). The text
 * JSON is the source (the tools have no outputSchema); anything else reads as "nothing to show".
 * Each change's ops come from the result's `_meta` (src-mcp/apps/change-review-data.ts), which
 * the model never reads; without them a change shows its summary line.
 */
import type { AppChange } from './data-types.ts';
import { CHANGE_REVIEW_DATA_KEY } from './data-key.ts';
import { isPlainObject } from '../../../src-shared/plain-object.ts';

export type { AppBlock, AppChange, AppOp, AppPlace } from './data-types.ts';

export interface ListedChange {
  id: string;
  time: string;
  graph: string;
  tool: string;
  summary: string;
  undoable: boolean;
  undone: boolean;
  status?: string;
}

/** Per change id, its ops as the server described them for the app. */
export type Described = Record<string, AppChange>;

export interface ChangeList {
  kind: 'list';
  changes: ListedChange[];
  total: number;
  nextOffset?: number;
  described: Described;
}

export interface UndoStep {
  status: string;
  detail: string;
  conflicts?: unknown[];
}

export interface UndoReport {
  kind: 'undo';
  dryRun: boolean;
  undone: number;
  conflicts: number;
  changes: Array<{ id: string; summary: string; result: string; steps: UndoStep[] }>;
  described: Described;
}

/** The values one app-only tool takes, as the result's `_meta` names them. */
export interface ToolCall {
  tool: string;
  arguments: Record<string, unknown>;
}

interface ShownBlock {
  text?: unknown;
  page?: unknown;
  /** A replaced block's text that comes. */
  newText?: unknown;
}

/** A change waiting for the person (src-mcp/gate/proposals.ts ProposalView), read defensively. */
export interface Proposal {
  kind: 'proposal';
  view: {
    id?: unknown;
    question?: unknown;
    graph?: unknown;
    client?: unknown;
    expiresAt?: unknown;
    taken?: {
      blocks?: ShownBlock[];
      replaced?: ShownBlock[];
      moved?: ShownBlock[];
      added?: ShownBlock[];
      pages?: Array<{ title?: unknown; blocks?: unknown }>;
      renames?: Array<{ from?: unknown; to?: unknown; links?: unknown }>;
      files?: Array<{ name?: unknown; shownIn?: { blocks?: unknown } }>;
      hidden?: number;
    };
  };
  approve: ToolCall;
  keep: ToolCall;
}

/** What became of a proposal (read_proposal's answer, src-mcp/gate/proposals.ts, `Proposals.fate`). */
export interface Fate {
  status: string;
  outcome: string;
}

export function readFate(text: string): Fate | undefined {
  const body = parse(text);
  if (typeof body?.status !== 'string') return undefined;
  return { status: body.status, outcome: typeof body.outcome === 'string' ? body.outcome : '' };
}

/** What the tool call answered: an error's message, or a result this app knows. */
export type Shown = ChangeList | UndoReport | Proposal | { kind: 'message'; text: string; error: boolean };

interface ToolResultLike {
  content?: Array<{ type: string; text?: string }>;
  structuredContent?: unknown;
  isError?: boolean;
  _meta?: unknown;
}

export function readResult(result: ToolResultLike): Shown {
  const texts = (result.content ?? []).filter((c) => c.type === 'text').map((c) => c.text ?? '');
  const structured = result.structuredContent;
  const body =
    structured && typeof structured === 'object' ? (structured as Record<string, unknown>) : parse(texts[0]);
  if (result.isError) {
    const error = (body?.error ?? {}) as { message?: string };
    return { kind: 'message', text: error.message ?? texts.join('\n'), error: true };
  }
  const proposal = proposalIn(result._meta);
  if (proposal) return proposal;
  const described = describedIn(result._meta);
  if (body && Array.isArray(body.changes) && typeof body.total === 'number')
    return { kind: 'list', ...(body as Omit<ChangeList, 'kind' | 'described'>), described };
  if (body && Array.isArray(body.changes) && typeof body.dryRun === 'boolean')
    return { kind: 'undo', ...(body as Omit<UndoReport, 'kind' | 'described'>), described };
  return { kind: 'message', text: texts.join('\n'), error: false };
}

function parse(text: string | undefined): Record<string, unknown> | undefined {
  if (!text) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The changes' ops in `_meta`, those that have an ops array (the views check each field they draw). */
function describedIn(meta: unknown): Described {
  const data = isPlainObject(meta) ? meta[CHANGE_REVIEW_DATA_KEY] : undefined;
  const changes = isPlainObject(data) && isPlainObject(data.changes) ? data.changes : {};
  return Object.fromEntries(
    Object.entries(changes).filter(
      (entry): entry is [string, AppChange] => isPlainObject(entry[1]) && Array.isArray(entry[1].ops),
    ),
  );
}

const toolCall = (value: unknown): ToolCall | undefined =>
  isPlainObject(value) && typeof value.tool === 'string' && isPlainObject(value.arguments)
    ? { tool: value.tool, arguments: value.arguments }
    : undefined;

function proposalIn(meta: unknown): Proposal | undefined {
  if (!isPlainObject(meta)) return undefined;
  const view = meta['roam-companion/proposal'];
  const approve = toolCall(meta['roam-companion/approve']);
  const keep = toolCall(meta['roam-companion/keep']);
  if (!isPlainObject(view) || !approve || !keep) return undefined;
  return { kind: 'proposal', view: view as Proposal['view'], approve, keep };
}
