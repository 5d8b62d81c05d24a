/**
 * The one stdio fixture: a temp HOME, the Local API emulator with its graphs, the
 * ~/.roam-tools.json that names them, the built bin started over stdio, and optionally the
 * graphs a test writes to already oriented (select_graph run: the graph ticket writes need).
 */
import {
  startEmulator,
  type Emulator,
  type EmulatorOptions,
  type GraphSpec,
  type PageSpec,
} from '../emulator/index.ts';
import {
  jsonOf,
  newToken,
  startMcp,
  writeToolsConfig,
  type McpHandle,
  type ToolsConfigGraph,
} from './mcp-bin.ts';
import { removeDir, tempDir } from './temp-dir.ts';

export interface StdioWorld {
  home: string;
  emulator: Emulator;
  mcp: McpHandle;
  close(): Promise<void>;
}

type McpOptions = Omit<Parameters<typeof startMcp>[0], 'home'>;

export async function startStdioWorld(options: {
  /** The emulator's graphs and settings (its `home` is the world's). */
  emulator: Omit<EmulatorOptions, 'home'>;
  /**
   * ~/.roam-tools.json: its graphs (written by toolsConfig, 0600), or its exact text and mode (a
   * test of what a hand-written file does).
   */
  config: Parameters<typeof writeToolsConfig>[1];
  /** Files the test needs in HOME before the bin starts. */
  prepare?: (home: string) => Promise<void>;
  /** How the bin is started (env, args, client name); a function when they name paths in HOME. */
  mcp?: McpOptions | ((home: string) => McpOptions);
  /** Graphs (nickname or name) to run select_graph on before the tests. */
  orient?: readonly string[];
  prefix?: string;
}): Promise<StdioWorld> {
  const home = await tempDir(options.prefix ?? 'roam-stdio-');
  const emulator = await startEmulator({ ...options.emulator, home }).catch(async (error: unknown) => {
    await removeDir(home);
    throw error;
  });
  let mcp: McpHandle | undefined;
  try {
    await writeToolsConfig(home, options.config);
    await options.prepare?.(home);
    const started = typeof options.mcp === 'function' ? options.mcp(home) : options.mcp;
    mcp = await startMcp({ ...started, home });
    for (const graph of options.orient ?? []) jsonOf(await mcp.call('select_graph', { graph }));
  } catch (error) {
    await mcp?.close();
    await emulator.close();
    await removeDir(home);
    throw error;
  }
  return {
    home,
    emulator,
    mcp,
    async close() {
      await mcp?.close();
      await emulator.close();
      await removeDir(home);
    },
  };
}

/** A graph the emulator serves with a new full-access token, and its line in ~/.roam-tools.json naming that token. */
export function graphWithToken(
  graph: Omit<GraphSpec, 'tokens'>,
  line: Omit<ToolsConfigGraph, 'name' | 'token'> = {},
): { graph: GraphSpec; config: ToolsConfigGraph; token: string } {
  const token = newToken();
  return {
    graph: { ...graph, tokens: [{ token, accessLevel: 'full' }] },
    config: { name: graph.name, token, ...line },
    token,
  };
}

/** One graph, `g`, with these pages, named in ~/.roam-tools.json with a full-access token and oriented. */
export function startOneGraphWorld(content: PageSpec[]): Promise<StdioWorld> {
  const g = graphWithToken({ name: 'g', content }, { accessLevel: 'full' });
  return startStdioWorld({ emulator: { graphs: [g.graph] }, config: [g.config], orient: ['g'] });
}
