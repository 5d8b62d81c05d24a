/**
 * What happens on `tools/call`, in order, all in this file:
 *
 * 1. lookup by name in the catalogue (src-mcp/tool-catalogue.ts);
 * 2. refusal (`refusal`, also what hides a tool from tools/list): outside the selected toolsets
 *    (TOOLSET_NOT_ENABLED; an invalid selection answers CONFIG_INVALID), --read-only mode (READ_ONLY),
 *    every token read-only (INSUFFICIENT_SCOPE), Local API action not offered (UNKNOWN_TOOL);
 * 3. argument parsing against the declared schema (INVALID_PARAMS names the field);
 * 4. graph tools: graph resolution (explicit `graph`, selection, the only graph), then a graph
 *    ticket for writes (GRAPH_TICKET_REQUIRED: select_graph first);
 * 5. the handler, with a context built once (`graphContext` / session context);
 * 6. on success an explicit `graph` becomes the selection (a failed call never redirects later
 *    writes); after a write (even a failed one, it may have landed) the link index is invalidated;
 * 7. the result: a string as text; a ToolContent (src-mcp/tool-content.ts) as its MCP content;
 *    a JSON value as text, plus structuredContent when the tool has
 *    an outputSchema; notes (token granted, ...) as extra text items; any failure as the
 *    `{error: {code, message, ...recovery}}` isError result (src-mcp/tool-errors.ts), as text only:
 *    the v1 SDK client checks any structuredContent against the outputSchema, errors included.
 *    A success stands on its own in either form (docs/mcp.md, "Using the 2026-07-28 revision"):
 *    notes are extra text items and, in structuredContent, its `notes` field.
 *
 * Declaring a tool: src-mcp/tool-definition.ts. Nothing here changes when a tool is added.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import * as z from 'zod';
import type { ConfiguredGraph } from '../src-shared/roam-config.ts';
import type { CallScope } from './call-scope.ts';
import { hintsFrom, ToolRecord } from './changes/record.ts';
import { log } from './log.ts';
import { invalidateLinkIndex } from './navigation/index-cache.ts';
import type { ServerRuntime } from './server-runtime.ts';
import { ToolContent } from './tool-content.ts';
import { inputShape, type ToolContext, type ToolDefinition } from './tool-definition.ts';
import { errorText, ToolError, toToolError } from './tool-errors.ts';
import { toolsetOf, type ToolsetName } from '../src-shared/toolsets.ts';

/** What decides visibility and refusals for this connection. */
export interface ToolCallState {
  runtime: ServerRuntime;
  /** roam-mcp runs with --read-only. */
  readOnly: boolean;
  /** The selected toolsets (src-shared/toolsets.ts): tools outside them are hidden and refused. */
  toolsets: readonly ToolsetName[];
  /** Why the toolset selection (--tools, ROAM_MCP_TOOLS) is invalid: every call answers it. */
  toolsetsProblem?: string;
}

/**
 * Why `tool` cannot be called now, or undefined. The one place read-only mode, read-only tokens
 * and capabilities are decided: tools/list shows exactly the tools this lets through.
 */
export function refusal(tool: ToolDefinition, state: ToolCallState): ToolError | undefined {
  const set = toolsetOf(tool.name);
  // A tool no set lists stays offered: a missed assignment must not hide it (the test catches it).
  if (set && !state.toolsets.includes(set)) return notInToolsets(tool.name, set, state.toolsets);
  if (tool.writes && state.readOnly) {
    return new ToolError(
      'READ_ONLY',
      `${tool.name} changes the graph, but this roam-mcp runs with --read-only. Remove --read-only from the MCP client's config to allow changes.`,
    );
  }
  if (tool.writes && !state.runtime.session.anyGraphMayWrite()) {
    return new ToolError(
      'INSUFFICIENT_SCOPE',
      `${tool.name} changes the graph, but every configured graph has a read-only token. Get a token with more access ('roam-mcp connect', or Roam: Settings > Graph > Local API Tokens), then restart the MCP client.`,
    );
  }
  if (tool.requiresAction && !state.runtime.offers(tool.requiresAction)) return unknownTool(tool.name);
  return undefined;
}

