/** What a client's config entry launches: the tray app with `--mcp`, or node with the roam-mcp bundle. */
export interface Launcher {
  command: string;
  args: string[];
  /** Set when the CLI runs from npx's cache and the entry runs `npx` instead (see launcher.ts). */
  npxCacheScript?: string;
}

/**
 * Where and for what the installers work. Everything platform-specific is injected so tests can
 * lay out macOS, Windows and Linux homes on any machine.
 */
export interface InstallerOptions {
  /** The user's home directory. */
  home: string;
  /** What our entry should launch (see `standaloneLauncher` for the CLI's). */
  launcher: Launcher;
  /** Defaults to `process.platform`. */
  platform?: NodeJS.Platform;
  /** Environment used for APPDATA, LOCALAPPDATA, XDG_CONFIG_HOME, CLAUDE_CONFIG_DIR. Defaults to `process.env`. */
  env?: Record<string, string | undefined>;
  /**
   * `--transport http`: the entry points the client at the HTTP server instead of launching one
   * (clients that speak HTTP; Claude Desktop stays stdio).
   */
  http?: HttpTarget;
  /**
   * The data folder holding the HTTP clients' keys and the running server's address, when it is not
   * the machine's (the tray's own); default: ROAM_COMPANION_DATA_DIR or the platform's.
   */
  dataDir?: string;
}

/** Where the HTTP server listens, and this client's key (docs/clients.md). */
export interface HttpTarget {
  url: string;
  /** Absent when only reading the state: keys are stored hashed, so any of ours matches. */
  key?: string;
  /** Claude Code from the CLI: the file holding its headers, which its entry's helper prints. */
  headersFile?: string;
}

/** The key our entry lives under in every client's server map; other keys are never touched. */
export const SERVER_KEY = 'roam-companion';
