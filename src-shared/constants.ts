/**
 * The plain values every process shares. Imports nothing, so the renderer can use them without
 * shipping zod; the zod schemas in roam-config.ts and ipc-contract.ts are built from these.
 */

export const GRAPH_TYPES = ['hosted', 'offline'] as const;
export type GraphType = (typeof GRAPH_TYPES)[number];

/**
 * The access levels a user chooses for a graph, narrowest first. `read-edit-own` (the official
 * server's name) is ours to enforce: Roam grants no such token, so roam-mcp asks Roam for `full`
 * and allows update, move and delete only on what an agent created (docs/mcp.md, Access levels).
 */
export const ACCESS_LEVELS = ['read-only', 'read-append', 'read-edit-own', 'full'] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

/** The levels Roam grants a Local API token (its token requests accept only these). */
export const TOKEN_ACCESS_LEVELS = ['read-only', 'read-append', 'full'] as const;
export type TokenAccessLevel = (typeof TOKEN_ACCESS_LEVELS)[number];

/**
 * What a graph does with a write that takes much away when nobody can be asked (a client with
 * neither elicitation nor MCP Apps, and no tray showing it): `proceed` (the default: the undo is
 * there) or `refuse`. docs/mcp.md, "Consent before a write takes much away".
 */
export const WHEN_NOBODY_CAN_ASK = ['proceed', 'refuse'] as const;
export type WhenNobodyCanAsk = (typeof WHEN_NOBODY_CAN_ASK)[number];

/** What a graph that names no type is: a config entry as written, a journal record of old. */
export const DEFAULT_GRAPH_TYPE: GraphType = 'hosted';

/**
 * A graph's identity: Roam issues tokens per (name, type), so `hosted:x` and `offline:x` differ.
 * Compare graphs by it, never by name and type apart: it applies the default type.
 */
export function graphId(graph: { name: string; type?: GraphType | undefined }): string {
  return `${graph.type ?? DEFAULT_GRAPH_TYPE}:${graph.name}`;
}

type GraphIdentity = Parameters<typeof graphId>[0];

/** Whether two graphs are the same graph (graphId's rule). */
export function sameGraph(a: GraphIdentity, b: GraphIdentity): boolean {
  return graphId(a) === graphId(b);
}

/**
 * Where the HTTP server (`roam-mcp serve --http`, the tray's) listens unless told otherwise: fixed,
 * so a client's config written before the server starts still finds it.
 */
export const HTTP_DEFAULT_PORT = 39017;

/** Renderer → main request channels; ipc-contract.ts gives each its input schema and result type. */
export const requestChannels = [
  'graphs:list',
  'graphs:available',
  'graphs:add',
  'graphs:update',
  'graphs:remove',
  'graphs:check-nickname',
  'tokens:request',
  'tokens:cancel',
  'tokens:requests',
  'tokens:dismiss',
  'blocked:list',
  'blocked:retry',
  'clients:list',
  'clients:preview',
  'clients:install',
  'clients:uninstall',
  'clients:set-toolsets',
  'clients:copy-command',
  'status:get',
  'roam:open',
  'http:retry',
  'settings:get',
  'settings:set',
  'import:check',
  'import:run',
  'import:dismiss',
  'activity:list',
  'activity:undo',
  'keys:list',
  'keys:revoke',
  'diagnostics:copy',
  'proposals:list',
  'proposals:answer',
  'remote:get',
  'remote:turn-on',
  'remote:turn-off',
  'remote:approve',
  'remote:deny',
  'remote:revoke',
] as const;
export type RequestChannel = (typeof requestChannels)[number];

/** Main → renderer event channels; ipc-contract.ts gives each its payload type. */
export const eventChannels = [
  'graphs:changed',
  'tokens:request-changed',
  'tokens:request-removed',
  'blocked:changed',
  'clients:changed',
  'status:changed',
  'app:navigate',
  'activity:changed',
  'activity:show',
  'proposals:changed',
  'proposals:show',
  'remote:changed',
] as const;
export type EventChannel = (typeof eventChannels)[number];
