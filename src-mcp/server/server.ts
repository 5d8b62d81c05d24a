/**
 * The MCP server over one stdio connection, wired from five parts: the catalogue (loaded after
 * the opening exchange), tool calls (src-mcp/server/tool-call.ts), resources
 * (src-mcp/server/resource-handlers.ts), prompts and completion (src-mcp/server/prompt-handlers.ts) and
 * list_changed notifications when the visible tools (and with them the prompts) change (graphs,
 * tokens, capability probes).
 *
 * Both protocol eras are served by the SDK's stdio entry (`serveStdio`): the opening message picks
 * the era — `initialize` (2025-06-18, 2025-11-25) or a request carrying the 2026-07-28 `_meta`
 * envelope (`server/discover`, no handshake) — and one `Server` built by `buildServer` serves the
 * connection, its handlers inside the one chat scope `serve` made (src-mcp/contract/chat-scope.ts).
 * Everything that is state (graphs, selection, tickets, tokens, probes) lives in the server and
 * that scope, not in the instance: on stdio the process is the connection (docs/mcp.md, "State and
 * the two protocol eras"). Over HTTP (src-mcp/http/) one process serves many chats: `serverFor`
 * builds an instance whose handlers run inside that chat's scope (src-mcp/contract/chat-scope.ts),
 * where the selection, the tickets, the key's cap and the undo scope are the chat's own.
 */
import {
  CLIENT_INFO_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type StandardSchemaV1,
  type CacheHint,
  type ServerContext,
  type Tool,
  type Transport,
} from '@modelcontextprotocol/server';
import { serveStdio, type StdioServerHandle } from '@modelcontextprotocol/server/stdio';
import { selectionWarning, ticketToolset } from '../access/selection.ts';
import { saveCompileCache } from './compile-cache.ts';
import type { GraphSession } from '../roam/graph-session.ts';
import { log } from '../contract/log.ts';
import {
  currentScope,
  inChat,
  newChatScope,
  noteChatClient,
  type ChatScope,
} from '../contract/chat-scope.ts';
import { PromptHandlers } from './prompt-handlers.ts';
import { ResourceHandlers } from './resource-handlers.ts';
import { serverInstructions } from './server-instructions.ts';
import type { GatewayHooks, GraphGateway } from '../roam/graph-gateway.ts';
import { confirmationOf, type ConfirmPolicy } from '../gate/confirm.ts';
import { capabilitiesOf } from '../gate/channels/index.ts';
import { rendersApps } from '../gate/channels/in-chat-approval.ts';
import { SKILLS_EXTENSION } from './skill-extension.ts';
import { callTool, requestScope, type ToolCallState } from './tool-call.ts';
import { refusal } from './visibility.ts';
import {
  isAppOnly,
  probedActions,
  type ServerServices,
  type ToolDefinition,
} from '../contract/tool-definition.ts';

/**
 * 2026-07-28 cache hints (docs/mcp.md, "Using the 2026-07-28 revision"). Every list is private to
 * this connection (it depends on the user's graphs and tokens). Tools and resources change only
 * with the config, a granted token or a capability probe, and each change is announced on the
 * client's subscriptions/listen stream, so a minute of freshness is safe; templates and discover
 * never change while the process runs.
 */
const LIST_TTL_MS = 60_000;
const STATIC_TTL_MS = 3_600_000;
export const CACHE_HINTS: Record<string, CacheHint> = {
  'tools/list': { ttlMs: LIST_TTL_MS, cacheScope: 'private' },
  'prompts/list': { ttlMs: LIST_TTL_MS, cacheScope: 'private' },
  'resources/list': { ttlMs: LIST_TTL_MS, cacheScope: 'private' },
  'resources/templates/list': { ttlMs: STATIC_TTL_MS, cacheScope: 'private' },
  'server/discover': { ttlMs: STATIC_TTL_MS, cacheScope: 'private' },
};

export interface RoamMcpServerOptions {
  name: string;
  version: string;
  session: GraphSession;
  readOnly: boolean;
  /** `--confirm` (src-mcp/gate/confirm.ts). */
  confirm: ConfirmPolicy;
  /** The selected toolsets, and why the selection was invalid (then every call answers that). */
  toolsets: Pick<ToolCallState, 'toolsets' | 'toolsetsProblem'>;
  /** Built once per process (the gateway needs the client's name and list_changed). */
  gateway: (hooks: GatewayHooks) => GraphGateway;
  /** What every handler is lent (`ServerServices` in src-mcp/contract/tool-definition.ts). */
  services: ServerServices;
}

