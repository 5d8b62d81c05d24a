/**
 * The AI clients Roam Companion connects, as every process sees them: the installers
 * (src-mcp/installers) make these views, the `roam-mcp` CLI prints them, the tray sends them to its
 * renderer (which imports only these types). Imports nothing, so it costs the renderer nothing.
 */

/** Every client we can connect, in the order they are listed. */
export const CLIENT_IDS = [
  'claude-desktop',
  'claude-code',
  'cursor',
  'vscode',
  'gemini-cli',
  'codex',
] as const;
export type ClientId = (typeof CLIENT_IDS)[number];

export const isClientId = (value: string): value is ClientId =>
  (CLIENT_IDS as readonly string[]).includes(value);

/** How an entry reaches the server: the client starts roam-mcp itself, or connects to the HTTP server. */
export type ClientTransport = 'stdio' | 'http';

/** `config-error`: the client is there but its config file cannot be read or parsed (the tray's view). */
export type ClientInstallState = 'installed' | 'not-installed' | 'stale' | 'unavailable' | 'config-error';

export interface ClientView {
  id: ClientId;
  name: string;
  configPath?: string;
  state: ClientInstallState;
  /**
   * How it connects: `http` to our server with a key of its own, `stdio` launching roam-mcp for
   * each chat (the installers read it from the entry; for a client without our entry, the tray
   * sets how an install would connect it).
   */
  transport?: ClientTransport;
  /** Set when the tray would connect it over HTTP but its entry launches roam-mcp over stdio. */
  canSwitchToHttp?: boolean;
  /** For a client set up by command (Claude Code): the command to paste into a terminal. */
  command?: string;
  /**
   * For Claude Code over HTTP: the command shows `<key>` for the key, and copying it makes the key
   * of this name in main (replacing the old one) and copies the whole command there
   * (`clients:copy-command`): the renderer never sees a key.
   */
  commandKey?: string;
  message?: string;
  /** Options the user added to our entry, kept when it is updated (env: variable names only). */
  customOptions?: { args: string[]; env: string[] };
  /**
   * The toolsets the client's chats get: a stdio entry's `--tools`, an http entry's key's; absent:
   * the server's default (docs/mcp.md, Toolsets).
   */
  toolsets?: string[];
}

/** What an install or uninstall did: the client now, whether the file changed and where its old copy is. */
export interface ClientChangeOutcome {
  client: ClientView;
  /** False when the file already was as asked (nothing written, no backup). */
  changed: boolean;
  /** The copy of the file as it was just before this change (absent when the file was new). */
  backupPath?: string;
  /**
   * The file holds a key now, and group or others could read it: its mode lost their bits
   * (`from` → `to`, e.g. 0o644 → 0o600). Never set on Windows, where the profile's ACLs decide.
   */
  modeNarrowed?: { from: number; to: number };
  /** The client's folder, made by this install (a client on PATH that never ran), mode 0700. */
  madeDir?: string;
}

/** A change not made yet: the file's text before and after it, secrets hidden. */
export interface ClientChangePreview {
  id: ClientId;
  configPath: string;
  action: 'install' | 'uninstall';
  before: string | null;
  after: string | null;
  /** What the change would do to the file's mode and folder (see ClientChangeOutcome). */
  modeNarrowed?: { from: number; to: number };
  madeDir?: string;
}
