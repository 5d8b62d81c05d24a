/**
 * The set-up of the tests that navigation sees our own writes: a temp HOME, the emulator with one
 * graph (TEST_TOKEN, full access), and the built bin over stdio for it, the graph selected.
 */
import { startEmulator, type Emulator, type PageSpec } from '../../emulator/index.ts';
import { TEST_TOKEN } from '../../harness/http-context.ts';
import { startStdioClient, type StdioClient } from '../../harness/mcp-bin.ts';
import { removeDir, tempDir } from '../../harness/temp-dir.ts';

export interface IndexWorld {
  emulator: Emulator;
  mcp: StdioClient;
  /** The titles get_outlinks gives for the page. */
  outlinks(title: string): Promise<string[]>;
  close(): Promise<void>;
}

export async function startIndexWorld(options: {
  prefix: string;
  graph: string;
  nickname: string;
  content: PageSpec[];
  /** The index staleness window in ms; 0 unless given. */
  stalenessMs?: number;
}): Promise<IndexWorld> {
  const home = await tempDir(options.prefix);
  const emulator = await startEmulator({
    home,
    port: 0,
    graphs: [
      { name: options.graph, content: options.content, tokens: [{ token: TEST_TOKEN, accessLevel: 'full' }] },
    ],
  });
  const mcp = await startStdioClient({
    home,
    graph: options.graph,
    nickname: options.nickname,
    token: TEST_TOKEN,
    ...(options.stalenessMs === undefined ? {} : { stalenessMs: options.stalenessMs }),
  });
  const selected = await mcp.call('select_graph', { graph: options.nickname });
  if (selected.result.isError) throw new Error(`select_graph failed: ${JSON.stringify(selected.json)}`);
  return {
    emulator,
    mcp,
    async outlinks(title) {
      const { json } = await mcp.call('get_outlinks', { title });
      return (json.items as Array<{ title: string }>).map((item) => item.title);
    },
    async close() {
      await mcp.close();
      await emulator.close();
      await removeDir(home);
    },
  };
}