function notInToolsets(name: string, set: ToolsetName, selected: readonly ToolsetName[]): ToolError {
  return new ToolError(
    'TOOLSET_NOT_ENABLED',
    `${name} is in the '${set}' toolset, which this roam-mcp does not offer (it offers: ${selected.join(', ')}). To enable it, add ${set} to --tools in the MCP client's config (e.g. --tools ${[...selected, set].join(',')}), or to ROAM_MCP_TOOLS, or choose it for this client in Roam Companion > AI clients; then restart the MCP client.`,
    { toolset: set },
  );
}

function unknownTool(name: string): ToolError {
  return new ToolError(
    'UNKNOWN_TOOL',
    `There is no tool named '${name}'. Call tools/list to see the available tools.`,
  );
}

/** Runs one tools/call; never throws (every failure is an isError result). */
export async function callTool(
  tools: readonly ToolDefinition[],
  name: string,
  rawArgs: unknown,
  scope: CallScope,
  state: ToolCallState,
): Promise<CallToolResult> {
  const notices: string[] = [];
  const collecting: CallScope = { ...scope, notice: (message) => notices.push(message) };
  const resolved: { graph?: ConfiguredGraph } = {};
  try {
    if (state.toolsetsProblem) throw new ToolError('CONFIG_INVALID', state.toolsetsProblem);
    const tool = tools.find((t) => t.name === name);
    if (!tool) throw unknownTool(name);
    const refused = refusal(tool, state);
    if (refused) throw refused;
    const args = parseArguments(tool, rawArgs);
    const value = await runHandler(tool, args, collecting, state.runtime, resolved);
    return success(tool, value, notices);
  } catch (error) {
    const toolError = toToolError(error, resolved.graph);
    log('info', `${name}: ${toolError.code}`);
    return {
      isError: true,
      content: [{ type: 'text', text: errorText(toolError) }, ...noticeContent(notices)],
    };
  }
}

async function runHandler(
  tool: ToolDefinition,
  args: Record<string, unknown>,
  scope: CallScope,
  runtime: ServerRuntime,
  resolved: { graph?: ConfiguredGraph },
): Promise<unknown> {
  if (tool.scope === 'session') return tool.handler(args, { ...scope, runtime });
  const { graph: ref, ...toolArgs } = args as Record<string, unknown> & { graph?: string };
  const graph = runtime.session.resolve(ref);
  resolved.graph = graph;
  if (tool.writes && !runtime.session.hasTicket(graph)) {
    throw new ToolError(
      'GRAPH_TICKET_REQUIRED',
      `Before changing graph '${graph.nickname}', call select_graph with graph '${graph.nickname}' to read its agent guidelines, then retry. Nothing was changed.`,
      { graph: graph.nickname, suggested_next_tool: 'select_graph' },
    );
  }
  const ctx = graphContext(runtime, graph, scope);
  // Every write is journaled so it can be undone (docs/undo.md).
  const record = tool.writes ? journalRecord(tool.name, graph, toolArgs) : undefined;
  if (record) ctx.call = record.wrap(ctx.call);
  try {
    const value = await tool.handler(toolArgs, ctx);
    await record?.finish();
    // Only a call that succeeded moves the selection (a failed one must not redirect later writes).
    if (ref?.trim()) runtime.session.select(graph);
    return value;
  } catch (error) {
    await record?.finish(error);
    throw error;
  } finally {
    // A write may not move the index fingerprint (docs/navigation.md "Freshness"); a failed one
    // may still have landed.
    if (tool.writes) invalidateLinkIndex(graph.name);
  }
}

function journalRecord(name: string, graph: ConfiguredGraph, args: Record<string, unknown>): ToolRecord {
  return new ToolRecord({
    graph: { name: graph.name, type: graph.type },
    tool: name,
    hints: hintsFrom(name, args),
  });
}

/** The context a graph tool or a resource read gets: Local API calls bound to `graph`. */
export function graphContext(runtime: ServerRuntime, graph: ConfiguredGraph, scope: CallScope): ToolContext {
  return {
    graph: { name: graph.name, nickname: graph.nickname },
    call: <T>(action: string, actionArgs: unknown[] = []) =>
      runtime.callGraph(graph, action, actionArgs, scope) as Promise<T>,
    callRows: async (action, actionArgs, onRow) => {
      await runtime.callGraph(graph, action, actionArgs, scope, onRow);
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
