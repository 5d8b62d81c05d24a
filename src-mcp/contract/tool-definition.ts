/**
 * The tool declaration contract (what a tool file writes; src-mcp/server/tool-call.ts runs it, the
 * catalogue src-mcp/server/tool-catalogue.ts lists it). One form for every tool:
 *
 *   defineTool({ name, title, description, toolset, feature, actions, scope, inputSchema, handler, ... })
 *
 * in its toolset's folder, src-mcp/tools/<toolset>/. Everything else about a tool is derived from
 * this one declaration: its toolset membership, whether it is listed (refusal in tool-call.ts),
 * the capability probe, the readOnlyHint, and the errors that name its feature and the Roam
 * Desktop build it needs.
 */
import * as z from 'zod';
import { scopeOfAction } from '../../src-shared/local-api/index.ts';
import type { ToolsetName } from '../../src-shared/toolsets.ts';
import type { CallScope } from './call-scope.ts';
import type { TakenAway } from './taken-away.ts';
import type { ToolName } from './tool-names.ts';

/**
 * A Roam Local API action a tool calls: its name, or its name with what Roam Desktop must have
 * to offer it when not every current build does (UNKNOWN_ACTION errors say so).
 */
export type RoamAction =
  | string
  | {
      action: string;
      /** e.g. 'a Roam Desktop build of 2026-07-08 or later (Local API 1.1.3)'. */
      needs?: string;
      /**
       * Listed only once the Local API is known to offer it: the server probes the action and
       * sends `notifications/tools/list_changed` when it appears.
       */
      probe?: true;
      /**
       * A read-scope action that can still change graph data (it runs extension code): journaled
       * like a write. Every other action is a write when its scope is (src-shared/local-api).
       */
      mayWrite?: true;
    };

/** MCP tool annotations. `readOnlyHint` is derived (see `readOnlyHint` below), never declared. */
export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/**
 * What a graph tool's handler may do: talk to the Local API for the graph the call resolved to.
 * It is also the call's scope (cancellation, progress, notes appended to the result).
 */
export interface ToolContext extends CallScope, ServerServices {
  /** The graph this call resolved to (docs/mcp.md, Graphs and sessions). Never carries the token. */
  graph: { name: string; nickname: string; type?: string };
  /** One Local API round trip (`POST /api/{graph}` with `{action, args}`), returns `result`. */
  call<T = unknown>(action: string, args?: unknown[]): Promise<T>;
  /**
   * Like `call` for a row-shaped result (`data.q`): each row goes to `onRow` as it arrives and is
   * never held whole (the array may be reused after the callback). Optional: without it the
   * navigation index reads the rows through `call`.
   */
  callRows?(action: string, args: unknown[], onRow: (row: readonly unknown[]) => void): Promise<void>;
  /** The declaration being run (its feature names errors); absent when a resource is read. */
  tool?: ToolDefinition;
  /**
   * Only for a tool with `editTargets: 'planned'`: throws ACCESS_LEVEL (nothing changed) when the
   * graph's access level does not allow these edits; the handler calls it before its first write.
   */
  allowEdits?(edits: PlannedEdits): Promise<void>;
}

/** What a planning tool would edit, move or delete (blocks, with `subtree` when all under them goes too). */
export interface PlannedEdits {
  targets: WriteTarget[];
  /** In a refusal, e.g. "edit 2, move 1 and delete 3 existing blocks". */
  summary: string;
  /** What the plan takes away, for the consent gate (src-mcp/gate/consent.ts). */
  takes?: TakenAway;
}

/**
 * What an edit changes, for `read-edit-own` (docs/mcp.md, Access levels): a block or page whose
 * creator decides whether an agent may change it, or a file.
 */
export interface WriteTarget {
  /** A block or page uid; for a file, its URL. */
  id: string;
  kind: 'node' | 'file';
  /** The change takes everything under the target with it (deletes, moves). */
  subtree?: boolean;
}