export interface RoamMcpServer {
  gateway: GraphGateway;
  /** Serves both eras on `transport` (default: this process's stdin/stdout). */
  serve(transport?: Transport): void;
  /** One SDK server for a chat over HTTP: a 2025 session, or one 2026-07-28 request. */
  serverFor(era: 'legacy' | 'modern', chat: ChatScope): Server;
  /** Sends list_changed to `sink` too (HTTP sessions, listen streams) until the returned stop. */
  notifyTo(sink: ChangeSink): () => void;
  /** Ends the connection (the tray's `shutdown`). */
  close(): Promise<void>;
  /** Call after the graph list changed: re-evaluates visible tools, tells the client. */
  graphsChanged(): void;
  /** A new toolset selection (the tray, live): re-evaluates visible tools, tells the client. */
  setToolsets(toolsets: ToolCallState['toolsets']): void;
  /** A new confirmation policy (the tray, live): applies from the next call. */
  setConfirm(policy: ConfirmPolicy): void;
}

interface Catalogue {
  tools: readonly ToolDefinition[];
  listedTool: (tool: ToolDefinition) => Tool;
  resources: ResourceHandlers;
  prompts: PromptHandlers;
}

/** What every instance of this process shares: the catalogue, the gateway, the notifier. */
interface Shared {
  loadCatalogue: () => Promise<Catalogue>;
  visible: () => ToolDefinition[];
  state: ToolCallState;
  notifier: ListChangedNotifier;
  confirm: ConfirmPolicy;
}

/** Where list_changed notifications go (an SDK server's connection, or HTTP listen streams). */
export interface ChangeSink {
  toolsChanged(): void;
  promptsChanged(): void;
  resourcesChanged(): void;
}

export function createRoamMcpServer(options: RoamMcpServerOptions): RoamMcpServer {
  let tools: readonly ToolDefinition[] = [];
  let prompts: PromptHandlers | undefined;
  const visible = () => tools.filter((tool) => !refusal(tool, state));
  const notifier = new ListChangedNotifier(
    () => signatureOf(visible()),
    () => (prompts?.visible() ?? []).map((prompt) => prompt.name).join(','),
  );
  const gateway = options.gateway({
    // The chat's client (src-mcp/contract/chat-scope.ts): from `initialize` or a request's `_meta`.
    clientName: () => currentScope().clientName ?? 'MCP client',
    capabilitiesChanged: () => notifier.toolsMayHaveChanged(),
    probeActions: () => [...new Set(tools.flatMap(probedActions))],
  });
  let processToolsets = options.toolsets.toolsets;
  const state: ToolCallState = {
    gateway,
    services: options.services,
    readOnly: options.readOnly,
    ...(options.toolsets.toolsetsProblem ? { toolsetsProblem: options.toolsets.toolsetsProblem } : {}),
    // A chat over HTTP may be limited to its key's toolsets (src-mcp/contract/chat-scope.ts).
    get toolsets() {
      return currentScope().toolsets ?? processToolsets;
    },
    set toolsets(toolsets) {
      processToolsets = toolsets;
    },
  };
  let catalogue: Promise<Catalogue> | undefined;
  // Imported lazily: the bundle evaluates the tool and prompt modules only after the first answer.
  const loadCatalogue = () =>
    (catalogue ??= Promise.all([import('./tool-catalogue.ts'), import('../prompts/index.ts')]).then(
      ([loaded, declared]) => {
        tools = loaded.tools;
        state.ticketToolset = ticketToolset(tools);
        warnIfCannotWrite();
        prompts = new PromptHandlers(declared.prompts, loaded.tools, loaded.resources, state);
        notifier.toolsLoaded();
        saveCompileCache();
        const resources = new ResourceHandlers(loaded.resources, state, loaded.fixedResources);
        return { ...loaded, resources, prompts };
      },
    ));
  const warnIfCannotWrite = () => {
    const warning = selectionWarning(state.toolsets, tools);
    if (warning) log('warn', warning);
  };
  const shared: Shared = { loadCatalogue, visible, state, notifier, confirm: options.confirm };
  let served: StdioServerHandle | undefined;
  return {
    gateway,
    serve(transport) {
      // The one chat this connection serves: its selection, tickets and journal chat. Its host
      // started this process: an approval in its chat is the person's.
      const chat = newChatScope({ approvesInChat: true });
      served = serveStdio(
        ({ era }) => buildServer(options, shared, era, chat, 'stdio'),
        transport ? { transport } : {},
      );
    },
    serverFor: (era, chat) => buildServer(options, shared, era, chat, 'http'),
    notifyTo: (sink) => notifier.add(sink),
    close: async () => served?.close(),
    graphsChanged() {
      notifier.toolsMayHaveChanged();
      notifier.resourcesChanged();
    },
    setToolsets(toolsets) {
      state.toolsets = toolsets;
      warnIfCannotWrite();
      notifier.toolsMayHaveChanged();
    },
    setConfirm(policy) {
      shared.confirm = policy;
    },
  };
}

