/**
 * Under the tray, the question before destructive writes follows the tray's setting live (a
 * `confirm` in each `config` message, src-mcp/process/run-server.ts), unless the client's own
 * command line says `--confirm`: a client that declares elicitation (the v1 SDK client) is asked
 * or not as the latest setting says.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  ElicitRequestSchema,
  ResourceListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { ChildMessage, ParentMessage } from '../../../src-shared/child-ipc.ts';
import { startEmulator, type Emulator } from '../../emulator/index.ts';
import { ChildStdioTransport } from '../../harness/child-transport.ts';
import { binCommand, binEnv, jsonOf, newToken, removeHome, tempHome, textOf } from '../../harness/mcp-bin.ts';

const TOKEN = newToken();
const graph = {
  name: 'g',
  type: 'hosted' as const,
  nickname: 'g',
  token: TOKEN,
  accessLevel: 'full' as const,
};
let home: string;
let emulator: Emulator;
let child: ChildProcess;
let client: Client;
const asked: string[] = [];

async function start(args: string[] = []) {
  child = spawn(...binCommand(args), {
    env: binEnv(home, { ROAM_MCP_CONFIG_FROM_PARENT: '1' }),
    stdio: ['pipe', 'pipe', 'pipe', 'ipc'],
  });
  await new Promise<void>((resolve) =>
    child.on('message', (m: ChildMessage) => m.type === 'ready' && resolve()),
  );
  send({ type: 'config', graphs: [graph], confirm: 'never' });
  client = new Client(
    { name: 'tray-confirm', version: '1' },
    { capabilities: { elicitation: { form: {} } } },
  );
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params.message);
    return { action: 'decline' };
  });
  await client.connect(new ChildStdioTransport(child));
  jsonOf(await call('select_graph', { graph: 'g' }));
}

const send = (message: ParentMessage) => child.send(message);

/** Sends a config and resolves once the child has applied it (it then tells the client resources changed). */
function applied(message: ParentMessage): Promise<void> {
  const seen = new Promise<void>((resolve) =>
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => resolve()),
  );
  send(message);
  return seen;
}
const call = async (name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as Parameters<typeof textOf>[0];
const exists = (uid: string) =>
  emulator.graph('g').run('data.q', ['[:find ?e . :in $ ?u :where [?e :block/uid ?u]]', uid]) !== null;

beforeEach(async () => {
  asked.length = 0;
  home = await tempHome();
  emulator = await startEmulator({
    home,
    graphs: [
      {
        name: 'g',
        tokens: [{ token: TOKEN, accessLevel: 'full' }],
        content: ['a', 'b'].map((tag) => ({
          title: `Page ${tag}`,
          uid: `page${tag}0000`,
          children: [`${tag} text`],
        })),
      },
    ],
  });
});

afterEach(async () => {
  await client?.close().catch(() => {});
  if (child && child.exitCode === null) child.kill();
  await emulator?.close();
  await removeHome(home);
});

it('never, then destructive: the second config makes the next delete ask', async () => {
  await start();
  jsonOf(await call('delete_page', { uid: 'pagea0000' }));
  expect(asked).toEqual([]);
  expect(exists('pagea0000')).toBe(false);

  await applied({ type: 'config', graphs: [graph], confirm: 'destructive' });
  expect(textOf(await call('delete_page', { uid: 'pageb0000' }))).toMatch(/declined/);
  expect(asked[0]).toMatch(/^Delete the page 'Page b' and its 1 block/);
  expect(exists('pageb0000')).toBe(true);
});

it('--confirm on the command line wins over the tray', async () => {
  await start(['--confirm', 'never']);
  await applied({ type: 'config', graphs: [graph], confirm: 'destructive' });
  jsonOf(await call('delete_page', { uid: 'pagea0000' }));
  expect(asked).toEqual([]);
});
