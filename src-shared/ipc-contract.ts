/**
 * The one typed map of IPC between the tray's main process and the renderer (GitHub Desktop's
 * ipc-shared style). Main validates every request with these zod schemas and checks the sender;
 * the preload exposes exactly these methods; the browser preview bridges them over HTTP.
 * Nothing here ever carries a token: only its state and last 4 characters.
 */
import * as z from 'zod';
import { TOOLSET_NAMES } from './toolsets.ts';
import { CONFIRM_POLICIES, type ConfirmPolicy } from './roam-config.ts';
import {
  CLIENT_IDS,
  type ClientChangeOutcome,
  type ClientChangePreview,
  type ClientView,
} from './clients.ts';
import type { ShownProposalMessage } from './child-ipc.ts';

const toolsetsSchema = z.array(z.enum(TOOLSET_NAMES)).min(1);
/** A remote sign-in's or connection's id (src-mcp/remote: 8 characters). */
const remoteIdSchema = z.string().min(1).max(40);
import {
  ACCESS_LEVELS,
  GRAPH_TYPES,
  type AccessLevel,
  type EventChannel,
  type GraphType,
  type RequestChannel,
  DEFAULT_GRAPH_TYPE,
} from './constants.ts';

export type { EventChannel, RequestChannel };
// The clients' own types live in clients.ts; the tray's files name them from here too.
export type { ClientChangeOutcome, ClientChangePreview, ClientId, ClientView } from './clients.ts';

export const graphIdSchema = z.string().min(1); // graphId() in constants.ts
export const accessLevelSchema = z.enum(ACCESS_LEVELS);
export const clientIdSchema = z.enum(CLIENT_IDS);
const confirmPolicySchema = z.enum(CONFIRM_POLICIES, {
  error: `must be one of ${CONFIRM_POLICIES.map((p) => `'${p}'`).join(', ')}`,
});

export type TokenState = 'ok' | 'missing' | 'revoked' | 'blocked' | 'waiting';

export interface GraphView {
  id: string;
  name: string;
  type: GraphType;
  nickname: string;
  description?: string;
  /** The level the user chose: what agents may do, enforced by roam-mcp whatever the token allows. */
  accessLevel: AccessLevel;
  enabled: boolean;
  token: GraphTokenView;
  /**
   * When agents' writes to it wait for the person (docs/mcp.md, "Consent before a write takes much
   * away"): the graph's own choice, else Settings'. Always sent by the core.
   */
  confirm?: ConfirmPolicy;
  /** True when the graph has a choice of its own (Edit); else it follows Settings. */
  confirmOwn?: boolean;
}

export interface GraphTokenView {
  state: TokenState;
  last4?: string;
  /** What Roam granted the stored token; absent when there is none or Roam has not said. */
  grantedAccessLevel?: AccessLevel;
  /**
   * The chosen levels this token can serve (with `grantedAccessLevel`): a chosen level outside it
   * is wider than the grant and needs a new token; one inside but not equal is enforced by roam-mcp.
   */
  covers?: AccessLevel[];
}

export type TokenRequestStatus =
  'waiting' | 'approved' | 'rejected' | 'blocked' | 'timeout' | 'in-progress' | 'cancelled' | 'error';

/** Why a request failed, when the panel can offer the way out (open Roam, remove a graph Roam lacks). */
export type TokenRequestCause = 'roam-not-running' | 'graph-not-found';

export interface TokenRequestView {
  graphId: string;
  status: TokenRequestStatus;
  /** The level asked of Roam (the Roam token level the chosen access level needs). */
  requestedAccessLevel: AccessLevel;
  grantedAccessLevel?: AccessLevel;
  /** True when Roam granted less than was asked (e.g. the user is a reader). */
  downgraded?: boolean;
  startedAt: number;
  /** When Roam gives up waiting for the user (5 minutes after the start). */
  expiresAt: number;
  /** For a person: what happened and what to do next. */
  message?: string;
  cause?: TokenRequestCause;
  /** A finished request the user may simply ask again (not after Never Allow, which needs unblocking in Roam first). */
  mayAskAgain?: boolean;
}