/**
 * One SDK server for the connection (serveStdio may build a second one when a client probes with
 * server/discover and then falls back to `initialize`; the later one is the one that serves).
 */
function buildServer(
  options: RoamMcpServerOptions,
  shared: Shared,
  era: 'legacy' | 'modern',
  chat: ChatScope,
  transport: 'stdio' | 'http',
): Server {
  const server = new Server(
    { name: options.name, version: options.version, title: 'Roam Research (Roam Companion)' },
    {
      capabilities: {
        tools: { listChanged: true },
        resources: { listChanged: true },
        prompts: { listChanged: true },
        completions: {},
        extensions: { [SKILLS_EXTENSION]: {} },
      },
      instructions: serverInstructions(chat.toolsets ?? shared.state.toolsets),
      cacheHints: CACHE_HINTS,
    },
  );
  if (era === 'legacy') {
    server.oninitialized = () =>
      inChat(chat, () => {
        const info = server.getClientVersion();
        currentScope().clientName = info?.name;
        noteChatClient(info?.name, info?.version);
        // Over HTTP the session's server joins the sinks (src-mcp/http/); on stdio it is the one.
        if (transport === 'stdio') shared.notifier.attach(server);
        void shared.loadCatalogue();
      });
  } else {
    // No handshake: the connection is live from its first request. The catalogue loads right
    // after that first answer is written.
    if (transport === 'stdio') shared.notifier.attach(server);
    setImmediate(() => void shared.loadCatalogue());
  }
  const inThisChat: InChat = (work) => inChat(chat, work);
  registerToolHandlers(server, shared, inThisChat);
  registerResourceHandlers(server, shared, inThisChat);
  registerPromptHandlers(server, shared, inThisChat);
  registerSkillHandlers(server, era);
  return server;
}

/** Runs a handler inside the instance's chat (src-mcp/contract/chat-scope.ts). */
type InChat = <T>(work: () => T) => T;

/** list_changed for an SDK server's own connection (a 2025 session). */
export function serverSink(server: Server): ChangeSink {
  return {
    toolsChanged: () => void server.sendToolListChanged().catch(() => {}),
    promptsChanged: () => void server.sendPromptListChanged().catch(() => {}),
    resourcesChanged: () => void server.sendResourceListChanged().catch(() => {}),
  };
}

/** A 2026-07-28 request names its client in `_meta`; 2025 requests leave the initialize name. */
function noteClient(ctx: ServerContext): void {
  // The SDK types the envelope opaquely; its clientInfo is validated before handlers run.
  const envelope = ctx.mcpReq.envelope as
    Record<string, { name?: unknown; version?: unknown } | undefined> | undefined;
  const info = envelope?.[CLIENT_INFO_META_KEY];
  if (typeof info?.name !== 'string' || !info.name) return;
  currentScope().clientName = info.name;
  noteChatClient(info.name, typeof info.version === 'string' ? info.version : undefined);
}

function signatureOf(list: readonly ToolDefinition[]): string {
  return list.map((t) => t.name).join(',');
}

/**
 * tools/list_changed only when the visible set really changed, and only once a connection is
 * live. On a 2026-07-28 connection serveStdio delivers it on the client's subscriptions/listen
 * stream (none open: nothing is sent).
 */
class ListChangedNotifier {
  private primary: ChangeSink | undefined;
  private readonly sinks = new Set<ChangeSink>();
  private lastVisible = '';
  private lastPrompts = '';

  constructor(
    private readonly signature: () => string,
    private readonly promptSignature: () => string,
  ) {}

  attach(server: Server): void {
    this.primary = serverSink(server);
  }

  add(sink: ChangeSink): () => void {
    this.sinks.add(sink);
    return () => this.sinks.delete(sink);
  }

  private each(send: (sink: ChangeSink) => void): void {
    if (this.primary) send(this.primary);
    for (const sink of this.sinks) send(sink);
  }

  /** The catalogue arrived: what is visible now is what the first tools/list will show. */
  toolsLoaded(): void {
    this.lastVisible = this.signature();
    this.lastPrompts = this.promptSignature();
  }

  /** A prompt is listed when its tools are: only a change of tools can change the prompts. */
  toolsMayHaveChanged(): void {
    const signature = this.signature();
    if (signature === this.lastVisible) return;
    this.lastVisible = signature;
    this.each((sink) => sink.toolsChanged());
    const prompts = this.promptSignature();
    if (prompts === this.lastPrompts) return;
    this.lastPrompts = prompts;
    this.each((sink) => sink.promptsChanged());
  }

