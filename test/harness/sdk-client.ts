/**
 * The MCP client the stdio suite drives the built bin with, chosen here and nowhere else by
 * ROAM_TEST_CLIENT (docs/mcp.md, "State and the two protocol eras"):
 *
 * - `v2` (default): `@modelcontextprotocol/client` 2.4 pinned to 2026-07-28 — `server/discover`,
 *   no handshake, protocol version and client info in every request's `_meta`, list_changed on a
 *   `subscriptions/listen` stream, lists cached for the server's `ttlMs`;
 * - `v1`: `@modelcontextprotocol/sdk` 1.32 — `initialize` at 2025-11-25, unsolicited list_changed.
 *
 * Both are exposed as the same small surface the tests use.
 */
import type {
  CallToolResult,
  CompleteRequest,
  CompleteResult,
  GetPromptResult,
  Prompt,
  Resource,
  ResourceTemplate,
  Tool,
} from '@modelcontextprotocol/sdk/types.js';

export type TestClientLine = 'v1' | 'v2';
export const TEST_CLIENT: TestClientLine = process.env.ROAM_TEST_CLIENT === 'v1' ? 'v1' : 'v2';

export interface CallOptions {
  signal?: AbortSignal;
  timeout?: number;
  onprogress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

/** What the stdio tests call on a client, whichever SDK line it is. */
export interface TestClient {
  line: TestClientLine;
  callTool(
    params: { name: string; arguments?: Record<string, unknown> },
    resultSchema?: undefined,
    options?: CallOptions,
  ): Promise<CallToolResult>;
  listTools(): Promise<{ tools: Tool[] }>;
  listResources(): Promise<{ resources: Resource[] }>;
  listResourceTemplates(): Promise<{ resourceTemplates: ResourceTemplate[] }>;
  readResource(params: { uri: string }): Promise<{ contents: Array<{ uri: string; text?: string }> }>;
  listPrompts(): Promise<{ prompts: Prompt[] }>;
  getPrompt(params: { name: string; arguments?: Record<string, string> }): Promise<GetPromptResult>;
  complete(params: CompleteRequest['params']): Promise<CompleteResult>;
  getInstructions(): string | undefined;
  getServerVersion(): { name: string; version: string } | undefined;
  /** A round trip that proves the server still serves (2026-07-28 has no `ping`). */
  ping(): Promise<unknown>;
  /** The spawned process. */
  pid(): number | undefined;
  close(): Promise<void>;
}

export interface StdioClientOptions {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  name: string;
  /** Every notification the server sent (progress excepted: that goes to the call's onprogress). */
  onNotification?: (notification: { method: string; params?: unknown }) => void;
  onStderr?: (chunk: string) => void;
  line?: TestClientLine;
}

export async function connectStdioClient(options: StdioClientOptions): Promise<TestClient> {
  return (options.line ?? TEST_CLIENT) === 'v1' ? connectV1(options) : connectV2(options);
}

async function connectV1(options: StdioClientOptions): Promise<TestClient> {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const transport = new StdioClientTransport({
    command: options.command,
    args: options.args,
    env: options.env,
    cwd: options.cwd,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => options.onStderr?.(chunk.toString('utf8')));
  const client = new Client({ name: options.name, version: '1.0.0' });
  client.fallbackNotificationHandler = async (notification) => options.onNotification?.(notification);
  await client.connect(transport);
  return {
    line: 'v1',
    callTool: async (params, _schema, callOptions) =>
      (await client.callTool(params, undefined, callOptions)) as CallToolResult,
    listTools: () => client.listTools(),
    listResources: () => client.listResources(),
    listResourceTemplates: () => client.listResourceTemplates(),
    readResource: (params) => client.readResource(params),
    listPrompts: () => client.listPrompts(),
    getPrompt: (params) => client.getPrompt(params),
    complete: (params) => client.complete(params),
    getInstructions: () => client.getInstructions(),
    getServerVersion: () => client.getServerVersion(),
    ping: () => client.ping(),
    pid: () => transport.pid ?? undefined,
    close: () => client.close(),
  };
}

async function connectV2(options: StdioClientOptions): Promise<TestClient> {
  const { Client } = await import('@modelcontextprotocol/client');
  const { StdioClientTransport } = await import('@modelcontextprotocol/client/stdio');
  // A subclass probes on its own connection: server/discover opens the session the tests use,
  // as a 2026-07-28 host does, instead of on a sibling process the SDK would spawn first.
  class OneProcessStdioTransport extends StdioClientTransport {}
  const transport = new OneProcessStdioTransport({
    command: options.command,
    args: options.args,
    env: options.env,
    cwd: options.cwd,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => options.onStderr?.(chunk.toString('utf8')));
  const client = new Client(
    { name: options.name, version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  client.fallbackNotificationHandler = async (notification) => options.onNotification?.(notification);
  await client.connect(transport);
  if (client.getProtocolEra() !== 'modern') throw new Error('the v2 client did not negotiate 2026-07-28');
  await client.listen({ toolsListChanged: true, resourcesListChanged: true, promptsListChanged: true });
  // The v2 SDK's result types are the v1 shapes plus optional fields: the tests read them alike.
  return {
    line: 'v2',
    callTool: async (params, _schema, callOptions) =>
      (await client.callTool(params, callOptions)) as unknown as CallToolResult,
    listTools: async () => (await client.listTools()) as unknown as { tools: Tool[] },
    listResources: async () => (await client.listResources()) as unknown as { resources: Resource[] },
    listResourceTemplates: async () =>
      (await client.listResourceTemplates()) as unknown as { resourceTemplates: ResourceTemplate[] },
    readResource: async (params) =>
      (await client.readResource(params)) as unknown as { contents: Array<{ uri: string; text?: string }> },
    listPrompts: async () => (await client.listPrompts()) as unknown as { prompts: Prompt[] },
    getPrompt: async (params) => (await client.getPrompt(params)) as unknown as GetPromptResult,
    complete: async (params) => (await client.complete(params)) as unknown as CompleteResult,
    getInstructions: () => client.getInstructions(),
    getServerVersion: () => client.getServerVersion(),
    ping: () => client.listTools(undefined, { cacheMode: 'bypass' }),
    pid: () => transport.pid ?? undefined,
    close: () => client.close(),
  };
}