export interface BlockedGraphView {
  graphId: string;
  name: string;
  /** The nickname the Graphs tab shows (the name once the graph is no longer configured). */
  nickname: string;
  type: GraphType;
  blockedAt: number;
  howToUnblock: string;
}

/** What the install/uninstall preview shows: the change plus its diff. */
export interface ClientChangeView extends ClientChangePreview {
  /** before → after as the CLI's `--dry-run` shows it: lines marked "  ", "- " or "+ ". */
  diff: string;
}

export interface AppStatus {
  roam: { running: boolean; port: number; checkedAt: number };
  /** Chats connected now: `--mcp` sessions and the HTTP server's chats together. */
  mcpSessions: number;
  /** Of `mcpSessions`, the chats the running HTTP server serves (its own or a terminal's). */
  httpChats?: number;
  /**
   * How tokens are encrypted at rest: safeStorage's backend ('keychain', 'dpapi',
   * 'gnome_libsecret', 'basic_text', ...) or 'preview-file-key'. `warning` is set when the
   * protection is weak (Linux basic_text fallback, preview key) and says what to do.
   */
  storage?: { backend: string; warning?: string };
  /** The tray's HTTP server (every HTTP client's), when this core runs one. */
  http?: HttpServerStatus;
}

/**
 * A server that stopped unasked or could not start is `restarting` while it waits (`why`: what
 * happened; `retryAt`: when it is started again, in ms since the epoch), then `starting` again.
 */
export type HttpServerStatus =
  | { state: 'starting' | 'stopped' }
  | { state: 'restarting'; why: string; retryAt: number }
  | { state: 'serving'; url: string };

export interface AppSettings {
  launchAtLogin: boolean;
  defaultAccessLevel: AccessLevel;
  /** Folders file_upload may read local files from (absolute paths; none by default). Always sent by the core. */
  uploadFolders?: string[];
  /**
   * When agents' writes wait for the person, for graphs without a choice of their own: `destructive`
   * (the default), `every-write` or `never`. Always sent by the core.
   */
  confirm?: ConfirmPolicy;
}

export interface AvailableGraph {
  name: string;
  type: GraphType;
}

export const addGraphInputSchema = z.object({
  name: z.string().trim().min(1, 'Graph name is required'),
  type: z.enum(GRAPH_TYPES).default(DEFAULT_GRAPH_TYPE),
  nickname: z.string().trim().optional(),
  description: z.string().optional(),
  accessLevel: accessLevelSchema.optional(),
  /** A public graph the user is not a member of (e.g. help): Roam does not list it, so it is not checked. */
  public: z.boolean().optional(),
});
export const updateGraphInputSchema = z.object({
  id: graphIdSchema,
  nickname: z.string().trim().min(1).optional(),
  description: z.string().optional(),
  accessLevel: accessLevelSchema.optional(),
  enabled: z.boolean().optional(),
  /** The graph's own "ask before" choice: it wins over Settings' for writes to this graph. */
  confirm: confirmPolicySchema.optional(),
});

/** One change an agent (or a person's undo) made, as the Activity view shows it. */
/** One line of an outline of blocks: its depth under the first (0) and its text. */
export interface OutlineLineView {
  depth: number;
  text: string;
}

/**
 * What one write did, to be seen as a diff (src-main/core/activity/activity-details.ts). Places are named
 * by page title (and the tool's words), never by uid.
 */
