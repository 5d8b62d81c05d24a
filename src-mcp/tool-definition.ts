/**
 * Tools are data (the official Roam MCP server's style): one table of definitions, routed by one
 * function in the server. Content tools, graph management and navigation all use this shape.
 */
import type { z } from 'zod';

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** What a handler may do: talk to the Local API for the graph the call resolved to. */
export interface ToolContext {
  /** The graph this call resolved to (docs/mcp.md, Graphs and sessions). Never carries the token. */
  graph: { name: string; nickname: string };
  /** One Local API round trip (`POST /api/{graph}` with `{action, args}`), returns `result`. */
  call<T = unknown>(action: string, args?: unknown[]): Promise<T>;
  /**
   * Like `call` for a row-shaped result (`data.q`): each row goes to `onRow` as it arrives and is
   * never held whole (the array may be reused after the callback). Optional: without it the
   * navigation index reads the rows through `call`.
   */
  callRows?(action: string, args: unknown[], onRow: (row: readonly unknown[]) => void): Promise<void>;
  /** Aborted when the client cancels the request. */
  signal: AbortSignal;
  /** MCP progress notification, sent only when the client asked for progress. */
  progress(message: string): void;
}

export interface ToolDefinition<Shape extends z.ZodRawShape = z.ZodRawShape> {
  name: string;
  title: string;
  /** Short and exact: tools/list must stay compact. */
  description: string;
  inputSchema: Shape;
  /** When present, results carry `structuredContent` with these fields and the same JSON as text. */
  outputSchema?: z.ZodRawShape;
  annotations: ToolAnnotations;
  /** `graph`: needs a resolved graph (accepts the optional `graph` argument). `none`: graph management. */
  scope: 'graph' | 'none';
  /** Writes need a graph ticket (guidelines seen this session) and a token that can write. */
  writes?: 'append' | 'edit';
  /**
   * Capability-based exposure: listed only once the Local API is known to offer this action
   * (the server probes it and sends `notifications/tools/list_changed` when it appears).
   */
  requiresAction?: string;
  handler(args: z.infer<z.ZodObject<Shape>>, ctx: ToolContext): Promise<unknown>;
}

/** A failure the agent can act on: `{error: {code, message, ...recovery}}` with `isError: true`. */
export class ToolError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ToolError';
  }
}

/**
 * A resource offered per configured graph, e.g. `roam://{graph}/stats`. `graph` in the URI is
 * the nickname; the server resolves it and hands the handler a context bound to that graph.
 */
export interface ResourceDefinition {
  name: string;
  title: string;
  description: string;
  mimeType: string;
  /** RFC 6570 template, always starting with `roam://{graph}/`, e.g. `roam://{graph}/page/{title}`. */
  uriTemplate: string;
  /** Whether `resources/list` enumerates one concrete URI per graph (false for open templates). */
  listable: boolean;
  read(variables: Record<string, string>, ctx: ToolContext): Promise<string>;
}
