/** One thing `roam-mcp doctor` checked, and where it looks. */
import type { Launcher } from '../installers/installer-options.ts';

export type CheckStatus = 'ok' | 'warn' | 'fail' | 'skip';

export interface Check {
  /** What part of the setup: node, roam, graphs, clients, http, journal, files. */
  section: string;
  /** What was checked ("graph Work", "Cursor"). */
  name: string;
  status: CheckStatus;
  /** What was found. */
  detail: string;
  /** What to do about it, when it is not ok. */
  fix?: string;
}

export interface DoctorOptions {
  home: string;
  env: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  /** `--config PATH`, as for the server. */
  configPath?: string;
  /** What our client entries should launch (the CLI's own copy; the tray's app). */
  launcher: Launcher;
  /** The data folder (journal, keys, the HTTP server's address); default: the machine's. */
  dataDir?: string;
  /** How long to wait for Roam Desktop or the HTTP server to answer. */
  timeoutMs?: number;
}