export type ChangeDetailView =
  /** `now`: a conflict (someone changed the block since): its text now, beside the agent's. */
  | { kind: 'edit'; page?: string; before: string; after: string; now?: string }
  | {
      kind: 'outline';
      change: 'added' | 'removed';
      /** "to page 'Project'", "in 'Project'", "page 'Target'". */
      place?: string;
      lines: OutlineLineView[];
      /** Blocks not listed (the outline is cut). */
      more: number;
    }
  /** `from` / `to`: "'Page'" or "under 'parent text' in 'Page'", when Roam could name them. */
  | { kind: 'move'; text: string; from?: string; to?: string }
  | { kind: 'rename'; before: string; after: string }
  | { kind: 'note'; text: string };

export interface ActivityChangeView {
  id: string;
  at: string;
  graph: string;
  /** The graph's nickname in the tray, when it is configured there. */
  nickname?: string;
  tool: string;
  /** One readable line: "Deleted page 'Target' (3 blocks)". */
  summary: string;
  status: 'applied' | 'failed' | 'partial' | 'unconfirmed' | 'pending';
  undoable: boolean;
  undone: boolean;
  /** This change is itself an undo run (undoing it puts back what it took back). */
  isUndo: boolean;
  /** This undo run put back what an undo took back (a redo): undoing it takes them back again. */
  isRedo?: true;
  /** What the latest undo of it did, conflicts included, so they stay visible. */
  lastUndo?: { at: string; steps: ActivityStepView[] };
  /** What it did, to show as a diff (at most a few per change). */
  details: ChangeDetailView[];
  /** For an undo (not a redo): what redoing it would put back, as a diff (its ops reversed). */
  redoDetails?: ChangeDetailView[];
  /** The page it happened on, by title, when the journal names one (undo dialogs group by it). */
  page?: string;
  /**
   * For an undo: the lines of the agents' changes it took back (in part: said so); for a redo,
   * those it put back.
   */
  undid?: string[];
  /** For an undo: the lines of the changes it set out to undo but left alone (changed since, or failed). */
  leftAlone?: string[];
}

export interface ActivityStepView {
  status:
    'undone' | 'would-undo' | 'already-undone' | 'conflict' | 'not-undoable' | 'nothing-to-undo' | 'failed';
  detail: string;
  /** Parts left alone because someone changed them since. */
  conflicts?: string[];
}

/** One chat: an AI client's session, or a person's undos in Roam Companion. */
export interface ActivityChatView {
  id: string;
  /** The client's name ("Claude Desktop"), when it said. */
  client?: string;
  kind: 'agent' | 'person';
  /** Through remote access (a tunnel), not a client on this computer. */
  remote?: true;
  startedAt: string;
  /** The graphs it changed, by nickname when the tray knows them. */
  graphs: string[];
  /** Newest first. */
  changes: ActivityChangeView[];
}

export interface ActivityFeedView {
  /** Most recently active first; at most ACTIVITY_FEED_LIMIT changes in all. */
  chats: ActivityChatView[];
  /** Changes agents made since local midnight (undos by people not counted). */
  today: number;
  /** True when older changes exist than the feed shows. */
  truncated: boolean;
}

export interface ActivityUndoReportView {
  dryRun: boolean;
  changes: Array<{ id: string; summary: string; result: string; steps: ActivityStepView[] }>;
  /** Changes taken back completely (or that would be). */
  undone: number;
  /** Steps and parts left alone because someone changed them since. */
  conflicts: number;
}

/** A channel's result type, as a value TypeScript reads the type from; never read at run time. */
function returns<T>(): T {
  return undefined as T;
}

/**
 * Renderer → main requests, one entry per channel: its input schema (main validates every request
 * with it) and its result type (`returns<T>()`, a type only). The channel names are also in
 * constants.ts, zod-free, for the preload; `satisfies` keeps the two the same set.
 */
