/**
 * What the undo tests share: an emulator with one graph whose token writes as the AI user, the
 * config file naming it, the bin as an MCP server (an agent's chat) and as a CLI.
 */
import { startEmulator, type Emulator, type GraphSpec, type PageSpec } from '../../emulator/index.ts';
import {
  binEnv,
  jsonOf,
  newToken,
  removeHome,
  runBin,
  startMcp,
  tempHome,
  type McpHandle,
  writeToolsConfig,
} from '../../harness/mcp-bin.ts';

export interface UndoWorld {
  home: string;
  emulator: Emulator;
  graphName: string;
  /** Starts an agent's chat (the bin over stdio), the graph already selected. */
  agent(env?: Record<string, string>): Promise<McpHandle>;
  /** Runs `roam-mcp <args>` as a person would, to its end. */
  cli(...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }>;
  close(): Promise<void>;
}

export interface WorldOptions {
  graphName?: string;
  /** The level chosen in the config (default full). */
  accessLevel?: 'read-only' | 'read-append' | 'read-edit-own' | 'full';
  /** Whether the token writes as the graph's AI user (default true, as roam-mcp's requests ask). */
  ai?: boolean;
}

export async function undoWorld(
  content: PageSpec[],
  extra: Partial<GraphSpec> = {},
  { graphName = 'work', accessLevel = 'full', ai = true }: WorldOptions = {},
): Promise<UndoWorld> {
  const home = await tempHome('roam-undo-');
  const token = newToken();
  const emulator = await startEmulator({
    home,
    graphs: [{ ...extra, name: graphName, content, tokens: [{ token, accessLevel: 'full', ai }] }],
  });
  await writeToolsConfig(home, [{ name: graphName, token, accessLevel }]);
  const agents: McpHandle[] = [];
  return {
    home,
    emulator,
    graphName,
    async agent(env = {}) {
      const mcp = await startMcp({ home, env });
      agents.push(mcp);
      jsonOf(await mcp.call('select_graph', { graph: graphName }));
      return mcp;
    },
    cli: (...args) => runBinIn(home, args),
    async close() {
      for (const mcp of agents) await mcp.close().catch(() => {});
      await emulator.close();
      await removeHome(home);
    },
  };
}

/** The bin run to its end in `home` (the emulator answers from this process). */
export async function runBinIn(
  home: string,
  args: string[],
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const { code, stdout, stderr } = await runBin(args, { env: binEnv(home), cwd: home });
  return { status: code, stdout, stderr };
}
