/** Graph management (docs/mcp.md, Graphs and sessions): list_graphs, select_graph, current_graph. */
import { createHash } from 'node:crypto';
import * as z from 'zod';
import { LIMITS, paginate, truncate } from '../../contract/limits.ts';
import { listOutput } from '../../contract/list-envelope.ts';
import { ACCESS_LEVELS, type ConfiguredGraph } from '../../../src-shared/roam-config.ts';
import { graphId } from '../../../src-shared/constants.ts';
import { accessNote } from '../../access/describe.ts';
import { PERMISSIONS } from '../../access/effective.ts';
import type { GraphGateway } from '../../roam/graph-gateway.ts';
import { defineTool, type SessionContext } from '../../contract/tool-definition.ts';
import { ToolError } from '../../contract/tool-errors.ts';
import { extensionToolsField, extensionToolsOutput } from '../extensions/extension-tools.ts';
import { orientationOf } from './orientation.ts';

const permissionsSchema = z.union([z.array(z.enum(PERMISSIONS)), z.literal('unknown')]);

/** What select_graph and current_graph both say about the graph. */
export const selectedGraphOutput = {
  graph_name: z.string(),
  nickname: z.string(),
  description: z.string().optional(),
  permissions: permissionsSchema,
  access_level: z.enum(ACCESS_LEVELS).optional(),
  permissions_note: z.string().optional(),
};

/** Orientation fields of select_graph's result (./orientation.ts). */
export const orientationOutput = {
  starred_pages: z.array(z.string()),
  todays_daily_note: z.string().nullable(),
  user_name: z.string().optional(),
  ai_user_name: z.string().optional(),
  next_steps: z.string(),
  roam_syntax: z.string(),
};

/** `data.ai.getGraphGuidelines` answers `{guidelines, ...}` (current Roam), a markdown string or null (older). */
/** What orient answers: select_graph's and get_graph_guidelines' result. */
export const orientOutput = {
  ...selectedGraphOutput,
  guidelines: z.string().nullable(),
  guidelines_hash: z.string().nullable(),
  ...extensionToolsOutput,
  ...orientationOutput,
};

export function guidelinesText(result: unknown): string | null {
  if (typeof result === 'string') return result;
  if (result && typeof result === 'object') {
    const inner = (result as { guidelines?: unknown }).guidelines;
    if (typeof inner === 'string') return inner;
  }
  return null;
}

