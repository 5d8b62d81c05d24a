// The tray's "ask before destructive writes" setting, the whole chain with nothing faked: stored
// (on by default), sent by the launcher to the real roam-mcp child with every config, applied
// live: a client that declares elicitation is asked while it is on and not once it is off.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TrayCore } from '../../../src-main/core/tray-core.ts';
import { startEmulator, type Emulator } from '../../emulator/index.ts';
import { launcherArgs, repoRoot, startCore, tempDirs } from '../helpers.ts';

let dirs: Awaited<ReturnType<typeof tempDirs>>;
let emulator: Emulator;
let core: TrayCore;
let client: Client;
const asked: string[] = [];

const call = async (name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as {
    isError?: boolean;
    content: Array<{ text?: string }>;
  };
const pageExists = (uid: string) =>
  emulator.graph('notes').run('data.q', ['[:find ?e . :in $ ?u :where [?e :block/uid ?u]]', uid]) !== null;

beforeAll(async () => {
  dirs = await tempDirs();
  emulator = await startEmulator({
    home: dirs.home,
    graphs: [
      {
        name: 'notes',
        content: Array.from({ length: 4 }, (_, i) => ({
          title: `Page ${i}`,
          uid: `page${i}0000`,
          children: ['text'],
        })),
      },
    ],
  });
  emulator.autoDecide({ kind: 'approve' });
  ({ core } = startCore(dirs));
  await core.handlers['graphs:add']({ name: 'notes', nickname: 'Notes', accessLevel: 'full' });
  client = new Client(
    { name: 'tray-confirm', version: '0.0.0' },
    { capabilities: { elicitation: { form: {} } } },
  );
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params.message);
    return { action: 'decline' };
  });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: launcherArgs(dirs),
      cwd: repoRoot,
      env: { ...(process.env as Record<string, string>), HOME: dirs.home, USERPROFILE: dirs.home },
      stderr: 'ignore',
    }),
  );
  expect((await call('select_graph', { graph: 'Notes' })).isError ?? false).toBe(false);
});

afterAll(async () => {
  await client?.close();
  await core?.close();
  await emulator?.close();
  await dirs?.cleanup();
});

it('on by default: deleting a page with content asks, and a decline keeps it', async () => {
  expect((await core.handlers['settings:get'](undefined)).confirm).toBe('destructive');
  const result = await call('delete_page', { uid: 'page00000' });
  expect(result.content[0]?.text).toMatch(/declined/);
  expect(asked).toEqual([expect.stringMatching(/^Delete the page 'Page 0'/)]);
  expect(pageExists('page00000')).toBe(true);
});

it('switched off in the tray: the running server stops asking', async () => {
  await core.handlers['settings:set']({ confirm: 'never' });
  expect((await core.handlers['settings:get'](undefined)).confirm).toBe('never');
  // The launcher forwards the change to its running child. Until it is applied each try is asked
  // and declined (nothing deleted); the page goes only when the server no longer asks.
  await expect
    .poll(async () => {
      await call('delete_page', { uid: 'page10000' });
      return pageExists('page10000');
    })
    .toBe(false);
});
