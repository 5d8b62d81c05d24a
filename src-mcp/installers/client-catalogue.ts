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
import type { InstallerOptions, Launcher } from './installer-options.ts';

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
  locate(opts: Pick<InstallerOptions, 'home' | 'platform' | 'env'>): Promise<ConfigLocation>;
}

const commandAndArgs = (launcher: Launcher) => ({ command: launcher.command, args: [...launcher.args] });

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
    locate: claudeCodeLocation,
  },
  {
    id: 'cursor',
    name: 'Cursor',
    setup: 'file',
    syntax: 'json',
    serversKey: 'mcpServers',
    entryFor: commandAndArgs,
    locate: cursorLocation,
  },
  {
    id: 'vscode',
    name: 'VS Code',
    setup: 'file',
    syntax: 'jsonc',
    serversKey: 'servers',
    entryFor: (launcher) => ({ type: 'stdio', ...commandAndArgs(launcher) }),
    locate: vscodeLocation,
  },
];

export function clientSpec(id: ClientId): ClientSpec {
  const spec = CLIENTS.find((client) => client.id === id);
  if (!spec)
    throw new Error(`Unknown client "${id}". Known clients: ${CLIENTS.map((c) => c.id).join(', ')}.`);
  return spec;
}
