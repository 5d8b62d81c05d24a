/**
 * The MCP server over one transport: tools and resources from the tables, visibility rules
 * (read-only mode, no writable token, capability probes) with list_changed notifications, and
 * progress notifications for clients that ask.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { UriTemplate } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourceTemplatesRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { findGraph } from '../src-shared/roam-config.ts';
import type { GraphSession } from './graph-session.ts';
import type { CallScope } from './call-scope.ts';
import type { ServerRuntime } from './server-runtime.ts';
import { ToolError, type ResourceDefinition, type ToolDefinition } from './tool-definition.ts';
import { toToolError } from './tool-errors.ts';
import { inputShape, routeToolCall, toJsonSchema } from './tool-router.ts';

export const SERVER_INSTRUCTIONS = [
  'Roam Research graphs through Roam Desktop.',
  'Workflow: list_graphs, then select_graph to pick a graph and read its agent guidelines (follow them); with one graph it is used automatically, but writes still need select_graph first.',
  'Every graph tool takes an optional `graph` (nickname). Content comes as markdown with <roam uid="..."/> tags: use those uids for get_block, create_block {parentUid}, update_block, move_block.',
  'Lists are paginated: pass nextOffset as offset for more.',
].join('\n');

/** Heartbeat for long waits (graph loading, the user answering a token request in Roam). */
const PROGRESS_HEARTBEAT_MS = 5000;

export interface RoamMcpServerOptions {
  name: string;
  version: string;
  session: GraphSession;
  readOnly: boolean;
  /**
   * Loads the tool and resource tables (graph management tools need the runtime). Called only
   * after the handshake, so building dozens of schemas never delays the initialize answer.
   */
  catalog: () => Promise<{
    tools: (runtime: ServerRuntime) => ToolDefinition[];
    resources: ResourceDefinition[];
  }>;
  /** Built once the SDK server exists (the runtime needs the client's name and list_changed). */
  runtime: (hooks: {
    clientName: () => string;
    capabilitiesChanged: () => void;
    probeActions: () => string[];
  }) => ServerRuntime;
}

export interface RoamMcpServer {
  server: Server;
  runtime: ServerRuntime;
  /** Call after the graph list changed: re-evaluates visible tools, tells the client. */
  graphsChanged(): void;
}

