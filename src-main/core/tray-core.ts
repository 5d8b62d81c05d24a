/**
 * The tray's logic in plain Node (no electron): graph store, token requests, client installers,
 * Roam status, MCP child supervisor, and the IPC handlers as plain functions. The Electron shell,
 * the `--mcp` launcher and the browser preview (demo) all run this same core.
 *
 * This file fixes the facade other parts build on; the tray issue implements it.
 */
import type {
  EventChannel,
  EventPayloads,
  RequestChannel,
  RequestResults,
} from '../../src-shared/ipc-contract.ts';

/** Encrypts tokens at rest: Electron's safeStorage in the app, a file-keyed box in the preview/tests. */
export interface SecretBox {
  /** e.g. 'keychain', 'dpapi', 'gnome_libsecret', 'basic_text' (Linux fallback: warn the user). */
  readonly backend: string;
  encrypt(plain: string): Promise<Uint8Array>;
  decrypt(cipher: Uint8Array): Promise<string>;
}

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
}

export type CoreHandlers = {
  [C in RequestChannel]: (input: unknown) => Promise<RequestResults[C]>;
};

export interface TrayCore {
  /** One handler per IPC channel; each validates its input with the contract's zod schema. */
  handlers: CoreHandlers;
  on<E extends EventChannel>(event: E, listener: (payload: EventPayloads[E]) => void): () => void;
  close(): Promise<void>;
}