  resourcesChanged(): void {
    this.each((sink) => sink.resourcesChanged());
  }
}

function registerToolHandlers(server: Server, shared: Shared, inThisChat: InChat): void {
  // JSON Schemas are built once per visible set, not on every tools/list. The order is the
  // catalogue's, the same on every call (tools/list order is part of the prompt a model caches).
  let listed: { signature: string; tools: Tool[] } | undefined;
  server.setRequestHandler('tools/list', (_request, ctx) =>
    inThisChat(async () => {
      noteClient(ctx);
      const { listedTool } = await shared.loadCatalogue();
      // App-only tools (the approval view's) only for a client that renders apps.
      const apps = rendersApps(capabilitiesOf(ctx, server.getClientCapabilities()));
      const shown = shared.visible().filter((tool) => apps || !isAppOnly(tool));
      const signature = signatureOf(shown);
      if (listed?.signature !== signature) listed = { signature, tools: shown.map(listedTool) };
      return { tools: listed.tools };
    }),
  );
  server.setRequestHandler('tools/call', (request, ctx) =>
    inThisChat(async () => {
      noteClient(ctx);
      const { tools } = await shared.loadCatalogue();
      const { scope, stop } = requestScope(ctx.mcpReq.signal, request.params._meta?.progressToken, (params) =>
        ctx.mcpReq.notify({ method: 'notifications/progress', params }),
      );
      try {
        const confirmation = confirmationOf(
          {
            capabilities: capabilitiesOf(ctx, server.getClientCapabilities()),
            inputResponses: ctx.mcpReq.inputResponses,
            trayShows: shared.state.services.proposals.trayShows(),
            approvesInChat: currentScope().approvesInChat === true,
            remote: currentScope().remote === true,
          },
          shared.confirm,
        );
        return await callTool(
          tools,
          request.params.name,
          request.params.arguments,
          scope,
          shared.state,
          confirmation,
        );
      } finally {
        stop();
      }
    }),
  );
}

function registerResourceHandlers(server: Server, shared: Shared, inThisChat: InChat): void {
  server.setRequestHandler('resources/list', () =>
    inThisChat(async () => ({ resources: (await shared.loadCatalogue()).resources.list() })),
  );
  server.setRequestHandler('resources/templates/list', () =>
    inThisChat(async () => ({
      resourceTemplates: (await shared.loadCatalogue()).resources.listTemplates(),
    })),
  );
  server.setRequestHandler('resources/read', (request, ctx) =>
    inThisChat(async () => {
      noteClient(ctx);
      return (await shared.loadCatalogue()).resources.read(request.params.uri, ctx.mcpReq.signal);
    }),
  );
}

function registerPromptHandlers(server: Server, shared: Shared, inThisChat: InChat): void {
  server.setRequestHandler('prompts/list', () =>
    inThisChat(async () => ({ prompts: (await shared.loadCatalogue()).prompts.list() })),
  );
  server.setRequestHandler('prompts/get', (request, ctx) =>
    inThisChat(async () => {
      noteClient(ctx);
      const { prompts } = await shared.loadCatalogue();
      return prompts.get(request.params.name, request.params.arguments, ctx.mcpReq.signal);
    }),
  );
  server.setRequestHandler('completion/complete', (request, ctx) =>
    inThisChat(async () => {
      noteClient(ctx);
      return (await shared.loadCatalogue()).prompts.complete(request.params, ctx.mcpReq.signal);
    }),
  );
}

/** Any params: skills/list takes only a cursor (one skill, one page), skills/get a uri checked below. */
const anyParams: StandardSchemaV1<Record<string, unknown>> = {
  '~standard': {
    version: 1,
    vendor: 'roam-mcp',
    validate: (value) => ({ value: (value ?? {}) as Record<string, unknown> }),
  },
};

/** The Skills extension (src-mcp/server/skill.ts): the skill's entry, loaded with the catalogue. */
function registerSkillHandlers(server: Server, era: 'legacy' | 'modern'): void {
  // The extension is specified on 2026-07-28, where results are cacheable; 2025 results carry none.
  const cache =
    era === 'modern' ? { resultType: 'complete', ...CACHE_HINTS['resources/templates/list'] } : {};
  server.setRequestHandler('skills/list', { params: anyParams }, async () => {
    const { skillEntry } = await import('./skill.ts');
    return { skills: [skillEntry()], ...cache };
  });
  server.setRequestHandler('skills/get', { params: anyParams }, async (params) => {
    const { skillEntry, SKILL_URI } = await import('./skill.ts');
    if (params.uri !== SKILL_URI)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `No skill at ${String(params.uri)}. This server serves one skill: ${SKILL_URI}.`,
      );
    return { skill: skillEntry(), ...cache };
  });
}
