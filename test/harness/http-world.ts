/**
 * The HTTP fixture: a temp HOME with the Local API emulator and ~/.roam-tools.json (as the stdio
 * world), keys made by the built bin (`roam-mcp key create`, the key read from its stdout), the
 * built bin serving `serve --http --port 0`, and real SDK clients over HTTP: the v1 client
 * (`@modelcontextprotocol/sdk`, 2025-11-25 sessions) and the v2 client
 * (`@modelcontextprotocol/client`, pinned to 2026-07-28). Everything the server said (results,
 * stderr) is kept so tests can search it for keys and tokens.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startEmulator, type Emulator, type EmulatorOptions, type GraphSpec } from '../emulator/index.ts';
import { binCommand, binEnv, runBin, writeToolsConfig, type ToolsConfigGraph } from './mcp-bin.ts';
import { graphWithToken } from './stdio-world.ts';
import { removeDir, tempDir } from './temp-dir.ts';

export type Era = 'v1' | 'v2';

export interface HttpClient {
  era: Era;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  listTools(): Promise<{ tools: Array<{ name: string }> }>;
  close(): Promise<void>;
}

export interface ConnectOptions {
  era: Era;
  key: string;
  name?: string;
  /** 2026-07-28: the chat the client names in its Mcp-Session-Id header. */
  chatId?: string;
  /** The client's capabilities (e.g. `extensions["io.modelcontextprotocol/ui"]` for an apps host). */
  capabilities?: Record<string, unknown>;
  /** Every notification the server sent (v2: on a subscriptions/listen stream opened for it). */
  onNotification?: (notification: { method: string }) => void;
}

export interface HttpWorld {
  home: string;
  emulator: Emulator;
  url: string;
  port: number;
  /** name → the key printed by `roam-mcp key create`. */
  keys: Record<string, string>;
  /** Runs `roam-mcp key …` through the built bin. */
  keyCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }>;
  /** Runs `roam-mcp ARGS` through the built bin, in the server's HOME and data folder. */
  bin(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }>;
  connect(options: ConnectOptions): Promise<HttpClient>;
  /** The server's stderr so far plus every result the clients received. */
  transcript(): string;
  server: ChildProcess;
  close(): Promise<void>;
}

/** Roam's demo graph served as `name` with a full-access token, and its line in ~/.roam-tools.json. */
export function fullDemoGraph(
  name: string,
  nickname: string,
): { graph: GraphSpec; config: ToolsConfigGraph; token: string } {
  return graphWithToken({ name, content: 'demo' }, { nickname, accessLevel: 'full' });
}

/** The body of a 2025-11-25 initialize, as a raw client sends it to open a chat. */
export const RAW_INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

