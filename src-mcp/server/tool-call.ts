/**
 * What happens on `tools/call`, in order:
 *
 * 1. lookup by name in the catalogue (src-mcp/server/tool-catalogue.ts);
 * 2. refusal (src-mcp/server/visibility.ts, also what hides a tool from tools/list);
 * 3. argument parsing against the declared schema (INVALID_PARAMS names the field);
 * 4. graph tools: graph resolution (`GraphSession.withGraph`: explicit `graph`, selection, the only graph);
 * 5. before a write: the graph's access level (src-mcp/access/: ACCESS_LEVEL), then
 *    (`beforeWrite`) a graph ticket (GRAPH_TICKET_REQUIRED: select_graph first), then consent
 *    (src-mcp/gate/consent.ts): what the call would take away, read by its `takes` (or handed
 *    over with update_page_markdown's plan), may need the person's yes first; the gate's outcome
 *    (src-mcp/gate/outcome.ts) either lets the write go ahead or is the call's answer — the
 *    question, a waiting proposal that the app-only approve_change (or Roam Companion) runs later
 *    through this same path (src-mcp/gate/replay.ts), or nothing done;
 * 6. the handler, with a context built once (`graphContext` / session context); a write tool's
 *    Local API writes go through the change journal (src-mcp/changes/journal/record.ts: the state to
 *    restore first, then the write, then its outcome; docs/undo.md);
 * 7. after a write (`afterWrite`, even a failed one: it may have landed): the link index is
 *    invalidated; on success an explicit `graph` becomes the selection (a failed call never
 *    redirects later writes);
 * 8. the result: a string as text; a ToolContent (src-mcp/contract/tool-content.ts) as its MCP content;
 *    a WithResultMeta as its value plus the result's `_meta` (an MCP App's data, never the model's);
 *    a JSON value as text, plus structuredContent when the tool has
 *    an outputSchema; notes (token granted, ...) as extra text items; any failure as the
 *    `{error: {code, message, ...recovery}}` isError result (src-mcp/contract/tool-errors.ts), as text only:
 *    the v1 SDK client checks any structuredContent against the outputSchema, errors included;
 *    an UNKNOWN_ACTION names the tool's declared feature and the build it needs.
 *    A success stands on its own in either form (docs/mcp.md, "Using the 2026-07-28 revision"):
 *    notes are extra text items and, in structuredContent, its `notes` field.
 *
 * Declaring a tool: src-mcp/contract/tool-definition.ts. Nothing here changes when a tool is added.
 */
import type { CallToolResult, InputRequiredResult } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { graphId } from '../../src-shared/constants.ts';
import type { ConfiguredGraph } from '../../src-shared/roam-config.ts';
import { NOTHING_TAKEN } from '../contract/taken-away.ts';
import { enforceAccess } from '../gate/guard.ts';
import type { CallScope } from '../contract/call-scope.ts';
import { NEVER_ASK, type Confirmation } from '../gate/confirm.ts';
import type { GatedCall } from '../gate/consent.ts';
import { goAhead, Halted, type Reservation } from '../gate/outcome.ts';
import { ApprovedWrite, heldResult, runApproved, type RunCall } from '../gate/replay.ts';
import { currentChat } from '../contract/chat-scope.ts';
import { hintsFrom, ToolRecord } from '../changes/journal/record.ts';
import { log } from '../contract/log.ts';
import type { GraphGateway } from '../roam/graph-gateway.ts';
import { ToolContent, WithResultMeta } from '../contract/tool-content.ts';
import {
  inputShape,
  isGraphWrite,
  type ServerServices,
  type ToolContext,
  type ToolDefinition,
} from '../contract/tool-definition.ts';
import { errorText, ToolError, toToolError } from '../contract/tool-errors.ts';
import { namedForTool } from '../contract/roam-feature.ts';
import { enforcePlannedEdits } from '../gate/planned-edits.ts';
import { callableTool, type Visibility } from './visibility.ts';

/** What a call runs with: what decides visibility, and the services every handler is lent. */
export interface ToolCallState extends Visibility {
  /** What every handler is lent (`ServerServices`), the same for every chat of the process. */
  services: ServerServices;
}

/**
 * Runs one tools/call; never throws (every failure is an isError result). A write that takes much
 * away may answer `input_required` first (the question for the person), or a waiting proposal.
 */
