/**
 * The one typed map of IPC between the tray's main process and the renderer (GitHub Desktop's
 * ipc-shared style). Main validates every request with these zod schemas and checks the sender;
 * the preload exposes exactly these methods; the browser preview bridges them over HTTP.
 * Nothing here ever carries a token: only its state and last 4 characters.
 */
import * as z from 'zod';
import { TOOLSET_NAMES } from './toolsets.ts';

const toolsetsSchema = z.array(z.enum(TOOLSET_NAMES)).min(1);
import {
  ACCESS_LEVELS,
  GRAPH_TYPES,
  type AccessLevel,
  type EventChannel,
  type GraphType,
  type RequestChannel,
} from './constants.ts';

export type { EventChannel, RequestChannel };

export const graphIdSchema = z.string().min(1); // graphId() in constants.ts
export const accessLevelSchema = z.enum(ACCESS_LEVELS);
export const clientIdSchema = z.enum(['claude-desktop', 'cursor', 'vscode', 'claude-code']);
export type ClientId = z.infer<typeof clientIdSchema>;

export type TokenState = 'ok' | 'missing' | 'revoked' | 'blocked' | 'waiting';

export interface GraphView {
  id: string;
  name: string;
  type: GraphType;
  nickname: string;
  description?: string;
  /** Level to request / the level the stored token was granted. */
  accessLevel: AccessLevel;
  enabled: boolean;
  token: { state: TokenState; last4?: string };
}

export type TokenRequestStatus =
  'waiting' | 'approved' | 'rejected' | 'blocked' | 'timeout' | 'in-progress' | 'cancelled' | 'error';

