/**
 * list_changes and undo_changes (docs/undo.md): an agent sees and undoes only its own chat's
 * changes (this MCP session's); a person reaches every chat through `roam-mcp changes|undo` and
 * the tray.
 */
import { graphId } from '../../../src-shared/constants.ts';
import { undoesChanges } from '../../gate/undo-takes.ts';
import * as z from 'zod';
import { listData, undoData, type GraphRead } from '../../apps/change-review-data.ts';
import { CHANGE_REVIEW_META } from '../../apps/change-review-resource.ts';
import { UNDO_IDS_PER_CALL } from '../../apps/change-review/undo-batches.ts';
import { enforceUndoAccess } from '../../gate/guard.ts';
import {
  agentChangeReport,
  agentSummary,
  undoAddresses,
  undoTouchesHidden,
  type HiddenNow,
} from '../../changes/undo/agent-view.ts';
import { selectChanges } from '../../changes/undo/undo-engine.ts';
import { currentChat } from '../../contract/chat-scope.ts';
import { HIDDEN_CONTENT_QUERY, HIDING_TAGS, hiddenAmong } from '../../roam/hidden-blocks.ts';
import {
  UNDO_ACTIONS,
  undoCaller,
  undoChanges,
  UndoError,
  type Caller,
  type Change,
  type UndoReport,
} from '../../changes/index.ts';
import { defineTool, type SessionContext } from '../../contract/tool-definition.ts';
import { WithResultMeta } from '../../contract/tool-content.ts';
import { ToolError } from '../../contract/tool-errors.ts';

const PAGE = 20;

/** refuseHiddenUndo, its UndoError (an unknown id, another chat's) told as the tool tells it. */
async function undoRefusal(args: UndoArgs, ctx: SessionContext): Promise<void> {
  try {
    await refuseHiddenUndo(args, ctx);
  } catch (error) {
    if (error instanceof UndoError)
      throw new ToolError(error.code, error.message, { suggested_next_tool: 'list_changes' });
    throw error;
  }
}

/** The undo's and the app's calls, on this session's graphs, each checked against the graph's access level. */
const callerFor = (ctx: SessionContext): Caller =>
  undoCaller({
    graphs: () => ctx.gateway.session.list(),
    call(graph, action, args) {
      enforceUndoAccess('undo_changes', action, graph, ctx.gateway.session);
      return ctx.gateway.callGraph(graph, action, args, ctx);
    },
    missing: (name) =>
      new ToolError(
        'GRAPH_NOT_FOUND',
        `The change was made on graph '${name}', which this roam-mcp no longer has configured. Add it back, or undo with 'roam-mcp undo' in a terminal.`,
      ),
  });

/** The change-review app's reads (src-mcp/apps/change-review-data.ts), on the change's graph. */
const appRead =
  (ctx: SessionContext): GraphRead =>
  (change, action, args) =>
    callerFor(ctx)(change.graph, action, args, change.graphType);

const nickname = (ctx: SessionContext, name: string) =>
  ctx.gateway.session.list().find((g) => g.name === name)?.nickname ?? name;

/** What Roam hides from AI in a graph now; undefined when it cannot say (the graph is gone). */
async function hiddenIn(
  ctx: SessionContext,
  graph: string,
  type?: 'hosted' | 'offline',
): Promise<HiddenNow | undefined> {
  const rows = (await callerFor(ctx)(graph, 'data.q', [HIDDEN_CONTENT_QUERY, [...HIDING_TAGS]], type).catch(
    () => undefined,
  )) as Array<[number, string, string]> | null | undefined;
  if (rows === undefined) return undefined;
  return {
    uids: new Set((rows ?? []).map(([, uid]) => uid)),
    strings: new Set((rows ?? []).map(([, , text]) => text).filter((text) => text !== '')),
  };
}

/** Per graph of these changes, what is hidden now (read once per graph). */
async function hiddenFor(ctx: SessionContext, changes: readonly Change[]) {
  const byGraph = new Map<string, HiddenNow | undefined>();
  for (const c of changes) {
    const key = graphId({ name: c.graph, type: c.graphType });
    if (!byGraph.has(key)) byGraph.set(key, await hiddenIn(ctx, c.graph, c.graphType));
  }
  return (c: Change): HiddenNow => byGraph.get(graphId({ name: c.graph, type: c.graphType })) ?? UNKNOWN;
}

const UNKNOWN: HiddenNow = { uids: new Set(), strings: new Set(), unknown: true };

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

/** The report without the text of anything hidden from AI, and the app's data (the same rule). */
async function forTheAgent(ctx: SessionContext, report: UndoReport): Promise<WithResultMeta> {
  const all = new Map((await (await ctx.journal()).changes()).map((c) => [c.id, c]));
  const changes = report.changes.map((r) => all.get(r.id)).filter((c): c is Change => !!c);
  const hidden = await hiddenFor(ctx, changes);
  const agentReport = {
    ...report,
    changes: report.changes.map((r) => {
      const change = all.get(r.id);
      return agentChangeReport(r, change, change ? hidden(change) : UNKNOWN);
    }),
  };
  return new WithResultMeta(compact(agentReport), await undoData(report, all, hidden, appRead(ctx)));
}

interface UndoArgs {
  ids?: string[] | undefined;
  all?: boolean | undefined;
}

