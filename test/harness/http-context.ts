/**
 * Test support: a ToolContext whose `call` is a real HTTP round trip to the emulator (what the
 * server's own context does), and round-trip counting from the emulator's request log.
 */
import { rm } from 'node:fs/promises';
import { startEmulator, type Emulator, type PageSpec } from '../emulator/index.ts';
import type {
  GraphToolDefinition,
  ServerServices,
  ToolContext,
} from '../../src-mcp/contract/tool-definition.ts';
import { LinkIndexes } from '../../src-mcp/navigation/index-cache.ts';
import { DEFAULT_STALENESS_MS } from '../../src-mcp/navigation/index-staleness.ts';
import { UploadFolders } from '../../src-mcp/uploads/upload-folders.ts';
import { AiUsers } from '../../src-mcp/access/own-content.ts';
import { ConsentGate } from '../../src-mcp/gate/consent.ts';
import { Proposals } from '../../src-mcp/gate/proposals.ts';
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

/**
 * What a server of its own would lend the handlers (run-server.ts): an empty link-index cache
 * (the default window unless told), no upload folder and no change journal (a write is refused as
 * with a journal that cannot be opened; read-edit-own hears only Roam), no AI user known yet, no
 * proposal and no consent memory.
 */
export function ownServices(stalenessMs = DEFAULT_STALENESS_MS): ServerServices {
  const proposals = new Proposals();
  return {
    linkIndexes: new LinkIndexes({ stalenessMs }),
    uploadFolders: new UploadFolders(),
    journal: () => Promise.reject(new Error('these test services have no change journal')),
    agentCreations: () => new Map(),
    aiUsers: new AiUsers(),
    proposals,
    consent: new ConsentGate(proposals),
  };
}

/** A ToolContext over real HTTP for `graph` on the emulator, with `services` (its own by default). */
export function httpContext(
  emulator: Emulator,
  graph: string,
  token = TEST_TOKEN,
  services = ownServices(),
): ToolContext {
  return {
    ...services,
    graph: { name: graph, nickname: graph },
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
  { stalenessMs, ...options }: { semanticSearch?: boolean; stalenessMs?: number } = {},
): Promise<NavigationHarness> {
  const home = await tempDir('nav-test-');
  const emulator = await startEmulator({
    home,
    port: 0,
    graphs: [{ name: graph, content, tokens: [{ token: TEST_TOKEN, accessLevel: 'full' }] }],
    ...options,
  });
  const ctx = httpContext(emulator, graph, TEST_TOKEN, ownServices(stalenessMs));
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
