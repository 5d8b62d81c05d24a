/** The clients we can connect, what their config files look like and where they live. */
import type { ClientId } from '../../src-shared/ipc-contract.ts';
import {
  claudeCodeLocation,
  claudeDesktopLocation,
  cursorLocation,
  vscodeLocation,
  type ConfigLocation,
} from './client-locations.ts';
import type { ConfigSyntax } from './config-document.ts';
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
  locate(opts: Pick<InstallerOptions, 'home' | 'platform' | 'env'>): Promise<ConfigLocation>;
}

const commandAndArgs = (launcher: Launcher) => ({ command: launcher.command, args: [...launcher.args] });
/** The key rides in a header; without a key (a state check) only the address is compared. */
const urlAndKey = (target: HttpTarget) => ({
  url: target.url,
  ...(target.key ? { headers: { Authorization: `Bearer ${target.key}` } } : {}),
});

/** Every supported client, in the order the tray lists them. */
export const CLIENTS: readonly ClientSpec[] = [
  {
    id: 'claude-desktop',
    name: 'Claude Desktop',
    setup: 'file',
    syntax: 'json',
    serversKey: 'mcpServers',
    entryFor: commandAndArgs,
    locate: claudeDesktopLocation,
  },
  {
    id: 'claude-code',
    name: 'Claude Code',
    setup: 'command',
    syntax: 'json',
    serversKey: 'mcpServers',
    entryFor: (launcher) => ({ type: 'stdio', ...commandAndArgs(launcher) }),
    httpEntryFor: (target) => ({ type: 'http', ...urlAndKey(target) }),
    locate: claudeCodeLocation,
  },
  {
    id: 'cursor',
    name: 'Cursor',
    setup: 'file',
    syntax: 'json',
    serversKey: 'mcpServers',
    entryFor: commandAndArgs,
    httpEntryFor: urlAndKey,
    locate: cursorLocation,
  },
  {
    id: 'vscode',
    name: 'VS Code',
    setup: 'file',
    syntax: 'jsonc',
    serversKey: 'servers',
    entryFor: (launcher) => ({ type: 'stdio', ...commandAndArgs(launcher) }),
    httpEntryFor: (target) => ({ type: 'http', ...urlAndKey(target) }),
    locate: vscodeLocation,
  },
];

/** The entry `opts` asks for: over HTTP when asked and the client speaks it, else stdio. */
export function desiredEntry(spec: ClientSpec, opts: InstallerOptions): Record<string, unknown> {
  return opts.http && spec.httpEntryFor ? spec.httpEntryFor(opts.http) : spec.entryFor(opts.launcher);
}

export function clientSpec(id: ClientId): ClientSpec {
  const spec = CLIENTS.find((client) => client.id === id);
  if (!spec)
    throw new Error(`Unknown client "${id}". Known clients: ${CLIENTS.map((c) => c.id).join(', ')}.`);
  return spec;
}
