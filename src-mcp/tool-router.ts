/**
 * The one function that routes a tools/call: validates arguments against the tool's schema,
 * resolves the graph (docs/mcp.md), enforces read-only mode and graph tickets for writes, runs the
 * handler, and shapes the result (text, plus structuredContent when an outputSchema exists) or
 * the `{error: {code, message, ...recovery}}` result.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { log } from './log.ts';
import type { CallScope } from './call-scope.ts';
import { invalidateLinkIndex } from './navigation/index.ts';
import type { ServerRuntime } from './server-runtime.ts';
import { ToolError, type ToolDefinition } from './tool-definition.ts';
import { toToolError } from './tool-errors.ts';
import type { ServerToolContext } from './tools/define-tool.ts';

/** The optional `graph` argument every graph tool accepts. */
export const graphArgument = z
  .string()
  .min(1)
  .optional()
  .describe('Graph nickname (default: the selected one); becomes the selection');

export function inputShape(tool: ToolDefinition): z.ZodRawShape {
  return tool.scope === 'graph' ? { ...tool.inputSchema, graph: graphArgument } : tool.inputSchema;
}

/**
 * JSON Schema for tools/list, kept compact because every chat pays for it in context: no
 * `$schema` line, no ±2^53 bounds zod writes for every integer, and no `additionalProperties:
 * false` in output schemas (they describe what we send; nothing validates extra fields away).
 */
export function toJsonSchema(shape: z.ZodRawShape, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _drop, ...schema } = z.toJSONSchema(z.object(shape), {
    io,
    unrepresentable: 'any',
  }) as Record<string, unknown>;
  return compactSchema(schema, io) as Record<string, unknown>;
}

function compactSchema(node: unknown, io: 'input' | 'output'): unknown {
  if (Array.isArray(node)) return node.map((item) => compactSchema(item, io));
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if ((key === 'minimum' || key === 'maximum') && Math.abs(value as number) === Number.MAX_SAFE_INTEGER)
      continue;
    if (key === 'additionalProperties' && value === false && io === 'output') continue;
    out[key] = compactSchema(value, io);
  }
  return out;
}

export interface RouteOptions {
  runtime: ServerRuntime;
  readOnly: boolean;
}

/** Runs one tool call; never throws (every failure is an isError result). */
export async function routeToolCall(
  tool: ToolDefinition | undefined,
  name: string,
  rawArgs: unknown,
  scope: CallScope,
  options: RouteOptions,
): Promise<CallToolResult> {
  const notices: string[] = [];
  const collecting: CallScope = { ...scope, notice: (message) => notices.push(message) };
  let graph: { nickname: string } | undefined;
  try {
    if (!tool) {
      throw new ToolError(
        'UNKNOWN_TOOL',
        `There is no tool named '${name}'. Call tools/list to see the available tools.`,
      );
    }
    if (tool.writes && options.readOnly) {
      throw new ToolError(
        'READ_ONLY',
        `${name} changes the graph, but this roam-mcp runs with --read-only. Remove --read-only from the MCP client's config to allow changes.`,
      );
    }
    const args = parseArguments(tool, rawArgs);
    if (tool.scope === 'none') {
      const ctx: ServerToolContext = {
        graph: { name: '', nickname: '' },
        call: () => Promise.reject(new Error(`${name} has no graph context`)),
        signal: scope.signal,
        progress: scope.progress,
        scope: collecting,
      };
      return success(tool, await tool.handler(args, ctx), notices);
    }
    const { graph: ref, ...toolArgs } = args as Record<string, unknown> & { graph?: string };
    const resolved = options.runtime.session.resolve(ref);
    graph = resolved;
    if (tool.writes && !options.runtime.session.hasTicket(resolved)) {
      throw new ToolError(
        'GRAPH_TICKET_REQUIRED',
        `Before changing graph '${resolved.nickname}', call select_graph with graph '${resolved.nickname}' to read its agent guidelines, then retry. Nothing was changed.`,
        { graph: resolved.nickname, suggested_next_tool: 'select_graph' },
      );
    }
    const ctx: ServerToolContext = {
      graph: { name: resolved.name, nickname: resolved.nickname },
      call: <T>(action: string, actionArgs: unknown[] = []) =>
        options.runtime.callGraph(resolved, action, actionArgs, collecting) as Promise<T>,
      callRows: async (action, actionArgs, onRow) => {
        await options.runtime.callGraph(resolved, action, actionArgs, collecting, onRow);
      },
      signal: scope.signal,
      progress: scope.progress,
      scope: collecting,
    };
    try {
      const value = await tool.handler(toolArgs, ctx);
      // Only a call that succeeded moves the selection (a failed one must not redirect later writes).
      if (ref?.trim()) options.runtime.session.select(resolved);
      return success(tool, value, notices);
    } finally {
      // A write may not move the index fingerprint (docs/navigation.md "Freshness"); a failed one
      // may still have landed.
      if (tool.writes) invalidateLinkIndex(resolved.name);
    }
  } catch (error) {
    const toolError = toToolError(error, graph);
    log('info', `${name}: ${toolError.code}`);
    const text = JSON.stringify({
      error: { code: toolError.code, message: toolError.message, ...toolError.details },
    });
    return { isError: true, content: [{ type: 'text', text }, ...noticeContent(notices)] };
  }
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
  if (typeof value === 'string')
    return { content: [{ type: 'text', text: value }, ...noticeContent(notices)] };
  const text = JSON.stringify(value);
  const result: CallToolResult = { content: [{ type: 'text', text }, ...noticeContent(notices)] };
  if (tool.outputSchema) result.structuredContent = value as Record<string, unknown>;
  return result;
}

function noticeContent(notices: string[]): Array<{ type: 'text'; text: string }> {
  return notices.map((text) => ({ type: 'text', text: `Note: ${text}` }));
}