export function callTool(
  tools: readonly ToolDefinition[],
  name: string,
  rawArgs: unknown,
  scope: CallScope,
  state: ToolCallState,
): Promise<CallToolResult>;
export function callTool(
  tools: readonly ToolDefinition[],
  name: string,
  rawArgs: unknown,
  scope: CallScope,
  state: ToolCallState,
  confirmation: Confirmation,
): Promise<CallToolResult | InputRequiredResult>;
export async function callTool(
  tools: readonly ToolDefinition[],
  name: string,
  rawArgs: unknown,
  scope: CallScope,
  state: ToolCallState,
  confirmation: Confirmation = NEVER_ASK,
): Promise<CallToolResult | InputRequiredResult> {
  const notices: string[] = [];
  const collecting: CallScope = { ...scope, notice: (message) => notices.push(message) };
  const resolved: { graph?: ConfiguredGraph } = {};
  const tool = tools.find((t) => t.name === name);
  // The replay of a proposal runs through this same path, in the running chat.
  const run: RunCall = (again, args, own, confirm) =>
    callTool(tools, again, args, own, state, confirm ?? NEVER_ASK);
  try {
    const callable = callableTool(tool, name, state);
    const args = parseArguments(callable, rawArgs);
    const value = await runHandler(callable, args, collecting, state, resolved, confirmation);
    if (value instanceof ApprovedWrite) return await runApproved(value, scope, run);
    return success(callable, value, notices);
  } catch (error) {
    // The gate held the write: its outcome is the answer.
    if (error instanceof Halted && tool)
      return heldResult(error.held, tool, rawArgs, state.services.proposals, run);
    const toolError = toToolError(tool ? namedForTool(error, tool) : error, resolved.graph);
    log('info', `${name}: ${toolError.code}`);
    return {
      isError: true,
      content: [{ type: 'text', text: errorText(toolError) }, ...noticeContent(notices)],
    };
  }
}

/** A session tool (graph management, the undo): a write of it holds every graph's lock. */
async function runSessionTool(
  tool: Extract<ToolDefinition, { scope: 'session' }>,
  args: Record<string, unknown>,
  scope: CallScope,
  { gateway, services }: ToolCallState,
  confirmation: Confirmation,
): Promise<unknown> {
  const { consent } = services;
  const gated: GatedCall = { tool: tool.name, args };
  const ctx = { ...scope, ...services, gateway };
  const { takes } = tool;
  if (!takes || takes.nothing !== undefined || args.dryRun === true) return tool.handler(args, ctx);
  // It may write to any graph (an undo): it holds every graph's lock, in one order.
  const graphs = gateway.session.list();
  const judged = graphs.some((g) => (g.confirm ?? confirmation.policy) !== 'never');
  const refusing = graphs.filter((g) => g.whenNobodyCanAsk === 'refuse').map((g) => graphId(g));
  if (refusing.length) gated.refusesUnasked = (ids) => refusing.some((id) => ids.includes(id));
  gated.policyOf = (id) => graphs.find((g) => graphId(g) === id)?.confirm;
  return consent.holding(
    graphs.map((g) => graphId(g)),
    async () => {
      const reservation = judged
        ? goAhead(await consent.beforeWrite(gated, confirmation, () => takes.read(args, ctx)))
        : undefined;
      try {
        return await tool.handler(args, ctx);
      } finally {
        await reservation?.settle();
      }
    },
  );
}