export function guidelinesHash(text: string | null): string | null {
  return text === null ? null : `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;
}

/** The effective access (src-mcp/access/): the narrowest of chosen level, token and --read-only. */
function describeGraph(gateway: GraphGateway, graph: ConfiguredGraph) {
  const access = gateway.session.access(graph);
  const note = accessNote(access);
  return {
    graph_name: graph.name,
    nickname: graph.nickname,
    ...(graph.description !== undefined ? { description: graph.description } : {}),
    permissions: access.permissions,
    ...(access.level ? { access_level: access.level } : {}),
    ...(note ? { permissions_note: note } : {}),
  };
}

/** select_graph's work: the guidelines, the token's access level, the ticket for writes. */
export async function orient(scope: SessionContext, graph: ConfiguredGraph) {
  const { gateway } = scope;
  const session = gateway.session;
  let result: unknown;
  try {
    result = await gateway.callGraph(graph, 'data.ai.getGraphGuidelines', [], scope);
  } catch (error) {
    // A rejected token was dropped: the retry asks Roam for a new one (token exchange).
    if (!(error instanceof ToolError && error.code === 'AUTH_FAILED')) throw error;
    result = await gateway.callGraph(graph, 'data.ai.getGraphGuidelines', [], scope);
  }
  scope.aiUsers.remember(graph, result);
  // The token's grant narrows what is reported (and what Roam allows): ask Roam when unknown.
  if (session.grantedLevel(graph) === undefined && graph.token) {
    const info = await gateway.connection.client
      .tokenInfo({ name: graph.name, type: graph.type, token: graph.token }, scope)
      .catch(() => ({ status: 'unknown' as const }));
    if (info.status === 'valid' && info.accessLevel) session.setToken(graph, graph.token, info.accessLevel);
  }
  const text = guidelinesText(result);
  session.grantTicket(graph);
  return {
    ...describeGraph(gateway, graph),
    guidelines: text === null ? null : truncate(text, LIMITS.primary),
    guidelines_hash: guidelinesHash(text),
    ...extensionToolsField(result),
    ...orientationOf(result, graph.nickname),
  };
}

export const graphTools = [
  defineTool({
    name: 'list_graphs',
    title: 'List Roam graphs',
    description: 'Lists the Roam graphs you can use (nickname, name, description) and which one is selected.',
    toolset: 'core',
    feature: 'the graph list',
    actions: [],
    scope: 'session',
    annotations: { idempotentHint: true, openWorldHint: false },
    inputSchema: {
      offset: z.number().int().min(0).default(0),
      limit: z.number().int().min(1).max(100).default(50),
    },
    outputSchema: {
      ...listOutput(
        z.object({
          nickname: z.string(),
          name: z.string(),
          description: z.string().optional(),
          selected: z.boolean(),
          permissions: permissionsSchema,
        }),
      ),
      not_in_roam: z.array(z.object({ nickname: z.string(), name: z.string() })).optional(),
      not_in_roam_note: z.string().optional(),
    },
    async handler(args, { gateway, signal }) {
      const session = gateway.session;
      session.assertConfigured();
      const missing = await gateway.notInRoam.among(gateway.connection.client, session.list(), signal);
      // After the wait: the tray may have sent a new graph list meanwhile (new objects, same graphs).
      const current = session.current();
      const all = session
        .list()
        .filter((g) => !missing.some((m) => graphId(m) === graphId(g)))
        .map((g) => ({
          nickname: g.nickname,
          name: g.name,
          ...(g.description !== undefined ? { description: g.description } : {}),
          selected: g === current,
          permissions: session.permissions(g),
        }));
      if (missing.length === 0) return paginate(all, args.offset, args.limit);
      return {
        ...paginate(all, args.offset, args.limit),
        not_in_roam: missing.map((g) => ({ nickname: g.nickname, name: g.name })),
        not_in_roam_note:
          'Configured, but Roam Desktop does not list these graphs (a wrong name, or a graph deleted or not shared with this account): do not use them; the user corrects them in their configuration.',
      };
    },
  }),
  defineTool({
    name: 'select_graph',
    title: 'Select a Roam graph',
    description:
      'Selects the graph for this session and returns its agent guidelines; read and follow them. Required before the first write to a graph.',
    toolset: 'core',
    feature: 'graph guidelines',
    actions: ['data.ai.getGraphGuidelines'],
    scope: 'session',
    givesTickets: true,
    annotations: { idempotentHint: true, openWorldHint: false },
    inputSchema: { graph: z.string().min(1).describe('Nickname or name from list_graphs') },
    outputSchema: orientOutput,
    handler: (args, scope) => scope.gateway.session.withGraph(args.graph, (graph) => orient(scope, graph)),
  }),
  defineTool({
    name: 'current_graph',
    title: 'Current Roam graph',
    description:
      'Shows the graph this session uses (selected, or the only one configured) and its permissions.',
    toolset: 'core',
    feature: 'the current graph',
    actions: [],
    scope: 'session',
    annotations: { idempotentHint: true, openWorldHint: false },
    inputSchema: {},
    outputSchema: {
      ...selectedGraphOutput,
      guidelines_seen: z.boolean(),
    },
    async handler(_args, { gateway }) {
      const session = gateway.session;
      session.assertConfigured();
      const graph = session.current() ?? session.resolve(undefined);
      return { ...describeGraph(gateway, graph), guidelines_seen: session.hasTicket(graph) };
    },
  }),
];
