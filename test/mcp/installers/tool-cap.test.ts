/**
 * A client with a practical tool cap (Cursor, about 40 across all its servers) gets an entry
 * whose server lists fewer tools than the cap, navigation included: installed by the built bin,
 * then started as Cursor would start it, against the emulator, with every probed tool offered.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TOOL_CAPPED_CLIENTS } from '../../../src-shared/toolsets.ts';
import { startEmulator, type Emulator } from '../../emulator/index.ts';
import {
  BIN,
  binCommand,
  newToken,
  removeHome,
  startMcp,
  tempHome,
  type McpHandle,
} from '../../harness/mcp-bin.ts';

const token = newToken();
let home: string;
let emulator: Emulator;
let mcp: McpHandle | undefined;

beforeAll(async () => {
  home = await tempHome();
  emulator = await startEmulator({
    home,
    semanticSearch: true,
    graphs: [{ name: 'g', content: 'demo', tokens: [{ token, accessLevel: 'full' }] }],
  });
});

afterAll(async () => {
  await mcp?.close();
  await emulator?.close();
  await removeHome(home);
});

it("Cursor's new entry lists at most its cap of tools, navigation and undo included", async () => {
  await mkdir(path.join(home, '.cursor'));
  const [command, args] = binCommand(['install', 'cursor']);
  const run = spawnSync(command, args, { env: { PATH: process.env.PATH, HOME: home }, encoding: 'utf8' });
  expect(run.status).toBe(0);
  const config = JSON.parse(await readFile(path.join(home, '.cursor', 'mcp.json'), 'utf8')) as {
    mcpServers: Record<string, { command: string; args: string[] }>;
  };
  const entry = config.mcpServers['roam-companion']!;
  expect(entry.command).toBe(process.execPath);
  expect(await readFile(entry.args[0]!, 'utf8')).toBe(await readFile(BIN, 'utf8'));

  // What Cursor starts: the entry's arguments, nothing selected by the environment.
  mcp = await startMcp({
    home,
    args: entry.args.slice(1),
    env: { ROAM_MCP_TOOLS: '', ROAM_GRAPH: 'g', ROAM_API_TOKEN: token },
  });
  const probed = mcp.nextToolListChange();
  await mcp.client.readResource({ uri: 'roam://g/stats' });
  await probed;
  const names = (await mcp.client.listTools()).tools.map((tool) => tool.name);
  expect(names.length).toBeLessThanOrEqual(TOOL_CAPPED_CLIENTS.cursor!.cap);
  expect(names).toEqual(
    expect.arrayContaining([
      'select_graph',
      'get_neighbors',
      'semantic_search',
      'list_changes',
      'undo_changes',
    ]),
  );
});
