/**
 * A real SDK client over stdio to the built bin, in either era, with the capabilities a test
 * gives it: form elicitation (answered by `answer`, every question kept in `asked`), MCP Apps
 * (`extensions["io.modelcontextprotocol/ui"]`), or none. The v1 client speaks 2025-11-25 (the
 * server sends `elicitation/create`), the v2 client 2026-07-28 (the call answers `input_required`,
 * the client asks and retries). Results keep their `_meta`, as a host hands it to an app.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { binCommand, binEnv } from './mcp-bin.ts';

export type Era = '2025-11-25' | '2026-07-28';
export type Answer = 'accept' | 'decline' | 'cancel';

export const APPS_CAPABILITY = {
  extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } },
};

export interface ConsentClient {
  asked: string[];
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  listTools(): Promise<Array<{ name: string; _meta?: Record<string, unknown> }>>;
  close(): Promise<void>;
}

export async function consentClient(
  home: string,
  era: Era,
  options: {
    /** Declares form elicitation and answers each question so. */
    answer?: (question: string) => Answer | Promise<Answer>;
    /** Declares MCP Apps. */
    apps?: boolean;
    args?: string[];
    /** More environment for the bin (a data folder of its own: a ledger no other test shares). */
    env?: Record<string, string>;
  } = {},
): Promise<ConsentClient> {
  const asked: string[] = [];
  const reply = async (message: string) => {
    asked.push(message);
    const answer = (await options.answer?.(message)) ?? 'decline';
    return answer === 'accept' ? { action: answer, content: {} } : { action: answer };
  };
  const [command, commandArgs] = binCommand(options.args);
  const spawn = {
    command,
    args: commandArgs,
    env: binEnv(home, options.env),
    cwd: home,
    stderr: 'pipe' as const,
  };
  const info = { name: `consent-test-${era}`, version: '1.0.0' };
  const capabilities = {
    ...(options.answer ? { elicitation: { form: {} } } : {}),
    ...(options.apps ? APPS_CAPABILITY : {}),
  };
  let client: {
    callTool(p: unknown): Promise<unknown>;
    listTools(): Promise<{ tools: Array<{ name: string; _meta?: Record<string, unknown> }> }>;
    close(): Promise<void>;
  };
  if (era === '2025-11-25') {
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
    const { ElicitRequestSchema } = await import('@modelcontextprotocol/sdk/types.js');
    const v1 = new Client(info, { capabilities });
    if (options.answer)
      v1.setRequestHandler(ElicitRequestSchema, async (request) => reply(request.params.message));
    await v1.connect(new StdioClientTransport(spawn));
    client = {
      callTool: (p) => v1.callTool(p as never, undefined, { timeout: 60_000 }),
      listTools: () => v1.listTools(),
      close: () => v1.close(),
    };
  } else {
    const { Client } = await import('@modelcontextprotocol/client');
    const { StdioClientTransport } = await import('@modelcontextprotocol/client/stdio');
    const v2 = new Client(info, { capabilities, versionNegotiation: { mode: { pin: '2026-07-28' } } });
    if (options.answer)
      v2.setRequestHandler('elicitation/create', async (request) => reply(request.params.message));
    await v2.connect(new StdioClientTransport(spawn));
    if (v2.getProtocolEra() !== 'modern') throw new Error('the v2 client did not negotiate 2026-07-28');
    client = {
      callTool: (p) => v2.callTool(p as never),
      listTools: () => v2.listTools() as never,
      close: () => v2.close(),
    };
  }
  return {
    asked,
    call: async (name, args) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    listTools: async () => (await client.listTools()).tools,
    close: () => client.close(),
  };
}
