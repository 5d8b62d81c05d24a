/**
 * Test support: the built roam-mcp bin driven over stdio by the SDK Client, configured through
 * env vars for one emulator graph in a temp HOME (where the emulator writes its port file).
 */
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/roam-mcp.mjs');

export interface StdioClient {
  client: Client;
  /** Calls a tool; returns the parsed text JSON and the structuredContent (if any). */
  call(
    name: string,
    args?: Record<string, unknown>,
  ): Promise<{ result: CallToolResult; json: Record<string, unknown> }>;
  /** Resolves at the next `notifications/tools/list_changed` (e.g. once a capability probe found an action). */
  nextToolListChange(): Promise<void>;
  /** Everything the server wrote: results and stderr, for leak checks. */
  transcript(): string;
  close(): Promise<void>;
}

export async function startStdioClient(options: {
  home: string;
  graph: string;
  nickname: string;
  token: string;
  /** The index staleness window; 0 by default, so every call sees another client's edits at once. */
  stalenessMs?: number;
}): Promise<StdioClient> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN],
    env: {
      HOME: options.home,
      PATH: process.env.PATH ?? '',
      ROAM_MCP_NO_LAUNCH: '1',
      ROAM_GRAPH: options.graph,
      ROAM_GRAPH_NICKNAME: options.nickname,
      ROAM_API_TOKEN: options.token,
      ROAM_MCP_INDEX_STALENESS_MS: String(options.stalenessMs ?? 0),
    },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const log: string[] = [];
  const client = new Client({ name: 'navigation-tests', version: '1.0.0' });
  let listChanged: Array<() => void> = [];
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    for (const resolve of listChanged) resolve();
    listChanged = [];
  });
  await client.connect(transport);
  return {
    client,
    async call(name, args = {}) {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      log.push(JSON.stringify(result));
      const first = result.content[0];
      const json = first?.type === 'text' ? (JSON.parse(first.text) as Record<string, unknown>) : {};
      return { result, json };
    },
    nextToolListChange: () => new Promise<void>((resolve) => listChanged.push(resolve)),
    transcript: () => `${log.join('\n')}\n${stderr}`,
    close: () => client.close(),
  };
}
