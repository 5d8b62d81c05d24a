/** An undo asked for in the Activity view: the engine's report in the renderer's terms, errors in a person's words. */
import {
  UndoError,
  undoChanges,
  type Caller,
  type Journal,
  type UndoActor,
} from '../../../src-mcp/changes/index.ts';
import type { ActivityUndoReportView, RequestInput } from '../../../src-shared/ipc-contract.ts';
import { stepView } from './activity-feed.ts';
import { CoreError } from '../core-error.ts';

export async function undoFromTray(
  request: RequestInput<'activity:undo'>,
  deps: { journal: Journal; caller: Caller; actor: UndoActor },
): Promise<ActivityUndoReportView> {
  try {
    const report = await undoChanges(
      {
        ...(request.ids ? { ids: request.ids } : { chat: request.chat }),
        ...(request.graph ? { graph: request.graph } : {}),
        dryRun: request.dryRun,
      },
      deps.caller,
      { journal: deps.journal, actor: deps.actor },
    );
    return {
      dryRun: report.dryRun,
      changes: report.changes.map((c) => ({
        id: c.id,
        summary: c.summary,
        result: c.result,
        steps: c.steps.map(stepView),
      })),
      undone: report.undone,
      conflicts: report.conflicts,
    };
  } catch (error) {
    if (error instanceof UndoError && error.code === 'NOT_FOUND')
      throw new CoreError(
        'NOT_FOUND',
        'That change is no longer in the journal (it keeps 30 days). The list shows what can still be undone.',
      );
    if (error instanceof UndoError) throw new CoreError('VALIDATION', error.message);
    throw error;
  }
}
