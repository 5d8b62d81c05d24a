/**
 * Claude Code keeps its servers in its own state file, which it rewrites constantly, so we never
 * write it: the user runs `claude mcp add`, and we only read the file to report the status.
 */
import { readFile } from 'node:fs/promises';
import type { ClientView } from '../../src-shared/clients.ts';
import type { ClientSpec } from './client-catalogue.ts';
import { clientEntryState } from './client-entry-state.ts';
import { SERVER_KEY, type InstallerOptions } from './installer-options.ts';
import { quoteForShell } from './launcher.ts';
import { onPath } from './client-locations.ts';
import path from 'node:path';
import { writeFileAtomic } from '../../src-shared/node/atomic-write.ts';
import { dataDir, ensureDataSubdir } from '../../src-shared/node/data-dir.ts';
import { HEADERS_FILE, headersHelperFor } from './claude-code-headers.ts';
import { dataDirOptions } from './http-entry.ts';

type DataDirContext = Pick<InstallerOptions, 'home' | 'env' | 'platform' | 'dataDir'>;

/** Where Claude Code's headers wait (written by an install, or shown by its dry run). */
export const claudeCodeHeadersPath = (opts: DataDirContext) =>
  path.join(dataDir(dataDirOptions(opts)), HEADERS_FILE);

/**
 * Writes the headers Claude Code sends, `Authorization: Bearer <key>`, into the data folder (0700),
 * readable by the owner alone; its entry's helper prints them (claude-code-headers.ts).
 */
export async function writeClaudeCodeHeaders(opts: DataDirContext, key: string): Promise<string> {
  await ensureDataSubdir('.', dataDirOptions(opts));
  const file = claudeCodeHeadersPath(opts);
  await writeFileAtomic(file, `${JSON.stringify({ Authorization: `Bearer ${key}` })}\n`, 0o600);
  return file;
}

/**
 * The command that adds our server to Claude Code for every project of this user: launching
 * roam-mcp over stdio, or (`opts.http`) pointing at the HTTP server. The CLI's (`headersFile` set)
 * names only the file its key waits in, for Claude Code's headersHelper to print; the tray's
 * carries the key in a header, copied to the clipboard from its main process.
 */
export function claudeCodeAddCommand(opts: Pick<InstallerOptions, 'launcher' | 'platform' | 'http'>): string {
  const platform = opts.platform ?? process.platform;
  if (opts.http?.headersFile) {
    const entry = {
      type: 'http',
      url: opts.http.url,
      headersHelper: headersHelperFor(opts.http.headersFile),
    };
    return `claude mcp add-json --scope user ${SERVER_KEY} ${quoteForShell(JSON.stringify(entry), platform)}`;
  }
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

/** How the CLI says to connect Claude Code over HTTP again (the key is made, and shown, there). */
const CLAUDE_CODE_HTTP_INSTALL = 'roam-mcp install claude-code --transport http';

/**
 * Claude Code's view: the command to paste, and the state as far as its file tells. An entry is
 * judged by how it connects (client-entry-state.ts): an http entry is installed while its URL and
 * key work, and is never told to move to stdio. The command follows `opts.http` (over HTTP without
 * a key, the tray's view, it shows `<key>`, and only its copy holds the key); without it, an http
 * entry is fixed by the CLI, which makes the key and prints the command.
 */
export async function claudeCodeView(spec: ClientSpec, opts: InstallerOptions): Promise<ClientView> {
  const location = await spec.locate(opts);
  const servers = await readServers(location.configPath);
  const found =
    servers === 'unreadable' ? undefined : await clientEntryState(spec, servers?.[SERVER_KEY], opts);
  const httpFromCli = !opts.http && found?.transport === 'http';
  const command = httpFromCli ? CLAUDE_CODE_HTTP_INSTALL : claudeCodeAddCommand(opts);
  const base = {
    id: spec.id,
    name: spec.name,
    configPath: location.configPath,
    command,
    ...(found?.transport ? { transport: found.transport } : {}),
  };
  const runIt = opts.http && !opts.http.key ? 'copy this command and run it' : 'run this command';
  const onThisComputer =
    servers !== undefined || location.clientDirExists || (await onPath(spec.program!, opts));
  if (!onThisComputer) {
    return {
      ...base,
      state: 'unavailable',
      message: `Claude Code was not found on this computer. Install it, then ${runIt} in a terminal.`,
    };
  }
  if (!found) {
    return {
      ...base,
      state: 'not-installed',
      message: `Could not read ${location.configPath} to check. ${capitalised(runIt)} in a terminal to connect Claude Code.`,
    };
  }
  const { state, message, customOptions, toolsets } = found;
  const more = { ...(customOptions ? { customOptions } : {}), ...(toolsets ? { toolsets } : {}) };
  if (state === 'installed') {
    return {
      ...base,
      ...more,
      state,
      message: [
        `Connected for all your projects${found.transport === 'http' ? ' over HTTP' : ''}. To disconnect, run: ${CLAUDE_CODE_REMOVE_COMMAND}`,
        ...(message ? [message] : []),
      ].join(' '),
    };
  }
  if (state === 'stale') {
    const then = httpFromCli
      ? `then: ${CLAUDE_CODE_HTTP_INSTALL} (it makes a new key and prints the command to add).`
      : 'then this command.';
    return {
      ...base,
      ...more,
      state,
      message: `${message} First run: ${CLAUDE_CODE_REMOVE_COMMAND}, ${then}`,
    };
  }
  return { ...base, state, message: `${capitalised(runIt)} in a terminal to connect Claude Code.` };
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
