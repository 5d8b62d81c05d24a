/**
 * The app's Undo acts on exactly the changes its dry run showed, however many (docs/undo.md, "In
 * the chat"): undo_changes takes at most UNDO_IDS_PER_CALL ids, so more are sent in batches, in
 * the dry run's order (newest first, as the undo itself goes), stopping at the first batch that is
 * not undone (declined, refused, failed) and saying how far it got. Each batch passes the same
 * gate and journal as any undo; no new argument, and nothing kept in the server between calls.
 */
import type { Shown, UndoReport } from './results.ts';

/** The most ids one undo_changes call takes (its input schema says the same). */
export const UNDO_IDS_PER_CALL = 100;

export interface BatchedUndo {
  /** The batches that were undone, as one report (undefined: not even the first). */
  report?: UndoReport;
  /** Why it stopped before the end, as the server said it. */
  stopped?: { text: string; error: boolean };
  /** How many of the ids were in batches that were undone. */
  reached: number;
}

export async function undoInBatches(
  ids: readonly string[],
  undo: (batch: string[]) => Promise<Shown>,
): Promise<BatchedUndo> {
  const reports: UndoReport[] = [];
  let reached = 0;
  for (let start = 0; start < ids.length; start += UNDO_IDS_PER_CALL) {
    const batch = ids.slice(start, start + UNDO_IDS_PER_CALL);
    const shown = await undo(batch);
    if (shown.kind !== 'undo' || shown.dryRun) {
      const text = shown.kind === 'message' ? shown.text : 'The undo answered something unexpected.';
      const error = shown.kind === 'message' ? shown.error : true;
      return { ...merged(reports), stopped: { text, error }, reached };
    }
    reports.push(shown);
    reached += batch.length;
  }
  return { ...merged(reports), reached };
}

function merged(reports: readonly UndoReport[]): { report?: UndoReport } {
  if (!reports.length) return {};
  return {
    report: {
      kind: 'undo',
      dryRun: false,
      undone: reports.reduce((sum, r) => sum + r.undone, 0),
      conflicts: reports.reduce((sum, r) => sum + r.conflicts, 0),
      changes: reports.flatMap((r) => r.changes),
      described: Object.assign({}, ...reports.map((r) => r.described)) as UndoReport['described'],
    },
  };
}
