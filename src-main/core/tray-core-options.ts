/** What the shell, the `--mcp` launcher and the preview pass to createTrayCore. */
import type { StoreBackend } from './store/tray-store.ts';
import type { SecretBox } from './store/secret-box.ts';
import type { McpSpawner } from './clients/mcp-launcher.ts';

export interface TrayCoreOptions {
  /** The user's home: client configs, `~/.roam-local-api.json`, `~/.roam-tools.json` live under it. */
  home: string;
  /** Where the core's own store file lives (electron-store's / conf's cwd). */
  storeDir: string;
  secretBox: SecretBox;
  /** Absolute path of the built `roam-mcp` bundle the `--mcp` child runs. */
  mcpServerPath: string;
  platform?: NodeJS.Platform;
  /** Opens `roam://` deep links (Electron's shell.openExternal in the app). */
  openExternal?(url: string): Promise<void>;
  /** What a client config entry should launch (the app binary with `--mcp`, or node + bundle). */
  launcher?: { command: string; args: string[] };
  /** The store (electron-store in the shell); defaults to conf in `storeDir` (same file format). */
  store?: StoreBackend;
  /**
   * Writes text to the clipboard from main (Electron's clipboard in the shell): how a command that
   * holds a key is copied without the renderer seeing it. Without it Claude Code stays on stdio.
   */
  writeClipboard?(text: string): void | Promise<void>;
  /** Applies the launch-at-login setting (app.setLoginItemSettings in the shell). */
  setLaunchAtLogin?(enabled: boolean): void | Promise<void>;
  /** Environment for locating client configs (APPDATA, XDG_CONFIG_HOME, ...); defaults to process.env. */
  env?: Record<string, string | undefined>;
  /** How often Roam's reachability and the MCP session count are re-checked; 0 = only on demand. Default 5000. */
  statusPollMs?: number;
  /**
   * The data folder whose change journal Activity shows (`<dataDir>/journal`); default: the
   * machine's (src-shared/node/data-dir.ts). The preview and the demo keep theirs in their temp HOME.
   */
  dataDir?: string;
  /**
   * Run the HTTP server every HTTP client connects to (src-main/core/clients/http-hub-child.ts), and
   * connect Cursor and VS Code to it with a key each. `spawn`: Electron's in the app; fork here.
   * `restartDelayMs`: the wait before each restart (tests: long, so only a retry starts it).
   */
  httpHub?: { port: number; spawn?: McpSpawner; restartDelayMs?: (attempt: number) => number };
}