async function runHandler(
  tool: ToolDefinition,
  args: Record<string, unknown>,
  scope: CallScope,
  state: ToolCallState,
  resolved: { graph?: ConfiguredGraph },
  confirmation: Confirmation,
): Promise<unknown> {
  const { gateway, services } = state;
  const { consent } = services;
  const gated: GatedCall = { tool: tool.name, args };
  if (tool.scope === 'session') return runSessionTool(tool, args, scope, state, confirmation);
  const { graph: ref, ...toolArgs } = args as Record<string, unknown> & { graph?: string };
  return gateway.session.withGraph(ref, async (graph) => {
    resolved.graph = graph;
    const ctx = graphContext(state, graph, scope, tool);
    const onGraph: GatedCall = {
      ...gated,
      // An approval runs on this graph, whatever the chat selects meanwhile.
      args: { ...args, graph: graph.nickname },
      graph: { id: graphId(graph), nickname: graph.nickname },
      ...(graph.whenNobodyCanAsk === 'refuse' ? { refusesUnasked: () => true } : {}),
      ...(graph.confirm ? { policyOf: () => graph.confirm } : {}),
    };
    const dryRun = toolArgs.dryRun === true;
    // Asked before every write (`"confirm": "every-write"`): even a write that takes nothing away.
    const everyWrite = !!tool.writes && (graph.confirm ?? confirmation.policy) === 'every-write';
    const reservations: Reservation[] = [];
    if (tool.editTargets === 'planned') {
      // Its edits are known once it has read the graph: it checks them itself (planned-edits.ts),
      // and the consent gate judges what its plan takes away.
      await enforceAccess({ ...tool, writes: 'append' }, toolArgs, graph, ctx, gateway.session);
      ctx.allowEdits = async (edits) => {
        await enforcePlannedEdits(tool.name, edits, graph, ctx, gateway.session);
        const { takes } = edits;
        if ((takes || everyWrite) && !dryRun)
          reservations.push(
            goAhead(
              await consent.beforeWrite(onGraph, confirmation, () => Promise.resolve(takes ?? NOTHING_TAKEN)),
            ),
          );
      };
    } else await enforceAccess(tool, toolArgs, graph, ctx, gateway.session);
    beforeWrite(tool, gateway, graph);
    const run = async () => {
      const { takes } = tool;
      const planned = tool.editTargets === 'planned';
      if ((takes || (everyWrite && !planned)) && !dryRun)
        reservations.push(
          goAhead(
            await consent.beforeWrite(onGraph, confirmation, () =>
              takes ? takes.read(toolArgs, ctx) : Promise.resolve(NOTHING_TAKEN),
            ),
          ),
        );
      // Every write is journaled so it can be undone (docs/undo.md).
      const record = tool.writes ? journalRecord(tool, graph, toolArgs, state.services) : undefined;
      if (record) ctx.call = record.wrap(ctx.call);
      try {
        const value = await tool.handler(toolArgs, ctx);
        await record?.finish();
        return value;
      } catch (error) {
        await record?.finish(error);
        throw error;
      } finally {
        for (const reservation of reservations) await reservation.settle();
        afterWrite(tool, graph, state.services);
      }
    };
    // Every agent write holds the graph's lock for its plan's last read and the write, so no
    // other agent write (a move or a create under what goes) lands between them.
    return tool.writes && !dryRun ? consent.holding([graphId(graph)], run) : run();
  });
}

/** What a write needs before it runs: a graph ticket (select_graph seen this session). */
function beforeWrite(tool: ToolDefinition, gateway: GraphGateway, graph: ConfiguredGraph): void {
  if (!tool.writes || gateway.session.hasTicket(graph)) return;
  throw new ToolError(
    'GRAPH_TICKET_REQUIRED',
    `Before changing graph '${graph.nickname}', call select_graph with graph '${graph.nickname}' to read its agent guidelines, then retry. Nothing was changed.`,
    { graph: graph.nickname, suggested_next_tool: 'select_graph' },
  );
}

/**
 * What follows a write, even a failed one (it may have landed): the link index is invalidated, as
 * a write may not move its fingerprint (docs/navigation.md "Freshness").
 */
function afterWrite(tool: ToolDefinition, graph: ConfiguredGraph, { linkIndexes }: ServerServices): void {
  if (tool.writes) linkIndexes.invalidate(graph.name, graph.type);
}

function journalRecord(
  tool: ToolDefinition,
  graph: ConfiguredGraph,
  args: Record<string, unknown>,
  { journal }: ServerServices,
): ToolRecord {
  const where = tool.journalWhere?.(args);
  return new ToolRecord({
    journal,
    chat: currentChat(),
    graph: { name: graph.name, type: graph.type, nickname: graph.nickname },
    tool: tool.name,
    hints: where ? { where } : hintsFrom(args),
    isWrite: (action) => isGraphWrite(tool, action),
  });
}

