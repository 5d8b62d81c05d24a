/**
 * list_changes and undo_changes (docs/undo.md): an agent sees and undoes only its own chat's
 * changes (this MCP session's); a person reaches every chat through `roam-mcp changes|undo` and
 * the tray.
 */
import * as z from 'zod';
import { invalidateLinkIndex } from '../navigation/index-cache.ts';
import { defineTool, type SessionContext } from '../tool-definition.ts';
import { ToolError } from '../tool-errors.ts';
import { currentChat } from './chat.ts';
import { defaultJournal } from './journal.ts';
import { runUndo, UndoError, type Caller, type UndoReport } from './undo-engine.ts';

const PAGE = 20;

function callerFor(ctx: SessionContext): Caller {
  return (name, action, args, type) => {
    const graph = ctx.runtime.session
      .list()
      .find((g) => g.name === name && (type === undefined || g.type === type));
    if (!graph)
      throw new ToolError(
        'GRAPH_NOT_FOUND',
        `The change was made on graph '${name}', which this roam-mcp no longer has configured. Add it back, or undo with 'roam-mcp undo' in a terminal.`,
      );
    return ctx.runtime.callGraph(graph, action, args, ctx);
  };
}

const nickname = (ctx: SessionContext, name: string) =>
  ctx.runtime.session.list().find((g) => g.name === name)?.nickname ?? name;

function compact(report: UndoReport) {
  return {
    dryRun: report.dryRun,
    undone: report.undone,
    conflicts: report.conflicts,
    changes: report.changes.map((c) => ({
      id: c.id,
      summary: c.summary,
      result: c.result,
      steps: c.steps.map((s) => ({
        status: s.status,
        detail: s.detail,
        ...(s.conflicts ? { conflicts: s.conflicts } : {}),
      })),
    })),
    ...(report.runs.length ? { undoIds: report.runs } : {}),
  };
}

export const changeTools = [
  defineTool({
    name: 'list_changes',
    title: 'List changes',
    description:
      'Changes this chat made to Roam graphs, newest first, paginated: id, time, graph, tool, summary, undoable, undone. Undo them with undo_changes.',
    scope: 'session',
    annotations: { idempotentHint: true, openWorldHint: false },
    inputSchema: {
      offset: z.number().int().min(0).default(0),
      limit: z.number().int().min(1).max(100).default(PAGE),
    },
    async handler(args, ctx) {
      const journal = await defaultJournal();
      const chat = currentChat().id;
      const mine = (await journal.changes()).filter((c) => c.chat.id === chat).reverse();
      const page = mine.slice(args.offset, args.offset + args.limit).map((c) => ({
        id: c.id,
        time: c.at,
        graph: nickname(ctx, c.graph),
        tool: c.tool,
        summary: c.summary,
        undoable: c.undoable,
        undone: c.undone,
        ...(c.status !== 'applied' ? { status: c.status } : {}),
      }));
      const next = args.offset + page.length;
      return {
        changes: page,
        total: mine.length,
        offset: args.offset,
        limit: args.limit,
        ...(next < mine.length ? { nextOffset: next } : {}),
      };
    },
  }),
  defineTool({
    name: 'undo_changes',
    title: 'Undo changes',
    description:
      "Takes back this chat's changes (`ids` from list_changes, or `all: true`), newest first. Anything someone else changed since is left alone and reported as a conflict. `dryRun` shows what would change.",
    scope: 'session',
    writes: 'edit',
    annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
    inputSchema: {
      ids: z.array(z.string().min(1)).min(1).max(100).optional(),
      all: z.boolean().optional(),
      dryRun: z.boolean().optional(),
    },
    async handler(args, ctx) {
      if ((args.ids === undefined) === (args.all !== true)) {
        throw new ToolError(
          'INVALID_PARAMS',
          'undo_changes needs either `ids` (from list_changes) or `all: true`.',
          { field: 'ids' },
        );
      }
      const chat = currentChat();
      try {
        const report = await runUndo(
          { ...(args.ids ? { ids: args.ids } : {}), dryRun: args.dryRun === true },
          {
            journal: await defaultJournal(),
            caller: callerFor(ctx),
            actor: { chat, tool: 'undo_changes', onlyChat: chat.id },
          },
        );
        if (!report.dryRun) for (const c of report.changes) invalidateLinkIndex(c.graph);
        return compact(report);
      } catch (error) {
        if (error instanceof UndoError)
          throw new ToolError(error.code, error.message, { suggested_next_tool: 'list_changes' });
        throw error;
      }
    },
  }),
];
