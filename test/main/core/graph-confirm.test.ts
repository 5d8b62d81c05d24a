// A graph's own "Ask me before" (Edit graph, issue 48), the whole chain with nothing faked: chosen
// through the core (validated there), kept in the store's file on disk, sent by the launcher to the
// real roam-mcp child with the graph, and applied live: "every change" asks before a one-block
// create, "never" lets a page with content go unasked, while the other graph follows Settings
// (whose own three choices are the server's policy for every graph without one).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TrayCore } from '../../../src-main/core/tray-core.ts';
import { startEmulator, type Emulator } from '../../emulator/index.ts';
import { launcherArgs, nextEvent, repoRoot, startCore, tempDirs } from '../helpers.ts';

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
const count = (graph: string, text: string) =>
  emulator.graph(graph).run('data.q', ['[:find (count ?b) . :in $ ?s :where [?b :block/string ?s]]', text]) ??
  0;
const pageExists = (graph: string, uid: string) =>
  emulator.graph(graph).run('data.q', ['[:find ?e . :in $ ?u :where [?e :block/uid ?u]]', uid]) !== null;
/** The store's file as the launcher and the next start read it. */
const storedGraphs = async () =>
  (
    JSON.parse(await readFile(path.join(dirs.storeDir, 'config.json'), 'utf8')) as {
      graphs: Array<{ name: string; nickname?: string; confirm?: string }>;
    }
  ).graphs;

const pages = (prefix: string) =>
  Array.from({ length: 3 }, (_, i) => ({
    title: `${prefix} ${i}`,
    uid: `${prefix.slice(0, 3)}${i}`.padEnd(9, 'x'),
    children: ['text', 'more text'],
  }));

