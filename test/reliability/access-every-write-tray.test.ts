/**
 * Read only chosen in Roam Companion holds for every write, through the tray's path: the tray core
 * on real files against the emulator, both graphs approved as Full, one then set to Read only in
 * Graphs; an SDK client on the `--mcp` launcher, which runs the real roam-mcp child on the tray's
 * store. Every write tool the child offers is refused on that graph with ACCESS_LEVEL naming
 * Roam Companion > Graphs, and nothing reaches it; the other graph still takes the same calls.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrayCore } from '../../src-main/core/tray-core.ts';
import { startEmulator, type Emulator } from '../emulator/index.ts';
import { jsonOf, newToken } from '../harness/mcp-bin.ts';
import { startCore, tempDirs, waitFor, connectThroughLauncher } from '../main/helpers.ts';
import { callEveryWrite, graph, writeToolNames, WRITES, writesTo } from './every-write.ts';

const LOCKED = 'hosted:locked';
const OPEN = 'hosted:open';
let dirs: Awaited<ReturnType<typeof tempDirs>>;
let emulator: Emulator;
let core: TrayCore;
let client: Client;

const call = async (name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;

/** What list_graphs tells the agent a graph allows. */
async function reported(nickname: string): Promise<unknown> {
  const listed = await call('list_graphs');
  if (listed.isError) return undefined;
  const { items } = jsonOf<{ items: Array<{ nickname: string; permissions: unknown }> }>(listed);
  return items.find((g) => g.nickname === nickname)?.permissions;
}

beforeAll(async () => {
  dirs = await tempDirs();
  // The tray asks Roam for its own tokens; the specs' tokens are never used.
  emulator = await startEmulator({
    home: dirs.home,
    graphs: [graph('locked', newToken()), graph('open', newToken())],
  });
  emulator.autoDecide({ kind: 'approve' });
  ({ core } = startCore(dirs));
  await core.handlers['graphs:add']({ name: 'locked', nickname: 'Locked', accessLevel: 'full' });
  await core.handlers['graphs:add']({ name: 'open', nickname: 'Open', accessLevel: 'full' });
  for (const id of [LOCKED, OPEN]) {
    await core.handlers['tokens:request']({ id });
    await waitFor(async () =>
      (await core.handlers['graphs:list'](undefined)).find(
        (g) => g.id === id && g.token.state === 'ok' && g.token.grantedAccessLevel === 'full',
      ),
    );
  }
  client = await connectThroughLauncher(dirs, 'tray-every-write', { ROAM_MCP_TOOLS: 'all' });
  await core.handlers['graphs:update']({ id: LOCKED, accessLevel: 'read-only' });
  await waitFor(async () => (JSON.stringify(await reported('Locked')) === '["read"]' ? true : undefined));
});

afterAll(async () => {
  await client?.close();
  await core?.close();
  await emulator?.close();
  await dirs?.cleanup();
});

describe('Read only in Roam Companion > Graphs, Full token, through --mcp', () => {
  it('every write the child offers is refused on that graph, naming the tray setting; nothing reaches Roam', async () => {
    const tools = await writeToolNames(client);
    expect(tools).toEqual(Object.keys(WRITES).sort());
    await call('select_graph', { graph: 'Locked' });
    emulator.clearRequests();
    for (const { tool, args, error } of await callEveryWrite(call, tools)) {
      expect(error, `${tool} ${JSON.stringify(args)}`).toMatchObject({
        code: 'ACCESS_LEVEL',
        graph: 'Locked',
        access_level: 'read-only',
        setting: 'Roam Companion > Graphs > access level',
      });
      expect(error?.message, tool).toMatch(/changes the access level of 'Locked' in Roam Companion > Graphs/);
    }
    expect(writesTo(emulator, 'locked')).toEqual([]);
  });

  it('the other graph, still Full, takes the same calls', async () => {
    await call('select_graph', { graph: 'Open' });
    emulator.clearRequests();
    const answers = await callEveryWrite(call, await writeToolNames(client));
    for (const { tool, error } of answers) expect(error?.code, tool).not.toBe('ACCESS_LEVEL');
    expect(writesTo(emulator, 'open').length).toBeGreaterThan(0);
  });
});