export interface TokenRequestView {
  graphId: string;
  status: TokenRequestStatus;
  requestedAccessLevel: AccessLevel;
  grantedAccessLevel?: AccessLevel;
  /** True when Roam granted less than was asked (e.g. the user is a reader). */
  downgraded?: boolean;
  startedAt: number;
  /** When Roam gives up waiting for the user (5 minutes after the start). */
  expiresAt: number;
  message?: string;
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

export type ClientInstallState = 'installed' | 'not-installed' | 'stale' | 'unavailable';
export interface ClientView {
  id: ClientId;
  name: string;
  configPath?: string;
  state: ClientInstallState;
  /** For Claude Code: the command to paste into a terminal. */
  command?: string;
  message?: string;
  /** Options the user added to our entry, kept when it is updated (env: variable names only). */
  customOptions?: { args: string[]; env: string[] };
  /** The toolsets the entry chooses (`--tools`); absent: the server's default (docs/mcp.md, Toolsets). */
  toolsets?: string[];
}

export interface ClientChangePreview {
  id: ClientId;
  configPath: string;
  action: 'install' | 'uninstall';
  before: string | null;
  after: string | null;
}

/** What the install/uninstall preview shows: the change plus its diff. */
export interface ClientChangeView extends ClientChangePreview {
  /** before → after as the CLI's `--dry-run` shows it: lines marked "  ", "- " or "+ ". */
  diff: string;
}

export interface AppStatus {
  roam: { running: boolean; port: number; checkedAt: number };
  mcpSessions: number;
  /**
   * How tokens are encrypted at rest: safeStorage's backend ('keychain', 'dpapi',
   * 'gnome_libsecret', 'basic_text', ...) or 'preview-file-key'. `warning` is set when the
   * protection is weak (Linux basic_text fallback, preview key) and says what to do.
   */
  storage?: { backend: string; warning?: string };
}

export interface AppSettings {
  launchAtLogin: boolean;
  defaultAccessLevel: AccessLevel;
  /** Folders file_upload may read local files from (absolute paths; none by default). Always sent by the core. */
  uploadFolders?: string[];
}

/** An upload folder as the settings take it: absolute, and no dot-folder anywhere in it. */
export const uploadFolderSchema = z
  .string()
  .refine((p) => p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('\\\\'), {
    message: 'An upload folder must be an absolute path (choose it with the folder picker).',
  })
  .refine((p) => !p.split(/[\\/]/).some((part) => part.startsWith('.')), {
    message:
      'Folders with a dot-folder in their path (like ~/.config) cannot be upload folders: agents never read dot-files or dot-folders. Choose another folder.',
  });

export interface AvailableGraph {
  name: string;
  type: GraphType;
}

export const addGraphInputSchema = z.object({
  name: z.string().trim().min(1, 'Graph name is required'),
  type: z.enum(GRAPH_TYPES).default('hosted'),
  nickname: z.string().trim().optional(),
  description: z.string().optional(),
  accessLevel: accessLevelSchema.optional(),
});
export const updateGraphInputSchema = z.object({
  id: graphIdSchema,
  nickname: z.string().trim().min(1).optional(),
  description: z.string().optional(),
  accessLevel: accessLevelSchema.optional(),
  enabled: z.boolean().optional(),
});

/** Renderer → main requests: channel → [input schema, result type]. */
export const requestSchemas = {
  'graphs:list': z.void(),
  'graphs:available': z.void(),
  'graphs:add': addGraphInputSchema,
  'graphs:update': updateGraphInputSchema,
  'graphs:remove': z.object({ id: graphIdSchema }),
  /** `exceptId`: the graph being edited; `name`: the graph being added (its name is a label too). */
  'graphs:check-nickname': z.object({
    nickname: z.string(),
    exceptId: graphIdSchema.optional(),
    name: z.string().optional(),
  }),
  'tokens:request': z.object({ id: graphIdSchema, accessLevel: accessLevelSchema.optional() }),
  'tokens:cancel': z.object({ id: graphIdSchema }),
  'tokens:requests': z.void(),
  /** Forgets a finished request, so its panel stays dismissed after a reload. */
  'tokens:dismiss': z.object({ id: graphIdSchema }),
  'blocked:list': z.void(),
  'blocked:retry': z.object({ id: graphIdSchema }),
  'clients:list': z.void(),
  'clients:preview': z.object({
    id: clientIdSchema,
    action: z.enum(['install', 'uninstall']),
    toolsets: toolsetsSchema.optional(),
  }),
  /** `toolsets`: written into the entry as `--tools …` (replacing the entry's old choice). */
  'clients:install': z.object({ id: clientIdSchema, toolsets: toolsetsSchema.optional() }),
  'clients:uninstall': z.object({ id: clientIdSchema }),
  'status:get': z.void(),
  'roam:open': z.void(),
  'settings:get': z.void(),
  'settings:set': z.object({
    launchAtLogin: z.boolean().optional(),
    defaultAccessLevel: accessLevelSchema.optional(),
    /** Replaces the list; running MCP servers apply it at once. */
    uploadFolders: z.array(uploadFolderSchema).max(50).optional(),
  }),
  'import:check': z.void(),
  'import:run': z.void(),
  /** "Not now": the offer is not shown again. */
  'import:dismiss': z.void(),
} as const satisfies Record<RequestChannel, z.ZodType>;

export interface RequestResults {
  'graphs:list': GraphView[];
  'graphs:available': AvailableGraph[];
  'graphs:add': GraphView;
  'graphs:update': GraphView;
  'graphs:remove': void;
  'graphs:check-nickname': { ok: true } | { ok: false; message: string };
  'tokens:request': TokenRequestView;
  'tokens:cancel': void;
  'tokens:dismiss': void;
  'tokens:requests': TokenRequestView[];
  'blocked:list': BlockedGraphView[];
  'blocked:retry': TokenRequestView;
  'clients:list': ClientView[];
  'clients:preview': ClientChangeView;
  'clients:install': ClientView;
  'clients:uninstall': ClientView;
  'status:get': AppStatus;
  'roam:open': void;
  'settings:get': AppSettings;
  'settings:set': AppSettings;
  'import:check': { available: boolean; path: string; graphCount: number };
  'import:run': GraphView[];
  'import:dismiss': void;
}

export type RequestInput<C extends RequestChannel> = z.input<(typeof requestSchemas)[C]>;

/** Main → renderer events. Token state arrives as events, never by polling. */
export interface EventPayloads {
  'graphs:changed': GraphView[];
  'tokens:request-changed': TokenRequestView;
  'blocked:changed': BlockedGraphView[];
  'clients:changed': ClientView[];
  'status:changed': AppStatus;
  /** A `roam-companion://graph/<type>/<name>` deep link asks the manager to show that graph. */
  'app:navigate': { graphId: string };
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
