/**
 * Claude Code keeps its servers in its own state file, which it rewrites constantly, so we never
 * write it: the user runs `claude mcp add`, and we only read the file to report the status.
 */
import { readFile } from 'node:fs/promises';
import type { ClientView } from '../../src-shared/ipc-contract.ts';
import { desiredEntry, type ClientSpec } from './client-catalogue.ts';
import { entryState } from './entry-state.ts';
import { SERVER_KEY, type InstallerOptions } from './installer-options.ts';
import { quoteForShell } from './launcher.ts';

/**
 * The command that adds our server to Claude Code for every project of this user: launching
 * roam-mcp over stdio, or (`opts.http`) pointing at the HTTP server with the client's key in a
 * header — the one place that key is shown, as the user pastes it.
 */
export function claudeCodeAddCommand(opts: Pick<InstallerOptions, 'launcher' | 'platform' | 'http'>): string {
  const platform = opts.platform ?? process.platform;
  if (opts.http) {
    const header = `Authorization: Bearer ${opts.http.key ?? '<key>'}`;
    return `claude mcp add --scope user --transport http ${SERVER_KEY} ${quoteForShell(opts.http.url, platform)} --header ${quoteForShell(header, platform)}`;
  }
  const parts = [opts.launcher.command, ...opts.launcher.args].map((part) => quoteForShell(part, platform));
  return `claude mcp add --scope user ${SERVER_KEY} -- ${parts.join(' ')}`;
}

/** The command that removes it again. */
export const CLAUDE_CODE_REMOVE_COMMAND = `claude mcp remove --scope user ${SERVER_KEY}`;

async function readServers(file: string): Promise<Record<string, unknown> | undefined | 'unreadable'> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : 'unreadable';
  }
  try {
    const root: unknown = JSON.parse(text);
    const servers = (root as { mcpServers?: unknown } | null)?.mcpServers;
    return typeof servers === 'object' && servers !== null ? (servers as Record<string, unknown>) : {};
  } catch {
    return 'unreadable';
  }
}

/**
 * Claude Code's view: always the command to paste, and the state as far as its file tells (an
 * http entry at `opts.http.url` is ours whatever its key: only hashes of keys are kept). Over HTTP
 * without a key (the tray's view) the command shows `<key>`, and only its copy holds the key.
 */
export async function claudeCodeView(spec: ClientSpec, opts: InstallerOptions): Promise<ClientView> {
  const location = await spec.locate(opts);
  const command = claudeCodeAddCommand(opts);
  const base = { id: spec.id, name: spec.name, configPath: location.configPath, command };
  const runIt = opts.http && !opts.http.key ? 'copy this command and run it' : 'run this command';
  const servers = await readServers(location.configPath);
  if (servers === undefined && !location.clientDirExists) {
    return {
      ...base,
      state: 'unavailable',
      message: `Claude Code was not found on this computer. Install it, then ${runIt} in a terminal.`,
    };
  }
  if (servers === 'unreadable') {
    return {
      ...base,
      state: 'not-installed',
      message: `Could not read ${location.configPath} to check. ${capitalised(runIt)} in a terminal to connect Claude Code.`,
    };
  }
  const { state, message, customOptions } = await entryState(servers?.[SERVER_KEY], desiredEntry(spec, opts));
  if (state === 'installed') {
    return {
      ...base,
      state,
      ...(customOptions ? { customOptions } : {}),
      message: `Connected for all your projects. To disconnect, run: ${CLAUDE_CODE_REMOVE_COMMAND}`,
    };
  }
  if (state === 'stale') {
    return {
      ...base,
      state,
      message: `${message} First run: ${CLAUDE_CODE_REMOVE_COMMAND}, then this command.`,
    };
  }
  return { ...base, state, message: `${capitalised(runIt)} in a terminal to connect Claude Code.` };
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