/**
 * An agent cannot change what it cannot see, not even to take back its own change: an undo (or a
 * redo, the undo of an undo) that would write to a block hidden from AI (agent-view.ts) is
 * refused whole, before anything is read for the question or written. The person's
 * undo (`roam-mcp undo`, Activity) stays allowed: an agent that added `#.rm-private` is undone there.
 */
async function refuseHiddenUndo(args: UndoArgs, ctx: SessionContext): Promise<void> {
  if ((args.ids === undefined) === (args.all !== true)) return;
  const chat = currentChat();
  const chosen = selectChanges(await (await ctx.journal()).changes(), args.ids ? { ids: args.ids } : {}, {
    chat,
    tool: 'undo_changes',
    onlyChat: chat.id,
  }).filter((c) => !c.undone);
  const byGraph = new Map<string, Change[]>();
  for (const c of chosen) {
    const key = graphId({ name: c.graph, type: c.graphType });
    byGraph.set(key, [...(byGraph.get(key) ?? []), c]);
  }
  const touching: string[] = [];
  for (const changes of byGraph.values()) {
    const [{ graph, graphType }] = changes as [Change];
    // One data.q per graph, over the uids the reversing writes address, asked now.
    const roam = {
      call: <T>(action: string, args: unknown[] = []) =>
        callerFor(ctx)(graph, action, args, graphType) as Promise<T>,
    };
    const hidden = await hiddenAmong(roam, changes.flatMap(undoAddresses));
    touching.push(...changes.filter((c) => undoTouchesHidden(c, hidden)).map((c) => c.id));
  }
  if (touching.length === 0) return;
  const [first] = touching;
  const named = touching.map((id) => `'${id}'`).join(', ');
  const others = chosen.length > touching.length ? ' Undo the others by their ids.' : '';
  throw new ToolError(
    'HIDDEN_CONTENT',
    `undo_changes was refused: taking back ${touching.length === 1 ? 'change' : 'changes'} ${named} would change a block hidden from AI (#.rm-hide / #.rm-private), and an agent cannot change what it cannot see, even to take back its own change. Nothing was undone.${others} The person can undo ${touching.length === 1 ? 'it' : 'them'} with 'roam-mcp undo ${first}' in a terminal or in Roam Companion's Activity.`,
    { hidden_changes: touching, suggested_next_tool: 'list_changes' },
  );
}

export const changeTools = [
  defineTool({
    name: 'list_changes',
    title: 'List changes',
    toolset: 'core',
    feature: 'the change journal',
    actions: [],
    description:
      "This chat's changes to Roam graphs, newest first: id, time, graph, tool, summary, undoable, undone.",
    scope: 'session',
    _meta: CHANGE_REVIEW_META,
    annotations: { idempotentHint: true, openWorldHint: false },
    inputSchema: {
      offset: z.number().int().min(0).default(0),
      limit: z.number().int().min(1).max(100).default(PAGE),
    },
    async handler(args, ctx) {
      const journal = await ctx.journal();
      const chat = currentChat().id;
      const mine = (await journal.changes()).filter((c) => c.chat.id === chat).reverse();
      const shown = mine.slice(args.offset, args.offset + args.limit);
      const hidden = await hiddenFor(ctx, shown);
      const page = shown.map((c) => ({
        id: c.id,
        time: c.at,
        graph: nickname(ctx, c.graph),
        tool: c.tool,
        summary: agentSummary(c, hidden(c)),
        undoable: c.undoable,
        undone: c.undone,
        ...(c.status !== 'applied' ? { status: c.status } : {}),
      }));
      const next = args.offset + page.length;
      // Changes waiting for the person, and what became of each (docs/mcp.md, Consent).
      const proposals = ctx.proposals.ofChat();
      const body = {
        ...(proposals.length ? { proposals } : {}),
        changes: page,
        total: mine.length,
        offset: args.offset,
        limit: args.limit,
        ...(next < mine.length ? { nextOffset: next } : {}),
      };
      return new WithResultMeta(body, await listData(shown, hidden, appRead(ctx)));
    },
  }),
  defineTool({
    name: 'undo_changes',
    title: 'Undo changes',
    toolset: 'core',
    feature: 'undo',
    actions: UNDO_ACTIONS,
    takes: {
      async read(args, ctx) {
        await undoRefusal(args, ctx);
        return undoesChanges(args, ctx);
      },
    },
    description:
      "Takes back this chat's changes (`ids` from list_changes, or `all: true`), newest first. Anything someone else changed since is left alone and reported as a conflict. `dryRun` shows what would change.",
    scope: 'session',
    _meta: CHANGE_REVIEW_META,
    writes: 'edit',
    annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
    inputSchema: {
      ids: z.array(z.string().min(1)).min(1).max(UNDO_IDS_PER_CALL).optional(),
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
      await undoRefusal(args, ctx);
      try {
        const report = await undoChanges(
          { ...(args.ids ? { ids: args.ids } : {}), dryRun: args.dryRun === true },
          callerFor(ctx),
          { journal: await ctx.journal(), actor: { chat, tool: 'undo_changes', onlyChat: chat.id } },
        );
        if (!report.dryRun) for (const c of report.changes) ctx.linkIndexes.invalidate(c.graph);
        return await forTheAgent(ctx, report);
      } catch (error) {
        if (error instanceof UndoError)
          throw new ToolError(error.code, error.message, { suggested_next_tool: 'list_changes' });
        throw error;
      }
    },
  }),
];