export async function startHttpWorld(options: {
  /** Default: one graph, fullDemoGraph('work', 'Work'). */
  emulator?: Omit<EmulatorOptions, 'home'>;
  /** Default: the default graph's line (none when `emulator` is given). */
  config?: readonly ToolsConfigGraph[];
  /** Keys to create before the server starts: name → its access level and toolsets, if any. */
  keys: Record<string, { access?: string; tools?: string } | undefined>;
  env?: Record<string, string>;
}): Promise<HttpWorld> {
  const work = fullDemoGraph('work', 'Work');
  const emulatorOptions = options.emulator ?? { graphs: [work.graph] };
  const config = options.config ?? (options.emulator ? [] : [work.config]);
  const home = await tempDir('roam-http-');
  const env = binEnv(home, { ROAM_COMPANION_DATA_DIR: path.join(home, 'data'), ...options.env });
  const emulator = await startEmulator({ ...emulatorOptions, home });
  const transcript: string[] = [];
  const clients = new Set<HttpClient>();
  let server: ChildProcess | undefined;
  try {
    await writeToolsConfig(home, config);
    const keyCli = (args: string[]) => runBin(['key', ...args], { env, cwd: home });
    const keys: Record<string, string> = {};
    for (const [name, spec] of Object.entries(options.keys)) {
      const made = await keyCli([
        'create',
        name,
        ...(spec?.access ? ['--access', spec.access] : []),
        ...(spec?.tools ? ['--tools', spec.tools] : []),
      ]);
      if (made.code !== 0) throw new Error(`key create ${name} failed: ${made.stderr}`);
      keys[name] = made.stdout.trim();
    }
    const [command, args] = binCommand(['serve', '--http', '--port', '0']);
    server = spawn(command, args, { env, cwd: home, stdio: ['ignore', 'pipe', 'pipe'] });
    const started = server;
    const url = await new Promise<string>((resolve, reject) => {
      let stderr = '';
      started.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
        transcript.push(chunk.toString('utf8'));
        const found = /serving MCP at (http:\/\/\S+\/mcp)/.exec(stderr);
        if (found?.[1]) resolve(found[1]);
      });
      started.stdout?.on('data', (chunk: Buffer) => transcript.push(chunk.toString('utf8')));
      started.once('exit', (code) => reject(new Error(`serve --http exited (${code}): ${stderr}`)));
    });
    const world: HttpWorld = {
      home,
      emulator,
      url,
      port: Number(new URL(url).port),
      keys,
      keyCli,
      bin: (args) => runBin(args, { env, cwd: home }),
      server: started,
      transcript: () => transcript.join('\n'),
      async connect(connectOptions) {
        const client = await connectHttp(url, connectOptions, (text) => transcript.push(text));
        clients.add(client);
        return client;
      },
      async close() {
        for (const client of clients) await client.close().catch(() => {});
        await stopProcess(started);
        await emulator.close();
        await removeDir(home);
      },
    };
    return world;
  } catch (error) {
    if (server) await stopProcess(server);
    await emulator.close();
    await removeDir(home);
    throw error;
  }
}

async function connectHttp(
  url: string,
  options: ConnectOptions,
  record: (text: string) => void,
): Promise<HttpClient> {
  const notified = async (notification: { method: string }) => {
    record(JSON.stringify(notification));
    options.onNotification?.(notification);
  };
  const headers = { Authorization: `Bearer ${options.key}` };
  const name = options.name ?? 'http-test-client';
  if (options.era === 'v1') {
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { StreamableHTTPClientTransport } =
      await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    const client = new Client(
      { name, version: '1.0.0' },
      options.capabilities ? { capabilities: options.capabilities } : {},
    );
    client.fallbackNotificationHandler = notified;
    const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
    await client.connect(transport);
    return {
      era: 'v1',
      async call(tool, args = {}) {
        const result = (await client.callTool({ name: tool, arguments: args })) as CallToolResult;
        record(JSON.stringify(result));
        return result;
      },
      listTools: () => client.listTools(),
      async close() {
        await transport.terminateSession().catch(() => {});
        await client.close();
      },
    };
  }
  const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
  const client = new Client(
    { name, version: '1.0.0' },
    {
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      ...(options.capabilities ? { capabilities: options.capabilities } : {}),
    },
  );
  // 2026-07-28 has no sessions: a client names its chat with its own Mcp-Session-Id header.
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { ...headers, ...(options.chatId ? { 'Mcp-Session-Id': options.chatId } : {}) } },
  });
  await client.connect(transport);
  if (client.getProtocolEra() !== 'modern') throw new Error('the v2 client did not negotiate 2026-07-28');
  client.fallbackNotificationHandler = notified;
  if (options.onNotification)
    await client.listen({ toolsListChanged: true, resourcesListChanged: true, promptsListChanged: true });
  return {
    era: 'v2',
    async call(tool, args = {}) {
      const result = (await client.callTool({ name: tool, arguments: args })) as unknown as CallToolResult;
      record(JSON.stringify(result));
      return result;
    },
    listTools: async () =>
      (await client.listTools(undefined, { cacheMode: 'bypass' })) as { tools: Array<{ name: string }> },
    close: () => client.close(),
  };
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  await exited;
}
