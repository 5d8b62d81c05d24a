/**
 * The one stdio test harness: the built bin (dist/roam-mcp.mjs) started the one way
 * (`binCommand`), in a temp HOME, driven over stdio by the SDK client of either line
 * (test/harness/sdk-client.ts, ROAM_TEST_CLIENT: v2 at 2026-07-28 by default, v1 at 2025-11-25),
 * with a transcript of everything the server said (results, notifications, stderr) so tests can
 * check that no token ever leaks.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { removeDir, scratchDir, tempDir } from './temp-dir.ts';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { SERVER_NODE } from '../server-node.ts';
import { connectStdioClient, type TestClient } from './sdk-client.ts';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const BIN = path.join(ROOT, 'dist/roam-mcp.mjs');

/**
 * How the bin is started, for every spawn in the tests: the Node under test (test/server-node.ts,
 * ROAM_TEST_NODE), its flags, the bin, its arguments.
 */
export function binCommand(args: string[] = [], nodeArgs: string[] = []): [string, string[]] {
  return [SERVER_NODE, [...nodeArgs, BIN, ...args]];
}

/** A fresh, well-formed local token (the emulator accepts any token it was given). */
/** The built bin run to its end with `args`, without blocking this process (an emulator may answer from here). */
export function runBin(
  args: string[],
  options: { env: Record<string, string>; cwd: string },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const [command, full] = binCommand(args);
  return new Promise((resolve, reject) => {
    const child = spawn(command, full, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export function newToken(): string {
  return `roam-graph-local-token-${randomBytes(22).toString('base64url').slice(0, 29)}`;
}

/** A well-formed local token that is recognisable in output: prefix + `tag` padded to 29 characters. */
export function makeToken(tag: string): string {
  const body = `${tag}${'x'.repeat(29)}`.slice(0, 29).replace(/[^A-Za-z0-9_-]/g, 'x');
  return `roam-graph-local-token-${body}`;
}

/** A temp HOME for the bin (test/harness/temp-dir.ts makes every test folder). */
export async function tempHome(prefix = 'roam-mcp-test-'): Promise<string> {
  return tempDir(prefix);
}

export const removeHome = removeDir;

/** A temp HOME with its own cleanup. */
export async function scratchHome(prefix = 'roam-rel-'): Promise<{ home: string; cleanup(): Promise<void> }> {
  const { dir, cleanup } = await scratchDir(prefix);
  return { home: dir, cleanup };
}

/**
 * The bin's environment: temp HOME only, never launching a real Roam, a short wait for it, every
 * toolset (tests reach every tool; test/mcp/toolsets.test.ts overrides ROAM_MCP_TOOLS), and no
 * navigation index staleness window (every call sees another client's edits at once; a test of the
 * window sets ROAM_MCP_INDEX_STALENESS_MS itself).
 */
export function binEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    HOME: home,
    USERPROFILE: home,
    PATH: process.env.PATH ?? '',
    ROAM_MCP_NO_LAUNCH: '1',
    ROAM_MCP_ROAM_WAIT_MS: '1500',
    ROAM_MCP_TOOLS: 'all',
    ROAM_MCP_INDEX_STALENESS_MS: '0',
    ...extra,
  };
}

/** A graph of ~/.roam-tools.json as a test writes it (`type` defaults to hosted). */
export interface ToolsConfigGraph {
  name: string;
  type?: string;
  token?: string;
  nickname?: string;
  accessLevel?: string;
  whenNobodyCanAsk?: string;
  [field: string]: unknown;
}

/** ~/.roam-tools.json text for one or more graphs. */
export function toolsConfig(graphs: readonly ToolsConfigGraph[]): string {
  return JSON.stringify({ version: 1, graphs: graphs.map((g) => ({ type: 'hosted', ...g })) }, null, 2);
}

/** Where the bin finds its config in a test HOME. */
export const toolsConfigPath = (home: string) => path.join(home, '.roam-tools.json');

/**
 * Writes a test HOME's ~/.roam-tools.json: these graphs (toolsConfig, 0600), or this exact text
 * and mode (a test of what a hand-written file does). Returns its path.
 */
export async function writeToolsConfig(
  home: string,
  config: readonly ToolsConfigGraph[] | { text: string; mode?: number },
): Promise<string> {
  const file = 'text' in config ? config : { text: toolsConfig(config), mode: 0o600 };
  const where = toolsConfigPath(home);
  await writeFile(where, file.text, file.mode === undefined ? {} : { mode: file.mode });
  return where;
}

export interface ToolErrorBody {
  code: string;
  message: string;
  [key: string]: unknown;
}

export interface McpHandle {
  /** The v2 client at 2026-07-28 or the v1 client at 2025-11-25 (test/harness/sdk-client.ts). */
  client: TestClient;
  /** Calls a tool; records the result (and any progress messages) in the transcript. */
  call(
    name: string,
    args?: Record<string, unknown>,
    options?: { signal?: AbortSignal; progress?: string[] },
  ): Promise<CallToolResult>;
  /** Resolves at the next `notifications/tools/list_changed` (e.g. once a capability probe found an action). */
  nextToolListChange(): Promise<void>;
  /** Everything the server emitted so far: results, notifications, stderr. */
  transcript(): string;
  stderr(): string;
  pid(): number | undefined;
  close(): Promise<void>;
}

/** Spawns the bin and completes the MCP handshake. */
export async function startMcp(options: {
  home: string;
  env?: Record<string, string>;
  args?: string[];
  clientName?: string;
}): Promise<McpHandle> {
  const [command, args] = binCommand(options.args);
  let stderr = '';
  const log: string[] = [];
  let listChanged: Array<() => void> = [];
  const client = await connectStdioClient({
    command,
    args,
    env: binEnv(options.home, options.env),
    cwd: options.home,
    name: options.clientName ?? 'vitest-client',
    onStderr: (chunk) => (stderr += chunk),
    onNotification: (notification) => {
      log.push(JSON.stringify(notification));
      if (notification.method !== 'notifications/tools/list_changed') return;
      for (const resolve of listChanged) resolve();
      listChanged = [];
    },
  });
  return {
    client,
    call: (name, args = {}, callOptions = {}) => recordedCall(client, log, name, args, callOptions),
    nextToolListChange: () => new Promise<void>((resolve) => listChanged.push(resolve)),
    transcript: () => `${log.join('\n')}\n${stderr}`,
    stderr: () => stderr,
    pid: () => client.pid(),
    close: () => client.close(),
  };
}

async function recordedCall(
  client: TestClient,
  log: string[],
  name: string,
  args: Record<string, unknown>,
  options: { signal?: AbortSignal; progress?: string[] },
): Promise<CallToolResult> {
  const result = await client.callTool({ name, arguments: args }, undefined, {
    signal: options.signal,
    timeout: 120_000,
    onprogress: options.progress
      ? (p) => {
          options.progress?.push(p.message ?? '');
          log.push(JSON.stringify(p));
        }
      : undefined,
  });
  log.push(JSON.stringify(result));
  return result;
}

export interface StdioClient extends Omit<McpHandle, 'call'> {
  /** Calls a tool; returns the result and its text parsed as JSON. */
  call(
    name: string,
    args?: Record<string, unknown>,
  ): Promise<{ result: CallToolResult; json: Record<string, unknown> }>;
}

/** The bin configured through env vars for one graph (ROAM_GRAPH, ROAM_API_TOKEN). */
export async function startStdioClient(options: {
  home: string;
  graph: string;
  nickname: string;
  token: string;
  /** The index staleness window in ms; 0 (binEnv's) unless given. */
  stalenessMs?: number;
}): Promise<StdioClient> {
  const env = {
    ROAM_GRAPH: options.graph,
    ROAM_GRAPH_NICKNAME: options.nickname,
    ROAM_API_TOKEN: options.token,
  };
  const mcp = await startMcp({
    home: options.home,
    clientName: 'navigation-tests',
    env:
      options.stalenessMs === undefined
        ? env
        : { ...env, ROAM_MCP_INDEX_STALENESS_MS: String(options.stalenessMs) },
  });
  return {
    ...mcp,
    async call(name, args = {}) {
      const result = await mcp.call(name, args);
      const first = result.content[0];
      const json = first?.type === 'text' ? (JSON.parse(first.text) as Record<string, unknown>) : {};
      return { result, json };
    },
  };
}

/** The first text of a result (fails the test when there is none). */
export function textOf(result: CallToolResult): string {
  const first = result.content[0];
  if (!first || first.type !== 'text')
    throw new Error(`expected a text result, got ${JSON.stringify(result)}`);
  return first.text;
}

/** All text of a result, joined (notes included). */
export function allTextOf(result: CallToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : JSON.stringify(part))).join('\n');
}