export const requests = {
  'graphs:list': { input: z.void(), result: returns<GraphView[]>() },
  'graphs:available': { input: z.void(), result: returns<AvailableGraph[]>() },
  'graphs:add': { input: addGraphInputSchema, result: returns<GraphView>() },
  'graphs:update': { input: updateGraphInputSchema, result: returns<GraphView>() },
  'graphs:remove': { input: z.object({ id: graphIdSchema }), result: returns<void>() },
  /** `exceptId`: the graph being edited; `name`: the graph being added (its name is a label too). */
  'graphs:check-nickname': {
    input: z.object({
      nickname: z.string(),
      exceptId: graphIdSchema.optional(),
      name: z.string().optional(),
    }),
    result: returns<{ ok: true } | { ok: false; message: string }>(),
  },
  'tokens:request': {
    input: z.object({ id: graphIdSchema, accessLevel: accessLevelSchema.optional() }),
    result: returns<TokenRequestView>(),
  },
  'tokens:cancel': { input: z.object({ id: graphIdSchema }), result: returns<void>() },
  'tokens:requests': { input: z.void(), result: returns<TokenRequestView[]>() },
  /** Forgets a finished request, so its panel stays dismissed after a reload. */
  'tokens:dismiss': { input: z.object({ id: graphIdSchema }), result: returns<void>() },
  'blocked:list': { input: z.void(), result: returns<BlockedGraphView[]>() },
  'blocked:retry': { input: z.object({ id: graphIdSchema }), result: returns<TokenRequestView>() },
  'clients:list': { input: z.void(), result: returns<ClientView[]>() },
  'clients:preview': {
    input: z.object({
      id: clientIdSchema,
      action: z.enum(['install', 'uninstall']),
      toolsets: toolsetsSchema.optional(),
    }),
    result: returns<ClientChangeView>(),
  },
  /** `toolsets`: written into the entry as `--tools …` (replacing the entry's old choice). */
  'clients:install': {
    input: z.object({ id: clientIdSchema, toolsets: toolsetsSchema.optional() }),
    result: returns<ClientChangeOutcome>(),
  },
  'clients:uninstall': { input: z.object({ id: clientIdSchema }), result: returns<ClientChangeOutcome>() },
  /**
   * A client connected over HTTP: its key's toolsets become `toolsets` (its config is not touched;
   * its new chats get them).
   */
  'clients:set-toolsets': {
    input: z.object({ id: clientIdSchema, toolsets: toolsetsSchema }),
    result: returns<ClientView>(),
  },
  /** Claude Code's command with a new key, written to the clipboard by main (ClientView.commandKey). */
  'clients:copy-command': {
    input: z.object({ id: z.literal('claude-code') }),
    result: returns<{ copied: true; keyName: string }>(),
  },
  'status:get': { input: z.void(), result: returns<AppStatus>() },
  'roam:open': { input: z.void(), result: returns<void>() },
  /** Starts a restarting HTTP server now instead of after its backoff. */
  'http:retry': { input: z.void(), result: returns<void>() },
  'settings:get': { input: z.void(), result: returns<AppSettings>() },
  'settings:set': {
    input: z.object({
      launchAtLogin: z.boolean().optional(),
      defaultAccessLevel: accessLevelSchema.optional(),
      /**
       * Replaces the list; running MCP servers apply it at once. A folder not yet in the list must
       * be an existing folder, absolute, in no hidden folder (checked by the core, which says why).
       */
      uploadFolders: z.array(z.string().min(1).max(4096)).max(50).optional(),
      /** Running MCP servers apply it from their next call (unless started with --confirm). */
      confirm: confirmPolicySchema.optional(),
    }),
    result: returns<AppSettings>(),
  },
  'import:check': {
    input: z.void(),
    result: returns<{ available: boolean; path: string; graphCount: number }>(),
  },
  'import:run': { input: z.void(), result: returns<GraphView[]>() },
  /** "Not now": the offer is not shown again. */
  'import:dismiss': { input: z.void(), result: returns<void>() },
  'activity:list': { input: z.void(), result: returns<ActivityFeedView>() },
  /** Undo these changes, or a whole chat; `dryRun` reports what would change and writes nothing. */
  'activity:undo': {
    input: z
      .object({
        ids: z.array(z.string().min(1)).min(1).max(500).optional(),
        chat: z.string().min(1).optional(),
        /** With `chat`: only its changes to this graph (by Roam's name). */
        graph: z.string().min(1).optional(),
        dryRun: z.boolean(),
      })
      .refine((r) => (r.ids === undefined) !== (r.chat === undefined), {
        message: 'Name either the changes (ids) or a chat to undo',
      }),
    result: returns<ActivityUndoReportView>(),
  },
  /** Changes an agent asked for that wait for the person (docs/tray.md, "Approvals"). */
  'proposals:list': { input: z.void(), result: returns<ProposalView[]>() },
  /** The person's answer; refused (NOT_FOUND) once it no longer waits (answered in the chat, expired). */
  'proposals:answer': {
    input: z.strictObject({ id: z.string().min(1).max(40), answer: z.enum(['approve', 'keep']) }),
    result: returns<ProposalAnswerView>(),
  },
  /** The keys HTTP clients connect with (names only: a key is shown once, where it is made). */
  'keys:list': { input: z.void(), result: returns<KeyView[]>() },
  'keys:revoke': { input: z.object({ name: z.string().min(1).max(64) }), result: returns<KeyView[]>() },
  /** Remote access (docs/remote.md): the switch, the sign-ins waiting at this machine, the connections. */
  'remote:get': { input: z.void(), result: returns<RemoteView>() },
  /** `publicUrl`: the tunnel's https origin (checked by the core, which says what is wrong). */
  'remote:turn-on': {
    input: z.strictObject({ publicUrl: z.string().trim().min(1).max(2048) }),
    result: returns<RemoteView>(),
  },
  /** Ends every connection and waiting sign-in; the tunnel's port then refuses everything. */
  'remote:turn-off': { input: z.void(), result: returns<RemoteView>() },
  /**
   * `level`: caps every graph for its chats (absent: each graph's own); `toolsets`: what its chats
   * get; `graphs`: the ids (GraphView.id) of the only graphs they reach (absent: every graph).
   */
  'remote:approve': {
    input: z.strictObject({
      id: remoteIdSchema,
      level: accessLevelSchema.optional(),
      toolsets: toolsetsSchema.optional(),
      graphs: z.array(z.string().min(1).max(600)).min(1).max(200).optional(),
    }),
    result: returns<RemoteView>(),
  },
  'remote:deny': { input: z.strictObject({ id: remoteIdSchema }), result: returns<RemoteView>() },
  'remote:revoke': { input: z.strictObject({ id: remoteIdSchema }), result: returns<RemoteView>() },
  /** roam-mcp doctor's checks, redacted, put on the clipboard by main (for a bug report). */
  'diagnostics:copy': {
    input: z.void(),
    result: returns<{ copied: true; problems: number; warnings: number }>(),
  },
} as const satisfies Record<RequestChannel, { input: z.ZodType; result: unknown }>;