export function createRoamMcpServer(options: RoamMcpServerOptions): RoamMcpServer {
  const server = new Server(
    { name: options.name, version: options.version, title: 'Roam Research (Roam Companion)' },
    {
      capabilities: { tools: { listChanged: true }, resources: { listChanged: true } },
      instructions: SERVER_INSTRUCTIONS,
    },
  );
  let initialized = false;
  let lastVisible = '';
  let tools: ToolDefinition[] = [];
  const visibleTools = () => tools.filter((tool) => isVisible(tool));
  const signatureOf = (list: ToolDefinition[]) => list.map((t) => t.name).join(',');
  const notifyIfToolsChanged = () => {
    const signature = signatureOf(visibleTools());
    if (signature === lastVisible) return;
    lastVisible = signature;
    if (initialized) void server.sendToolListChanged().catch(() => {});
  };
  const runtime = options.runtime({
    clientName: () => server.getClientVersion()?.name ?? 'MCP client',
    capabilitiesChanged: notifyIfToolsChanged,
    probeActions: () => [...new Set(tools.flatMap((t) => (t.requiresAction ? [t.requiresAction] : [])))],
  });
  let resources: ResourceDefinition[] = [];
  let templates: Array<{ definition: ResourceDefinition; template: UriTemplate }> = [];
  let catalog: Promise<void> | undefined;
  const loadCatalog = () =>
    (catalog ??= options.catalog().then((loaded) => {
      tools = loaded.tools(runtime);
      resources = loaded.resources;
      templates = resources.map((r) => ({ definition: r, template: new UriTemplate(r.uriTemplate) }));
      lastVisible = signatureOf(visibleTools());
    }));
  const isVisible = (tool: ToolDefinition): boolean => {
    if (tool.writes && (options.readOnly || !options.session.anyGraphMayWrite())) return false;
    if (tool.requiresAction && !runtime.offers(tool.requiresAction)) return false;
    return true;
  };
  server.oninitialized = () => {
    initialized = true;
    void loadCatalog();
  };

  const toolList: () => Tool[] = () =>
    visibleTools().map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: toJsonSchema(inputShape(tool), 'input') as Tool['inputSchema'],
      ...(tool.outputSchema
        ? { outputSchema: toJsonSchema(tool.outputSchema, 'output') as Tool['outputSchema'] }
        : {}),
      annotations: { title: tool.title, ...tool.annotations },
    }));
  // JSON Schemas are built once per visible set, not on every tools/list.
  let listed: { signature: string; tools: Tool[] } | undefined;
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    await loadCatalog();
    const signature = signatureOf(visibleTools());
    if (listed?.signature !== signature) listed = { signature, tools: toolList() };
    return { tools: listed.tools };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    await loadCatalog();
    const name = request.params.name;
    const tool = tools.find((t) => t.name === name);
    const progressToken = request.params._meta?.progressToken;
    let step = 0;
    const progress = (message: string) => {
      if (progressToken === undefined) return;
      step += 1;
      void extra
        .sendNotification({
          method: 'notifications/progress',
          params: { progressToken, progress: step, message },
        })
        .catch(() => {});
    };
    const heartbeat =
      progressToken === undefined
        ? undefined
        : setInterval(() => progress('Still waiting for Roam Desktop to answer.'), PROGRESS_HEARTBEAT_MS);
    heartbeat?.unref();
    const scope: CallScope = { signal: extra.signal, progress, notice: () => {} };
    const route = { runtime, readOnly: options.readOnly };
    try {
      if (tool && !isVisible(tool)) {
        // Hidden tools are refused with the reason: read-only mode, read-only tokens, or not offered by Roam.
        if (tool.writes && !options.readOnly) return writeHiddenResult(name);
        if (!tool.writes) return await routeToolCall(undefined, name, {}, scope, route);
      }
      return await routeToolCall(tool, name, request.params.arguments, scope, route);
    } finally {
      if (heartbeat) clearInterval(heartbeat);
    }
  });

  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: (await loadCatalog(), templates).flatMap(({ definition, template }) =>
      definition.listable && template.variableNames.every((v) => v === 'graph')
        ? options.session.list().map((graph) => ({
            uri: template.expand({ graph: graph.nickname }),
            name: `${definition.name} (${graph.nickname})`,
            title: `${definition.title} (${graph.nickname})`,
            description: definition.description,
            mimeType: definition.mimeType,
          }))
        : [],
    ),
  }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: (await loadCatalog(), resources).map((r) => ({
      uriTemplate: r.uriTemplate,
      name: r.name,
      title: r.title,
      description: r.description,
      mimeType: r.mimeType,
    })),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    const uri = request.params.uri;
    await loadCatalog();
    for (const { definition, template } of templates) {
      const match = template.match(uri);
      if (!match) continue;
      const variables = Object.fromEntries(
        Object.entries(match).map(([k, v]) => [k, decodeURIComponent(Array.isArray(v) ? v.join(',') : v)]),
      );
      const graph = findGraph(options.session.list(), variables.graph ?? '');
      if (!graph) {
        throw new McpError(
          ErrorCode.InvalidParams,
          `No configured graph '${variables.graph}' in ${uri}. Available: ${options.session
            .available()
            .map((g) => g.nickname)
            .join(', ')}.`,
        );
      }
      const scope: CallScope = { signal: extra.signal, progress: () => {}, notice: () => {} };
      try {
        const text = await definition.read(variables, {
          graph: { name: graph.name, nickname: graph.nickname },
          call: <T>(action: string, args: unknown[] = []) =>
            runtime.callGraph(graph, action, args, scope) as Promise<T>,
          callRows: async (action, args, onRow) => {
            await runtime.callGraph(graph, action, args, scope, onRow);
          },
          signal: extra.signal,
          progress: () => {},
        });
        return { contents: [{ uri, mimeType: definition.mimeType, text }] };
      } catch (error) {
        const toolError = toToolError(error, graph);
        throw new McpError(
          toolError.code === 'NOT_FOUND' ? ErrorCode.InvalidParams : ErrorCode.InternalError,
          `${toolError.code}: ${toolError.message}`,
          { code: toolError.code, ...toolError.details },
        );
      }
    }
    throw new McpError(
      ErrorCode.InvalidParams,
      `Unknown resource ${uri}. Resource templates: ${resources.map((r) => r.uriTemplate).join(', ') || 'none'}.`,
    );
  });

  return {
    server,
    runtime,
    graphsChanged() {
      notifyIfToolsChanged();
      if (initialized) void server.sendResourceListChanged().catch(() => {});
    },
  };
}

function writeHiddenResult(name: string) {
  const error = new ToolError(
    'INSUFFICIENT_SCOPE',
    `${name} changes the graph, but every configured graph has a read-only token. Get a token with more access ('roam-mcp connect', or Roam: Settings > Graph > Local API Tokens), then restart the MCP client.`,
  );
  return {
    isError: true,
    content: [
      {
        type: 'text' as const,
        text: JSON.stringify({ error: { code: error.code, message: error.message } }),
      },
    ],
  };
}
