// Two AI clients of the tray's `--mcp` launcher at once, one per protocol era (the v2 client at
// 2026-07-28, the v1 client at 2025-11-25): two launchers, two real roam-mcp children, and no
// state shared between them but the tray's config — each has its own selection and its own graph
// tickets (docs/mcp.md, "State and the two protocol eras").
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { TrayCore } from '../../../../src-main/core/tray-core.ts';
import { startEmulator, type Emulator } from '../../../emulator/index.ts';
import { connectStdioClient, type TestClient } from '../../../harness/sdk-client.ts';
import { SERVER_NODE } from '../../../server-node.ts';
import { launcherArgs, startCore, tempDirs, waitFor } from '../../helpers.ts';

let dirs: Awaited<ReturnType<typeof tempDirs>>;
let emulator: Emulator;
let core: TrayCore;
let modern: TestClient;
let legacy: TestClient;

const launch = (line: 'v1' | 'v2') =>
  connectStdioClient({
    line,
    name: `tray-${line}`,
    command: SERVER_NODE,
    args: launcherArgs(dirs),
    env: { ...(process.env as Record<string, string>), HOME: dirs.home, USERPROFILE: dirs.home },
  });

const call = (client: TestClient, name: string, args: Record<string, unknown> = {}) =>
  client.callTool({ name, arguments: args });
const json = (result: CallToolResult) =>
  JSON.parse((result.content[0] as { text: string }).text) as Record<string, unknown>;
const selected = async (client: TestClient) =>
  (json(await call(client, 'list_graphs')).items as Array<{ nickname: string; selected: boolean }>).find(
    (g) => g.selected,
  )?.nickname;

beforeAll(async () => {
  dirs = await tempDirs();
  emulator = await startEmulator({
    home: dirs.home,
    graphs: [
      { name: 'work-graph', content: 'demo' },
      { name: 'home-graph', content: 'demo' },
    ],
  });
  emulator.autoDecide({ kind: 'approve' });
  ({ core } = startCore(dirs));
  await core.handlers['graphs:add']({ name: 'work-graph', nickname: 'Work', accessLevel: 'full' });
  await core.handlers['graphs:add']({ name: 'home-graph', nickname: 'Home', accessLevel: 'full' });
  [modern, legacy] = await Promise.all([launch('v2'), launch('v1')]);
});

afterAll(async () => {
  await modern?.close();
  await legacy?.close();
  await core?.close();
  await emulator?.close();
  await dirs?.cleanup();
});

it('two clients, two children: each has its own selection and its own tickets', async () => {
  await waitFor(async () =>
    (await core.handlers['status:get'](undefined)).mcpSessions === 2 ? true : undefined,
  );
  expect((await call(modern, 'select_graph', { graph: 'Work' })).isError ?? false).toBe(false);
  expect((await call(legacy, 'select_graph', { graph: 'Home' })).isError ?? false).toBe(false);
  expect(await selected(modern)).toBe('Work');
  expect(await selected(legacy)).toBe('Home');

  // The modern client's ticket for Work is not the legacy client's: its write is refused, unchanged.
  const refused = await call(legacy, 'create_block', {
    graph: 'Work',
    pageTitle: 'Inbox',
    markdown: 'from B',
  });
  expect(refused.isError).toBe(true);
  expect(json(refused).error).toMatchObject({ code: 'GRAPH_TICKET_REQUIRED', graph: 'Work' });
  // A failed call moves no selection, on either side.
  expect(await selected(legacy)).toBe('Home');
  expect(await selected(modern)).toBe('Work');
  const written = await call(modern, 'create_block', { pageTitle: 'Inbox', markdown: 'from A' });
  expect(written.isError ?? false).toBe(false);
});

it('one client leaving ends its child only', async () => {
  await legacy.close();
  await waitFor(async () =>
    (await core.handlers['status:get'](undefined)).mcpSessions === 1 ? true : undefined,
  );
  expect(await selected(modern)).toBe('Work');
});