/** A change waiting for the person, as they read it: no uid, no hidden text, no code, no file address. */
export type ProposalView = ShownProposalMessage;
/** What became of the person's answer: `done` false when it came too late. */
export interface ProposalAnswerView {
  done: boolean;
  outcome: string;
}

/** A key as the tray shows it: never the key, never its hash. */
export interface KeyView {
  name: string;
  /** Caps every graph for the key's chats; absent: the graphs' own levels. */
  access?: AccessLevel;
  createdAt: string;
  /** The clients on this screen whose entries carry it (none: made with `roam-mcp key create`, or its client's entry is gone). */
  usedBy: string[];
}

/** A sign-in waiting at this machine, as the person matches it with the page: never a secret. */
export interface RemoteRequestView {
  id: string;
  /** The code the sign-in page shows. */
  code: string;
  clientName: string;
  /** false: the name is the client's own claim (it registered itself). */
  verified: boolean;
  /** Where the answer goes. */
  redirectHost: string;
  scopes: string[];
  expiresAt: string;
}

/** A remote connection: never a token. */
export interface RemoteConnectionView {
  id: string;
  clientName: string;
  verified: boolean;
  redirectHost: string;
  /** Caps every graph for its chats; absent: each graph's own level. */
  level?: AccessLevel;
  /** Absent: the server's default toolsets. */
  toolsets?: string[];
  /** The nicknames of the only graphs its chats reach (a graph since removed: its id); absent: every graph. */
  graphs?: string[];
  createdAt: string;
  usedAt?: string;
}

