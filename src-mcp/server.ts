/**
 * The MCP server over one transport, wired from four parts: the catalogue (loaded after the
 * handshake), tool calls (src-mcp/tool-call.ts), resources (src-mcp/resource-handlers.ts) and
 * list_changed notifications when the visible tools change (graphs, tokens, capability probes).
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { GraphSession } from './graph-session.ts';
import { ResourceHandlers } from './resource-handlers.ts';
import type { ServerRuntime } from './server-runtime.ts';
import { callTool, refusal, requestScope, type ToolCallState } from './tool-call.ts';
import type { ToolDefinition } from './tool-definition.ts';

export const SERVER_INSTRUCTIONS = [
  'Roam Research graphs through Roam Desktop.',
  'Workflow: list_graphs, then select_graph to pick a graph and read its agent guidelines (follow them); with one graph it is used automatically, but writes still need select_graph first.',
  'Every graph tool takes an optional `graph` (nickname). Content comes as markdown with <roam uid="..."/> tags: use those uids for get_block, create_block {parentUid}, update_block, move_block.',
  'Lists are paginated: pass nextOffset as offset for more.',
].join('\n');

export interface RoamMcpServerOptions {
  name: string;
  version: string;
  session: GraphSession;
  readOnly: boolean;
  /** The selected toolsets, and why the selection was invalid (then every call answers that). */
  toolsets: Pick<ToolCallState, 'toolsets' | 'toolsetsProblem'>;
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
  /** A new toolset selection (the tray, live): re-evaluates visible tools, tells the client. */
  setToolsets(toolsets: ToolCallState['toolsets']): void;
}

interface Catalogue {
  tools: readonly ToolDefinition[];
  listedTool: (tool: ToolDefinition) => Tool;
  resources: ResourceHandlers;
}

export function createRoamMcpServer(options: RoamMcpServerOptions): RoamMcpServer {
  const server = new Server(
    { name: options.name, version: options.version, title: 'Roam Research (Roam Companion)' },
    {
      capabilities: { tools: { listChanged: true }, resources: { listChanged: true } },
      instructions: SERVER_INSTRUCTIONS,
    },
  );
  let tools: readonly ToolDefinition[] = [];
  const visible = () => tools.filter((tool) => !refusal(tool, state));
  const notifier = new ListChangedNotifier(server, () => signatureOf(visible()));
  const runtime = options.runtime({
    clientName: () => server.getClientVersion()?.name ?? 'MCP client',
    capabilitiesChanged: () => notifier.toolsMayHaveChanged(),
    probeActions: () => [...new Set(tools.flatMap((t) => (t.requiresAction ? [t.requiresAction] : [])))],
  });
  const state: ToolCallState = { runtime, readOnly: options.readOnly, ...options.toolsets };
  let catalogue: Promise<Catalogue> | undefined;
  // Imported lazily: the bundle evaluates the tool modules only after the handshake.
  const loadCatalogue = () =>
    (catalogue ??= import('./tool-catalogue.ts').then((loaded) => {
      tools = loaded.tools;
      notifier.toolsLoaded();
      return { ...loaded, resources: new ResourceHandlers(loaded.resources, runtime) };
    }));
  server.oninitialized = () => {
    notifier.initialized = true;
    void loadCatalogue();
  };
  registerToolHandlers(server, loadCatalogue, visible, state);
  registerResourceHandlers(server, loadCatalogue);
  return {
    server,
    runtime,
    graphsChanged() {
      notifier.toolsMayHaveChanged();
      notifier.resourcesChanged();
    },
    setToolsets(toolsets) {
      state.toolsets = toolsets;
      notifier.toolsMayHaveChanged();
    },
  };
}

function signatureOf(list: readonly ToolDefinition[]): string {
  return list.map((t) => t.name).join(',');
}

/** tools/list_changed only when the visible set really changed, and only after initialization. */
class ListChangedNotifier {
  initialized = false;
  private lastVisible = '';

  constructor(
    private readonly server: Server,
    private readonly signature: () => string,
  ) {}

  /** The catalogue arrived: what is visible now is what the first tools/list will show. */
  toolsLoaded(): void {
    this.lastVisible = this.signature();
  }

  toolsMayHaveChanged(): void {
    const signature = this.signature();
    if (signature === this.lastVisible) return;
    this.lastVisible = signature;
    if (this.initialized) void this.server.sendToolListChanged().catch(() => {});
  }

  resourcesChanged(): void {
    if (this.initialized) void this.server.sendResourceListChanged().catch(() => {});
  }
}

function registerToolHandlers(
  server: Server,
  loadCatalogue: () => Promise<Catalogue>,
  visible: () => ToolDefinition[],
  state: ToolCallState,
): void {
  // JSON Schemas are built once per visible set, not on every tools/list.
  let listed: { signature: string; tools: Tool[] } | undefined;
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const { listedTool } = await loadCatalogue();
    const shown = visible();
    const signature = signatureOf(shown);
    if (listed?.signature !== signature) listed = { signature, tools: shown.map(listedTool) };
    return { tools: listed.tools };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { tools } = await loadCatalogue();
    const { scope, stop } = requestScope(extra.signal, request.params._meta?.progressToken, (params) =>
      extra.sendNotification({ method: 'notifications/progress', params }),
    );
    try {
      return await callTool(tools, request.params.name, request.params.arguments, scope, state);
    } finally {
      stop();
    }
  });
}

function registerResourceHandlers(server: Server, loadCatalogue: () => Promise<Catalogue>): void {
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: (await loadCatalogue()).resources.list(),
  }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: (await loadCatalogue()).resources.listTemplates(),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) =>
    (await loadCatalogue()).resources.read(request.params.uri, extra.signal),
  );
}