/** The context a graph tool or a resource read gets: Local API calls bound to `graph`, the services. */
export function graphContext(
  { gateway, services }: Pick<ToolCallState, 'gateway' | 'services'>,
  graph: ConfiguredGraph,
  scope: CallScope,
  tool?: ToolDefinition,
): ToolContext {
  return {
    ...services,
    ...(tool ? { tool } : {}),
    graph: { name: graph.name, nickname: graph.nickname, type: graph.type },
    call: <T>(action: string, actionArgs: unknown[] = []) =>
      gateway.callGraph(graph, action, actionArgs, scope) as Promise<T>,
    callRows: async (action, actionArgs, onRow) => {
      await gateway.callGraph(graph, action, actionArgs, scope, onRow);
    },
    signal: scope.signal,
    progress: scope.progress,
    notice: scope.notice,
  };
}

// Zod schemas are built once per tool, not on every call.
const parsers = new WeakMap<ToolDefinition, { schema: z.ZodObject; accepted: string[] }>();

function parserFor(tool: ToolDefinition) {
  let parser = parsers.get(tool);
  if (!parser) {
    const shape = inputShape(tool);
    parser = { schema: z.object(shape).strict(), accepted: Object.keys(shape) };
    parsers.set(tool, parser);
  }
  return parser;
}

function parseArguments(tool: ToolDefinition, rawArgs: unknown): Record<string, unknown> {
  const { schema, accepted } = parserFor(tool);
  const parsed = schema.safeParse(rawArgs ?? {});
  if (parsed.success) return parsed.data as Record<string, unknown>;
  const problems = parsed.error.issues.map((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return `unknown argument ${issue.keys.map((k) => `\`${k}\``).join(', ')} (accepted: ${accepted.join(', ') || 'none'})`;
    }
    const field = issue.path.map(String).join('.') || '(arguments)';
    return `\`${field}\`: ${issue.message}`;
  });
  const first = parsed.error.issues[0];
  const field =
    first?.code === 'unrecognized_keys' ? first.keys[0] : first?.path.map(String).join('.') || undefined;
  throw new ToolError('INVALID_PARAMS', `Invalid arguments for ${tool.name}: ${problems.join('; ')}.`, {
    ...(field ? { field } : {}),
  });
}

function success(tool: ToolDefinition, value: unknown, notices: string[]): CallToolResult {
  if (value instanceof WithResultMeta) return { ...success(tool, value.value, notices), _meta: value.meta };
  if (value instanceof ToolContent) return { content: [...value.content, ...noticeContent(notices)] };
  if (typeof value === 'string')
    return { content: [{ type: 'text', text: value }, ...noticeContent(notices)] };
  const text = JSON.stringify(value);
  const result: CallToolResult = { content: [{ type: 'text', text }, ...noticeContent(notices)] };
  if (tool.outputSchema) result.structuredContent = withNotes(value as Record<string, unknown>, notices);
  return result;
}

/** The notes a text client reads as extra items, for a client that reads only structuredContent. */
function withNotes(body: Record<string, unknown>, notices: string[]): Record<string, unknown> {
  return notices.length > 0 ? { ...body, notes: notices } : body;
}

function noticeContent(notices: string[]): Array<{ type: 'text'; text: string }> {
  return notices.map((text) => ({ type: 'text', text: `Note: ${text}` }));
}

/** Heartbeat for long waits (graph loading, the user answering a token request in Roam). */
const PROGRESS_HEARTBEAT_MS = 5000;

/**
 * The call's scope from the request: progress notifications (only when the client sent a
 * progressToken) with a heartbeat while waiting; `stop` ends the heartbeat.
 */
export function requestScope(
  signal: AbortSignal,
  progressToken: string | number | undefined,
  send: (params: { progressToken: string | number; progress: number; message: string }) => Promise<void>,
): { scope: CallScope; stop(): void } {
  let step = 0;
  const progress = (message: string) => {
    if (progressToken === undefined) return;
    step += 1;
    void send({ progressToken, progress: step, message }).catch(() => {});
  };
  const heartbeat =
    progressToken === undefined
      ? undefined
      : setInterval(() => progress('Still waiting for Roam Desktop to answer.'), PROGRESS_HEARTBEAT_MS);
  heartbeat?.unref();
  return {
    scope: { signal, progress, notice: () => {} },
    stop: () => {
      if (heartbeat) clearInterval(heartbeat);
    },
  };
}