/**
 * What the server lends every handler, graph or session tool, given in where the server is built
 * (src-mcp/process/run-server.ts). Empty here, so the contract names no room above it: each room
 * that makes a part adds it by declaration merging.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface ServerServices {}

/**
 * What the connection lends a session tool besides: the room that makes it adds its part by
 * declaration merging (roam/graph-gateway.ts: `gateway`).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface SessionServices extends ServerServices {}

/** What a session tool's handler gets (graph management): the connection's services, no graph. */
export interface SessionContext extends CallScope, SessionServices {}

interface ToolBase<Shape extends z.ZodRawShape> {
  /** snake_case, unique in the catalogue, one of TOOL_NAMES (tool-names.ts). */
  name: ToolName;
  /** Also the `title` annotation. */
  title: string;
  /** Short and exact: tools/list must stay compact. */
  description: string;
  /** The one toolset that offers it (src-shared/toolsets.ts); its folder is src-mcp/tools/<toolset>/. */
  toolset: ToolsetName;
  /**
   * What it does for the user, in the words its errors use ("page reads", "comments"): lower
   * case unless a name.
   */
  feature: string;
  /** Every Local API action the handler (or a helper it uses) calls. */
  actions: readonly RoamAction[];
  /** Arguments; graph tools also accept the optional `graph` (added by `inputShape`). */
  inputSchema: Shape;
  /** When present, results carry `structuredContent` with these fields and the same JSON as text. */
  outputSchema?: z.ZodRawShape;
  /** Listed as the tool's `_meta` (e.g. `ui.resourceUri`: the MCP App a host shows with its result). */
  _meta?: Record<string, unknown>;
  /** The hints other than `readOnlyHint`, which follows from `writes` / `effects`. */
  annotations?: Omit<ToolAnnotations, 'readOnlyHint'>;
  /**
   * Changes graph data (the one answer to "is this a write"): hidden and refused in --read-only
   * mode and when every token is read-only, and needs a graph ticket (select_graph seen this
   * session). The graph's link index is invalidated after the call.
   */
  writes?: 'append' | 'edit';
  /**
   * `ui`: changes what the user sees in Roam Desktop (opens a page, the sidebar) but no graph
   * data. Annotated `readOnlyHint: false`; needs no ticket and stays available in --read-only mode.
   */
  effects?: 'ui';
  /**
   * For `writes: 'edit'`: what the call changes. A delete or a move takes its subtree (`subtree:
   * true`), so everything under it must be an agent's too. An edit tool without it cannot be limited to
   * agents' content and is refused under `read-edit-own`. `planned`: what it edits is known only
   * once its handler has read the graph (update_page_markdown); the check before the call then
   * counts it as adding, and the handler checks its planned edits with `ctx.allowEdits`.
   */
  editTargets?: ((args: z.infer<z.ZodObject<Shape>>) => WriteTarget[]) | 'planned';
  /**
   * Where the write puts things, in a person's words, for the change journal ("to the daily
   * note"), when the shared arguments (pageTitle, date, parentUid) do not say it.
   */
  journalWhere?(args: z.infer<z.ZodObject<Shape>>): string | undefined;
  /** Reading the graph's guidelines here gives the session its graph ticket (select_graph). */
  givesTickets?: true;
}

/** Needs a resolved graph; accepts the optional `graph` argument; becomes the selection on success. */
export interface GraphToolDefinition<Shape extends z.ZodRawShape = z.ZodRawShape> extends ToolBase<Shape> {
  scope: 'graph';
  handler(args: z.infer<z.ZodObject<Shape>>, ctx: ToolContext): Promise<unknown>;
  takes?: Takes<z.infer<z.ZodObject<Shape>>, ToolContext>;
}

/** Graph management: no graph resolved for it; gets the gateway instead. */
export interface SessionToolDefinition<Shape extends z.ZodRawShape = z.ZodRawShape> extends ToolBase<Shape> {
  scope: 'session';
  handler(args: z.infer<z.ZodObject<Shape>>, ctx: SessionContext): Promise<unknown>;
  takes?: Takes<z.infer<z.ZodObject<Shape>>, SessionContext>;
}

