/** The clients we can connect, what their config files look like and where they live. */
import { CLIENT_IDS, type ClientId } from '../../src-shared/clients.ts';
import {
  claudeCodeLocation,
  claudeDesktopLocation,
  codexLocation,
  cursorLocation,
  geminiCliLocation,
  vscodeLocation,
  type ConfigLocation,
} from './client-locations.ts';
import type { ConfigSyntax } from './config-document.ts';
import { headersFileOf } from './claude-code-headers.ts';
import { isPlainObject } from '../../src-shared/plain-object.ts';
import type { HttpTarget, InstallerOptions, Launcher } from './installer-options.ts';

export interface ClientSpec {
  id: ClientId;
  name: string;
  /** `file`: we edit its config; `command`: the user runs a command we give (Claude Code). */
  setup: 'file' | 'command';
  syntax: ConfigSyntax;
  /** The top-level key holding the server map. */
  serversKey: string;
  /** Our entry for this launcher, as the client expects it. */
  entryFor(launcher: Launcher): Record<string, unknown>;
  /** Our entry pointing at the HTTP server, for clients that speak Streamable HTTP. */
  httpEntryFor?(target: HttpTarget): Record<string, unknown>;
  /** The URL and key of an entry that connects over HTTP, as this client writes them; undefined for a launcher. */
  httpPartsOf?(entry: Record<string, unknown>): HttpEntryParts | undefined;
  /**
   * The command that runs the client, looked for on PATH: a CLI installed with npm or a package
   * manager is there before it ever ran and made its folder. For a `file` client, `install` then
   * makes the folder and its file as the client would (`newFileMode`).
   */
  program?: string;
  /** The mode the client gives its config file when it makes it, before the umask (default 0600). */
  newFileMode?: number;
  locate(opts: Pick<InstallerOptions, 'home' | 'platform' | 'env'>): Promise<ConfigLocation>;
}

/** What an http entry holds: where it connects, and its key (or the environment variable holding it). */
export interface HttpEntryParts {
  url: string;
  key?: string;
  keyEnv?: string;
  /** Claude Code's headersHelper of ours: the file its key is in (claude-code-headers.ts). */
  keyFile?: string;
}

/** The key in an `Authorization: Bearer <key>` header (the header's name in any case). */
function bearerIn(headers: unknown): string | undefined {
  if (!isPlainObject(headers)) return undefined;
  const name = Object.keys(headers).find((header) => header.toLowerCase() === 'authorization');
  const value = name === undefined ? undefined : headers[name];
  return typeof value === 'string' ? /^Bearer\s+(\S+)$/i.exec(value.trim())?.[1] : undefined;
}

/** The parts of an entry whose address is in `field` (`url`; Gemini CLI's `httpUrl`), key in a header. */
const partsIn =
  (field: string) =>
  (entry: Record<string, unknown>): HttpEntryParts | undefined => {
    const url = entry[field];
    if (typeof url !== 'string') return undefined;
    const key = bearerIn(entry.headers);
    return { url, ...(key ? { key } : {}) };
  };

const commandAndArgs = (launcher: Launcher) => ({ command: launcher.command, args: [...launcher.args] });
/** The key rides in a header; without a key (a state check) only the address is compared. */
const urlAndKey = (target: HttpTarget) => ({
  url: target.url,
  ...(target.key ? { headers: { Authorization: `Bearer ${target.key}` } } : {}),
});

/**
 * Every supported client's spec, by id: a client id without its spec, or a spec under another
 * client's id, does not compile.
 */
export const CLIENTS: { readonly [Id in ClientId]: ClientSpec & { id: Id } } = {
  'claude-desktop': {
    id: 'claude-desktop',
    name: 'Claude Desktop',
    setup: 'file',
    syntax: 'json',
    serversKey: 'mcpServers',
    entryFor: commandAndArgs,
    locate: claudeDesktopLocation,
  },
  'claude-code': {
    id: 'claude-code',
    name: 'Claude Code',
    setup: 'command',
    syntax: 'json',
    serversKey: 'mcpServers',
    entryFor: (launcher) => ({ type: 'stdio', ...commandAndArgs(launcher) }),
    httpEntryFor: (target) => ({ type: 'http', ...urlAndKey(target) }),
    httpPartsOf: (entry) => {
      const parts = partsIn('url')(entry);
      const keyFile = headersFileOf(entry.headersHelper);
      return parts && keyFile && !parts.key ? { ...parts, keyFile } : parts;
    },
    program: 'claude',
    locate: claudeCodeLocation,
  },
  cursor: {
    id: 'cursor',
    name: 'Cursor',
    setup: 'file',
    syntax: 'json',
    serversKey: 'mcpServers',
    entryFor: commandAndArgs,
    httpEntryFor: urlAndKey,
    httpPartsOf: partsIn('url'),
    locate: cursorLocation,
  },
  vscode: {
    id: 'vscode',
    name: 'VS Code',
    setup: 'file',
    syntax: 'jsonc',
    serversKey: 'servers',
    entryFor: (launcher) => ({ type: 'stdio', ...commandAndArgs(launcher) }),
    httpEntryFor: (target) => ({ type: 'http', ...urlAndKey(target) }),
    httpPartsOf: partsIn('url'),
    locate: vscodeLocation,
  },
  // Its `url` is an SSE endpoint; Streamable HTTP is `httpUrl` (its docs, tools/mcp-server.md).
  'gemini-cli': {
    id: 'gemini-cli',
    name: 'Gemini CLI',
    setup: 'file',
    syntax: 'jsonc',
    serversKey: 'mcpServers',
    entryFor: commandAndArgs,
    httpEntryFor: (target) => {
      const { url, ...key } = urlAndKey(target);
      return { httpUrl: url, ...key };
    },
    httpPartsOf: partsIn('httpUrl'),
    program: 'gemini',
    newFileMode: 0o666,
    locate: geminiCliLocation,
  },
  // Streamable HTTP with the key in a static header (`http_headers`), in the user's own config.toml
  // written 0600; an entry naming an environment variable instead (`bearer_token_env_var`) is read too.
  codex: {
    id: 'codex',
    name: 'Codex',
    setup: 'file',
    syntax: 'toml',
    serversKey: 'mcp_servers',
    entryFor: commandAndArgs,
    httpEntryFor: (target) => {
      const { headers, ...url } = urlAndKey(target);
      return { ...url, ...(headers ? { http_headers: headers } : {}) };
    },
    httpPartsOf: (entry) => {
      const parts = partsIn('url')({ url: entry.url, headers: entry.http_headers });
      const keyEnv = entry.bearer_token_env_var;
      return parts && typeof keyEnv === 'string' && !parts.key ? { ...parts, keyEnv } : parts;
    },
    program: 'codex',
    newFileMode: 0o600,
    locate: codexLocation,
  },
};

/** The specs in the order the tray and the CLI list them (src-shared/clients.ts, CLIENT_IDS). */
export const CLIENT_LIST: readonly ClientSpec[] = CLIENT_IDS.map((id) => CLIENTS[id]);

/** The entry `opts` asks for: over HTTP when asked and the client speaks it, else stdio. */
export function desiredEntry(spec: ClientSpec, opts: InstallerOptions): Record<string, unknown> {
  return opts.http && spec.httpEntryFor ? spec.httpEntryFor(opts.http) : spec.entryFor(opts.launcher);
}

export function clientSpec(id: ClientId): ClientSpec {
  if (!Object.hasOwn(CLIENTS, id))
    throw new Error(`Unknown client "${id}". Known clients: ${CLIENT_IDS.join(', ')}.`);
  return CLIENTS[id];
}
