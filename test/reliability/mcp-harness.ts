/**
 * Reliability test support: the built `roam-mcp` bin over stdio with the SDK Client, in a temp
 * HOME, against the Local API emulator over real HTTP. Everything the bin writes to stderr is
 * kept so tests can assert on it (secrets, crashes).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const BIN = path.join(ROOT, 'dist/roam-mcp.mjs');

/** A syntactically valid local token: prefix + 29 characters. */
export function makeToken(tag: string): string {
  const body = `${tag}${'x'.repeat(29)}`.slice(0, 29).replace(/[^A-Za-z0-9_-]/g, 'x');
  return `roam-graph-local-token-${body}`;
}

export async function tempHome(prefix = 'roam-rel-'): Promise<{ home: string; cleanup(): Promise<void> }> {
  const home = await mkdtemp(path.join(tmpdir(), prefix));
  return { home, cleanup: () => rm(home, { recursive: true, force: true }) };
}

/** The environment of a bin: HOME only, never launching Roam, fast "not running" answers. */
export function binEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: home,
    USERPROFILE: home,
    ROAM_MCP_NO_LAUNCH: '1',
    ROAM_MCP_ROAM_WAIT_MS: '1500',
    ...extra,
  };
}

export interface McpChild {
  client: Client;
  transport: StdioClientTransport;
  stderr(): string;
  pid(): number | undefined;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

/** Spawns the bin and completes the MCP handshake. */
export async function startBin(options: {
  home: string;
  env?: Record<string, string>;
  args?: string[];
}): Promise<McpChild> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, ...(options.args ?? [])],
    env: binEnv(options.home, options.env),
    cwd: options.home,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new Client({ name: 'reliability-tests', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    transport,
    stderr: () => stderr,
    pid: () => transport.pid ?? undefined,
    call: (name, args = {}) => client.callTool({ name, arguments: args }) as Promise<CallToolResult>,
    close: () => client.close(),
  };
}

/** All text of a tool result, joined. */
export function textOf(result: CallToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : JSON.stringify(part))).join('\n');
}

/** The `{error: {code}}` of an isError tool result, or undefined for a success. */
export function errorCode(result: CallToolResult): string | undefined {
  if (!result.isError) return undefined;
  const first = result.content[0];
  if (!first || first.type !== 'text') return 'NO_TEXT';
  try {
    return (JSON.parse(first.text) as { error?: { code?: string } }).error?.code ?? 'NO_CODE';
  } catch {
    return 'NOT_JSON';
  }
}

/** Writes ~/.roam-tools.json for one or more graphs. */
export function toolsConfig(graphs: Array<{ name: string; token?: string; nickname?: string }>): string {
  return JSON.stringify({ version: 1, graphs: graphs.map((g) => ({ type: 'hosted', ...g })) }, null, 2);
}