/**
 * What a write would take away, read before it writes (src-mcp/gate/plan-readers.ts): the consent
 * gate (src-mcp/gate/consent.ts) decides from it whether the person is asked first. The tool does
 * not ask, and never decides whether to. Every `edit` tool declares it (a `planned` one hands it
 * over with its plan instead), `takesNothing(why)` when it takes nothing away; an `append` tool
 * takes nothing by its scope.
 */
export interface Takes<Args, Ctx> {
  read(args: Args, ctx: Ctx): Promise<TakenAway>;
  /** Not done (declined, waiting): the tool's structured result with nothing done (a tool with an outputSchema). */
  nothingDone?(args: Args): Record<string, unknown>;
  /** Set (to why) on a write that takes nothing away (`takesNothing` in src-mcp/gate/plan-readers.ts). */
  nothing?: string;
}

export type ToolDefinition<Shape extends z.ZodRawShape = z.ZodRawShape> =
  GraphToolDefinition<Shape> | SessionToolDefinition<Shape>;

/**
 * Typed construction of a declaration: the handler sees its own argument types; the result is
 * the erased form the catalogue holds. A handler returns a string (sent as text), a ToolContent
 * (MCP content as it is, e.g. an image) or a JSON value (sent as text, and as structuredContent
 * when there is an outputSchema); it throws ToolError
 * (src-mcp/contract/tool-errors.ts) for failures the agent can act on.
 */
export function defineTool<Shape extends z.ZodRawShape>(
  definition: GraphToolDefinition<Shape>,
): GraphToolDefinition;
export function defineTool<Shape extends z.ZodRawShape>(
  definition: SessionToolDefinition<Shape>,
): SessionToolDefinition;
export function defineTool<Shape extends z.ZodRawShape>(
  definition: GraphToolDefinition<Shape> | SessionToolDefinition<Shape>,
): ToolDefinition {
  return definition as unknown as ToolDefinition;
}

/**
 * The optional `graph` argument every graph tool accepts. Undescribed: the server instructions
 * say once what it takes, for every tool.
 */
const graphArgument = z.string().min(1).optional();

/** The accepted arguments: the declared ones, plus `graph` for graph tools. */
export function inputShape(tool: ToolDefinition): z.ZodRawShape {
  return tool.scope === 'graph' ? { ...tool.inputSchema, graph: graphArgument } : tool.inputSchema;
}

/** A declared action in one shape. */
export function actionOf(declared: RoamAction): Exclude<RoamAction, string> {
  return typeof declared === 'string' ? { action: declared } : declared;
}

/** The actions whose offer decides whether the tool is listed (capability-based exposure). */
export function probedActions(tool: ToolDefinition): string[] {
  return tool.actions.map(actionOf).flatMap((a) => (a.probe ? [a.action] : []));
}

/**
 * Whether `action`, called by write tool `tool`, changes graph data (and so is journaled): its
 * scope is append or edit, or the declaration says it may write.
 */
export function isGraphWrite(tool: ToolDefinition, action: string): boolean {
  if (scopeOfAction(action) !== 'read') return true;
  return tool.actions.some((declared) => actionOf(declared).action === action && actionOf(declared).mayWrite);
}

/**
 * Called only by an MCP App (`_meta.ui.visibility: ["app"]`): hosts keep it from the model, and it
 * is listed only to clients that render apps.
 */
export function isAppOnly(tool: ToolDefinition): boolean {
  const visibility = (tool._meta?.ui as { visibility?: unknown } | undefined)?.visibility;
  return Array.isArray(visibility) && visibility.length === 1 && visibility[0] === 'app';
}

/** Read-only unless it writes graph data or has a visible effect in Roam Desktop. */
export function readOnlyHint(tool: ToolDefinition): boolean {
  return !tool.writes && tool.effects === undefined;
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

/**
 * A resource with one fixed URI, the same for every graph: an MCP App's HTML (`ui://`), the agent
 * skill (`skill://`). Listed to every client; `_meta` goes on the listing and on the read contents.
 */
export interface FixedResource {
  uri: string;
  name: string;
  title: string;
  description: string;
  mimeType: string;
  _meta?: Record<string, unknown>;
  text(): string;
}
