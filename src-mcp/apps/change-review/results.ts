/**
 * The two results the change-review app shows, read from a tool result as the host hands it over:
 * list_changes' page of this chat's changes and undo_changes' report (docs/undo.md). The text
 * JSON is the source (the tools have no outputSchema); anything else reads as "nothing to show".
 */

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

export interface ChangeList {
  kind: 'list';
  changes: ListedChange[];
  total: number;
  nextOffset?: number;
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
}

/** What the tool call answered: an error's message, or a result this app knows. */
export type Shown = ChangeList | UndoReport | { kind: 'message'; text: string; error: boolean };

interface ToolResultLike {
  content?: Array<{ type: string; text?: string }>;
  structuredContent?: unknown;
  isError?: boolean;
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
  if (body && Array.isArray(body.changes) && typeof body.total === 'number')
    return { kind: 'list', ...(body as Omit<ChangeList, 'kind'>) };
  if (body && Array.isArray(body.changes) && typeof body.dryRun === 'boolean')
    return { kind: 'undo', ...(body as Omit<UndoReport, 'kind'>) };
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
