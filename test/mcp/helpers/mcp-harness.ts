/**
 * Drives the built bin (dist/roam-mcp.mjs) as an MCP client would: SDK Client over stdio, a
 * temp HOME, and a transcript of everything the server said (results, notifications, stderr)
 * so tests can check that no token ever leaks.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { fileURLToPath } from 'node:url';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { connectStdioClient, type TestClient } from '../../sdk-client.ts';
import { SERVER_NODE } from '../../server-node.ts';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const BIN = path.join(ROOT, 'dist/roam-mcp.mjs');

/** A fresh, well-formed local token (the emulator accepts any token it was given). */
export function newToken(): string {
  return `roam-graph-local-token-${randomBytes(22).toString('base64url').slice(0, 29)}`;
}

export async function tempHome(prefix = 'roam-mcp-test-'): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), prefix));
}

export async function removeHome(home: string): Promise<void> {
  await rm(home, { recursive: true, force: true });
}

export interface ToolErrorBody {
  code: string;
  message: string;
  [key: string]: unknown;
}

export interface McpHandle {
  /** The v2 client at 2026-07-28 or the v1 client at 2025-11-25 (test/sdk-client.ts). */
  client: TestClient;
  /** Calls a tool; records the result (and any progress messages) in the transcript. */
  call(
    name: string,
    args?: Record<string, unknown>,
    options?: { signal?: AbortSignal; progress?: string[] },
  ): Promise<CallToolResult>;
  /** Everything the server emitted so far: results, notifications, stderr. */
  transcript(): string;
  stderr(): string;
  close(): Promise<void>;
}

/** Base environment: temp HOME, never launch a real Roam, short wait unless a test wants more. */
export function serverEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    HOME: home,
    PATH: process.env.PATH ?? '',
    ROAM_MCP_NO_LAUNCH: '1',
    ROAM_MCP_ROAM_WAIT_MS: '500',
    ...extra,
  };
}

export async function startMcp(options: {
  home: string;
  env?: Record<string, string>;
  args?: string[];
  clientName?: string;
}): Promise<McpHandle> {
  let stderr = '';
  const log: string[] = [];
  const client = await connectStdioClient({
    command: SERVER_NODE,
    args: [BIN, ...(options.args ?? [])],
    env: serverEnv(options.home, options.env),
    name: options.clientName ?? 'vitest-client',
    onStderr: (chunk) => (stderr += chunk),
    onNotification: (notification) => log.push(JSON.stringify(notification)),
  });
  return {
    client,
    async call(name, args = {}, callOptions = {}) {
      const result = await client.callTool({ name, arguments: args }, undefined, {
        signal: callOptions.signal,
        timeout: 120_000,
        onprogress: callOptions.progress
          ? (p) => {
              callOptions.progress?.push(p.message ?? '');
              log.push(JSON.stringify(p));
            }
          : undefined,
      });
      log.push(JSON.stringify(result));
      return result;
    },
    transcript: () => `${log.join('\n')}\n${stderr}`,
    stderr: () => stderr,
    close: () => client.close(),
  };
}

export function textOf(result: CallToolResult): string {
  const first = result.content[0];
  if (!first || first.type !== 'text')
    throw new Error(`expected a text result, got ${JSON.stringify(result)}`);
  return first.text;
}

/** The parsed `{error}` of an isError result (fails the test when the call succeeded). */
export function errorOf(result: CallToolResult): ToolErrorBody {
  if (!result.isError) throw new Error(`expected an error, got ${JSON.stringify(result).slice(0, 500)}`);
  // Errors are text only: a v1 client would check structuredContent against the outputSchema.
  if (result.structuredContent !== undefined) throw new Error('an error result carries structuredContent');
  return (JSON.parse(textOf(result)) as { error: ToolErrorBody }).error;
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