export interface RemoteView {
  /** Served: the tray starts its HTTP server with the tunnel's listener, and the switch is on. */
  on: boolean;
  /** The tunnel's address (kept when off, to turn it on again). */
  publicUrl?: string;
  /** The loopback port the tunnel must point at; kept, so the tunnel keeps pointing at it. */
  localPort?: number;
  /** The listener answers on that port now. */
  listening: boolean;
  /** Oldest first. */
  waiting: RemoteRequestView[];
  connections: RemoteConnectionView[];
}

/** What each channel answers. */
export type RequestResults = { [C in RequestChannel]: (typeof requests)[C]['result'] };

/** What the renderer sends on channel C. */
export type RequestInput<C extends RequestChannel> = z.input<(typeof requests)[C]['input']>;
/** What a handler of channel C gets, once validated. */
export type RequestArgs<C extends RequestChannel> = z.output<(typeof requests)[C]['input']>;
/** The main process's implementation of every channel: a handler's result type is checked here. */
export type RequestHandlers = {
  [C in RequestChannel]: (input: RequestArgs<C>) => Promise<RequestResults[C]>;
};

/** Main → renderer events. Token state arrives as events, never by polling. */
export interface EventPayloads {
  'graphs:changed': GraphView[];
  'tokens:request-changed': TokenRequestView;
  /** The state a finished request described is gone (graph removed, token replaced, Roam back): drop its panel. */
  'tokens:request-removed': { graphId: string; startedAt: number };
  'blocked:changed': BlockedGraphView[];
  'clients:changed': ClientView[];
  'status:changed': AppStatus;
  /** A `roam-companion://graph/<type>/<name>` deep link asks the manager to show that graph. */
  'app:navigate': { graphId: string };
  /** Something was added to the change journal (by any process): the new feed. */
  'activity:changed': ActivityFeedView;
  /** The tray menu asks the manager to show Activity. */
  'activity:show': Record<string, never>;
  /** The changes waiting for the person now (one came, or one closed). */
  'proposals:changed': ProposalView[];
  /** A notification or the tray menu asks the manager to show the waiting changes. */
  'proposals:show': Record<string, never>;
  /** A sign-in came or went, a connection changed, or the switch moved (by any process). */
  'remote:changed': RemoteView;
}

/** Codes a handler error carries; the message always says what happened and what to do next. */
export type IpcErrorCode =
  | 'INVALID_INPUT'
  | 'VALIDATION'
  | 'NOT_FOUND'
  | 'ROAM_NOT_RUNNING'
  | 'UNAVAILABLE'
  | 'FORBIDDEN_SENDER'
  | 'INTERNAL';

/** Errors cross IPC as data, with what happened and what to do next. */
export interface IpcErrorPayload {
  code: IpcErrorCode | (string & {});
  message: string;
}

/**
 * The API the preload exposes (and the browser bridge implements): one method per allow-listed
 * channel, e.g. `api['graphs:add']({name})` — no generic invoke of arbitrary channels.
 */
export type RoamCompanionApi = {
  [C in RequestChannel]: (input: RequestInput<C>) => Promise<RequestResults[C]>;
} & {
  on<E extends EventChannel>(event: E, listener: (payload: EventPayloads[E]) => void): () => void;
};
