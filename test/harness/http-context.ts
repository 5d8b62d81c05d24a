/**
 * Test support: a ToolContext whose `call` is a real HTTP round trip to the emulator (what the
 * server's own context does), and round-trip counting from the emulator's request log.
 */
import { rm } from 'node:fs/promises';
import { startEmulator, type Emulator, type PageSpec } from '../emulator/index.ts';
import type { GraphToolDefinition, ToolContext } from '../../src-mcp/contract/tool-definition.ts';
import { UploadFolders } from '../../src-mcp/uploads/upload-folders.ts';
import { tempDir } from './temp-dir.ts';

export const TEST_TOKEN = 'roam-graph-local-token-NAVtestNAVtestNAVtestNAVtest';

export interface NavigationHarness {
  emulator: Emulator;
  ctx: ToolContext;
  /** Calls a tool as the server would: input parsed by its zod schema (defaults applied). */
  run(tool: GraphToolDefinition, args?: Record<string, unknown>): Promise<unknown>;
  /** Local API actions sent for this graph since the last `reset()`. */
  actions(): string[];
  reset(): void;
  close(): Promise<void>;
}

/** A ToolContext over real HTTP for `graph` on the emulator. */
export function httpContext(emulator: Emulator, graph: string, token = TEST_TOKEN): ToolContext {
  return {
    graph: { name: graph, nickname: graph },
    uploadFolders: new UploadFolders(),
    signal: new AbortController().signal,
    progress: () => {},
    notice: () => {},
    async call<T>(action: string, args: unknown[] = []): Promise<T> {
      const response = await fetch(`${emulator.url}/api/${encodeURIComponent(graph)}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
        body: JSON.stringify({ action, args }),
      });
      const body = (await response.json()) as { success: boolean; result?: T; error?: { message?: string } };
      if (!body.success) throw new Error(`${action} failed (${response.status}): ${body.error?.message}`);
      return body.result as T;
    },
  };
}

/** Starts an emulator holding one graph named `graph` with `content`, and a context for it. */
export async function startNavigationHarness(
  graph: string,
  content: PageSpec[] | { generate: { blocks: number; seed?: number } },
  options: { semanticSearch?: boolean } = {},
): Promise<NavigationHarness> {
  const home = await tempDir('nav-test-');
  const emulator = await startEmulator({
    home,
    port: 0,
    graphs: [{ name: graph, content, tokens: [{ token: TEST_TOKEN, accessLevel: 'full' }] }],
    ...options,
  });
  const ctx = httpContext(emulator, graph);
  return {
    emulator,
    ctx,
    run: async (tool, args = {}) => {
      const { z } = await import('zod');
      return tool.handler(z.object(tool.inputSchema).parse(args), ctx);
    },
    actions: () => emulator.requests.filter((r) => r.graph === graph).map((r) => r.action ?? '?'),
    reset: () => emulator.clearRequests(),
    close: async () => {
      await emulator.close();
      await rm(home, { recursive: true, force: true });
    },
  };
}