/** The parsed `{error}` of an isError result (fails the test when the call succeeded). */
export function errorOf(result: CallToolResult): ToolErrorBody {
  if (!result.isError) throw new Error(`expected an error, got ${JSON.stringify(result).slice(0, 500)}`);
  // Errors are text only: a v1 client would check structuredContent against the outputSchema.
  if (result.structuredContent !== undefined) throw new Error('an error result carries structuredContent');
  return (JSON.parse(textOf(result)) as { error: ToolErrorBody }).error;
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

/** The JSON of a successful result (fails the test on isError). */
export function jsonOf<T = Record<string, unknown>>(result: CallToolResult): T {
  if (result.isError) throw new Error(`unexpected tool error: ${textOf(result)}`);
  return sameInBothForms<T>(result);
}

/**
 * The text JSON, checked against structuredContent when the result has it: a client that reads
 * only one of them must see the same answer and the same notes.
 */
function sameInBothForms<T>(result: CallToolResult): T {
  const text = JSON.parse(textOf(result)) as T;
  if (result.structuredContent === undefined) return text;
  const notes = notesOf(result).map((note) => note.slice('Note: '.length));
  const expected = notes.length > 0 ? { ...(text as object), notes } : text;
  if (!isDeepStrictEqual(result.structuredContent, expected))
    throw new Error(
      `text and structuredContent differ: ${JSON.stringify(result).slice(0, 500)} (expected ${JSON.stringify(expected).slice(0, 300)})`,
    );
  return text;
}

/** Every Note: text appended to a result. */
export function notesOf(result: CallToolResult): string[] {
  return result.content.flatMap((c) => (c.type === 'text' && c.text.startsWith('Note: ') ? [c.text] : []));
}