beforeAll(async () => {
  dirs = await tempDirs();
  emulator = await startEmulator({
    home: dirs.home,
    graphs: [
      { name: 'careful', content: pages('Careful') },
      { name: 'relaxed', content: pages('Relaxed') },
      { name: 'plain', content: pages('Plain') },
    ],
  });
  emulator.autoDecide({ kind: 'approve' });
  ({ core } = startCore(dirs));
  for (const [name, nickname] of [
    ['careful', 'Careful'],
    ['relaxed', 'Relaxed'],
    ['plain', 'Plain'],
  ] as const)
    await core.handlers['graphs:add']({ name, nickname, accessLevel: 'full' });
  client = new Client(
    { name: 'tray-graph-confirm', version: '0.0.0' },
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
  for (const graph of ['Careful', 'Relaxed', 'Plain'])
    expect((await call('select_graph', { graph })).isError ?? false).toBe(false);
});

afterAll(async () => {
  await client?.close();
  await core?.close();
  await emulator?.close();
  await dirs?.cleanup();
});

it('a new graph follows Settings: changes that take much away, no choice of its own on disk', async () => {
  const views = await core.handlers['graphs:list'](undefined);
  expect(views.map((g) => [g.nickname, g.confirm, g.confirmOwn])).toEqual([
    ['Careful', 'destructive', false],
    ['Relaxed', 'destructive', false],
    ['Plain', 'destructive', false],
  ]);
  expect((await storedGraphs()).map((g) => g.confirm)).toEqual([undefined, undefined, undefined]);
});

it('a value the server does not know is refused by the core, saying the choices, and nothing is written', async () => {
  await expect(
    core.handlers['graphs:update']({ id: 'hosted:careful', nickname: 'Renamed', confirm: 'always' }),
  ).rejects.toMatchObject({
    code: 'INVALID_INPUT',
    message: expect.stringMatching(/confirm: must be one of 'never', 'destructive', 'every-write'/),
  });
  // Not even the valid field beside it: the whole update is refused. (The file itself may be
  // rewritten meanwhile by a token the child obtained, so its fields are compared, not its bytes.)
  const careful = (await storedGraphs()).find((g) => g.name === 'careful');
  expect([careful?.nickname, careful?.confirm]).toEqual(['Careful', undefined]);
});

it('"Every change" is kept in the file and asks before a one-block create; a decline writes nothing', async () => {
  const view = await core.handlers['graphs:update']({ id: 'hosted:careful', confirm: 'every-write' });
  expect([view.confirm, view.confirmOwn]).toEqual(['every-write', true]);
  expect((await storedGraphs()).find((g) => g.name === 'careful')?.confirm).toBe('every-write');
  // The launcher sends the change to its running child; until it is applied a small create goes
  // unasked, so each try writes a text of its own and the one that was asked is the one kept out.
  let tries = 0;
  await expect
    .poll(async () => {
      asked.length = 0;
      const text = `draft ${++tries}`;
      await call('create_block', { graph: 'Careful', pageTitle: 'Careful 0', markdown: text });
      return asked.length === 1 && count('careful', text) === 0;
    })
    .toBe(true);
  expect(asked[0]).toMatch(/create_block/);
  // The graph beside it has no such choice: a small create there asks nothing.
  asked.length = 0;
  await call('create_block', { graph: 'Relaxed', pageTitle: 'Relaxed 0', markdown: 'small note' });
  expect(asked).toEqual([]);
  expect(count('relaxed', 'small note')).toBe(1);
});

it('"Never" on one graph: a page with content goes unasked there, and Careful still asks', async () => {
  const view = await core.handlers['graphs:update']({ id: 'hosted:relaxed', confirm: 'never' });
  expect([view.confirm, view.confirmOwn]).toEqual(['never', true]);
  expect((await core.handlers['settings:get'](undefined)).confirm).toBe('destructive');
  // Until the child has it, each try is asked and declined (nothing deleted).
  let page = 0;
  await expect
    .poll(async () => {
      const uid = `Rel${page++ % 3}`.padEnd(9, 'x');
      await call('delete_page', { graph: 'Relaxed', uid });
      return pageExists('relaxed', uid);
    })
    .toBe(false);
  asked.length = 0;
  const kept = await call('delete_page', { graph: 'Careful', uid: 'Car1xxxxx' });
  expect(kept.content[0]?.text).toMatch(/declined/);
  expect(asked).toHaveLength(1);
  expect(pageExists('careful', 'Car1xxxxx')).toBe(true);
});

it('Settings changes the graphs without a choice of their own, and their rows are told', async () => {
  const changed = nextEvent(core, 'graphs:changed', (list) =>
    list.some((g) => g.confirm === 'never' && !g.confirmOwn),
  );
  await core.handlers['settings:set']({ confirm: 'never' });
  const views = await changed;
  expect(views.map((g) => [g.nickname, g.confirm, g.confirmOwn])).toEqual([
    ['Careful', 'every-write', true],
    ['Relaxed', 'never', true],
    ['Plain', 'never', false],
  ]);
  expect((await storedGraphs()).map((g) => g.confirm)).toEqual(['every-write', 'never', undefined]);
});

it('"Every change" in Settings asks before a small create on a graph without its own; "Never" of its own still wins', async () => {
  await core.handlers['settings:set']({ confirm: 'every-write' });
  let tries = 0;
  await expect
    .poll(async () => {
      asked.length = 0;
      const text = `plain draft ${++tries}`;
      await call('create_block', { graph: 'Plain', pageTitle: 'Plain 0', markdown: text });
      return asked.length === 1 && count('plain', text) === 0;
    })
    .toBe(true);
  asked.length = 0;
  await call('create_block', { graph: 'Relaxed', pageTitle: 'Relaxed 1', markdown: 'relaxed note' });
  expect(asked).toEqual([]);
  expect(count('relaxed', 'relaxed note')).toBe(1);
  const views = await core.handlers['graphs:list'](undefined);
  expect(views.map((g) => [g.nickname, g.confirm])).toEqual([
    ['Careful', 'every-write'],
    ['Relaxed', 'never'],
    ['Plain', 'every-write'],
  ]);
});
