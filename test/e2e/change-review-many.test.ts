/**
 * The change-review app's Undo of more changes than one undo_changes call takes (100 ids), in
 * Debian's Chromium through ext-apps' host side, every call going to the built bin against the
 * emulator: the app undoes exactly the changes its dry run showed, in batches of at most 100,
 * newest first, never "the whole chat" again (a change made after the dry run stays); when a
 * batch is not undone (the person declines it), it stops there and says how far it got, and the
 * older changes stay. The bin itself still refuses 101 ids in one call, with nothing undone.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { consentClient, type ConsentClient } from '../harness/consent-client.ts';
import { jsonOf, textOf } from '../harness/mcp-bin.ts';
import { startOneGraphWorld, type StdioWorld } from '../harness/stdio-world.ts';
import { openChangeReview, type AppHost, type ToolCall } from './app-host/page.ts';

let world: StdioWorld;
/** One app for both chats: each test routes the app's calls to its own chat. */
let host: AppHost | undefined;
let route: { call: Call; calls: ToolCall[] };
const clients: ConsentClient[] = [];

beforeAll(async () => {
  world = await startOneGraphWorld([
    { title: 'Many', uid: 'many00001', children: [{ string: 'first' }] },
    { title: 'Asked', uid: 'asked0001', children: [{ string: 'first' }] },
  ]);
});
afterAll(async () => {
  await host?.close();
  for (const client of clients) await client.close();
  await world?.close();
});

const onPage = (title: string) =>
  (world.emulator
    .graph('g')
    .run('data.q', [
      '[:find (count ?b) . :in $ ?t :where [?p :node/title ?t] [?b :block/page ?p]]',
      title,
    ]) as number | null) ?? 0;
const texts = (title: string) =>
  (
    world.emulator
      .graph('g')
      .run('data.q', [
        '[:find ?s :in $ ?t :where [?p :node/title ?t] [?b :block/page ?p] [?b :block/string ?s]]',
        title,
      ]) as string[][]
  )
    .map(([s]) => s)
    .sort();

type Call = (name: string, args: Record<string, unknown>) => ReturnType<StdioWorld['mcp']['call']>;

async function makeChanges(call: Call, page: string, n: number): Promise<void> {
  for (let i = 0; i < n; i++) jsonOf(await call('create_block', { pageTitle: page, markdown: `made ${i}` }));
}

/** The app, its calls now going to `call` (and noted in `calls`), showing that chat's `total` changes. */
async function reviewWith(call: Call, calls: ToolCall[], total: number) {
  route = { call, calls };
  host ??= await openChangeReview({
    callTool: (params) => {
      route.calls.push(params);
      return route.call(params.name, params.arguments ?? {});
    },
  });
  await host.showResult(await call('list_changes', {}));
  await host.app.getByRole('heading', { name: `Changes in this chat (${total})` }).waitFor();
  return host;
}

it('undoes all 105 changes its dry run showed, in calls of 100 and 5, and not a change made after it', async () => {
  const call: Call = (name, args) => world.mcp.call(name, args);
  await makeChanges(call, 'Many', 105);
  expect(onPage('Many')).toBe(106);

  const refused = await call('undo_changes', {
    ids: Array.from({ length: 101 }, (_, i) => `c-${i}`),
  });
  expect(refused.isError).toBe(true);
  expect(textOf(refused)).toMatch(/INVALID_PARAMS/);

  const calls: ToolCall[] = [];
  const { app } = await reviewWith(call, calls, 105);
  await app.getByRole('button', { name: 'Undo whole chat…' }).click();
  await app.getByRole('heading', { name: 'Undo the whole chat?' }).waitFor();
  expect(await app.locator('.report > li').count()).toBe(105);
  const later = jsonOf<{ uids: string[] }>(
    await call('create_block', { pageTitle: 'Many', markdown: 'made after the dry run' }),
  ).uids[0]!;

  await app.getByRole('button', { name: 'Undo', exact: true }).click();
  await app.getByRole('heading', { name: 'Undone' }).waitFor();
  expect(await app.getByText('Took back 105 change(s).').count()).toBe(1);
  const undos = calls.filter((c) => c.name === 'undo_changes');
  expect(undos.map((c) => [c.arguments?.dryRun, (c.arguments?.ids as string[] | undefined)?.length])).toEqual(
    [
      [true, undefined],
      [undefined, 100],
      [undefined, 5],
    ],
  );
  expect(undos[0]!.arguments).toEqual({ all: true, dryRun: true });
  expect(
    new Set([...(undos[1]!.arguments!.ids as string[]), ...(undos[2]!.arguments!.ids as string[])]).size,
  ).toBe(105);
  expect(texts('Many')).toEqual(['first', 'made after the dry run']);
  expect(later).toBeTruthy();
});

it('stops at the first batch the person declines, says how far it got, and leaves the older changes', async () => {
  let questions = 0;
  const agent = await consentClient(world.home, '2026-07-28', {
    answer: () => (++questions === 1 ? 'accept' : 'decline'),
  });
  clients.push(agent);
  jsonOf(await agent.call('select_graph', { graph: 'g' }));
  const call: Call = (name, args) => agent.call(name, args);
  await makeChanges(call, 'Asked', 115);

  const calls: ToolCall[] = [];
  const { app } = await reviewWith(call, calls, 115);
  await app.getByRole('button', { name: 'Undo whole chat…' }).click();
  await app.getByRole('heading', { name: 'Undo the whole chat?' }).waitFor();
  await app.getByRole('button', { name: 'Undo', exact: true }).click();
  await app.getByRole('heading', { name: 'Undone' }).waitFor();
  const alert = app.getByRole('alert');
  expect(await alert.innerText()).toMatch(
    /^Undid the newest 100 of the 115 changes the dry run showed, then stopped: Not done: the person declined undo_changes .* The other 15 were not undone\.$/,
  );
  expect(await app.getByText('Took back 100 change(s).').count()).toBe(1);
  expect(agent.asked).toHaveLength(2);
  expect(agent.asked[0]).toMatch(/^Undo 100 changes this chat made in graph 'g'\?/);
  expect(agent.asked[1]).toMatch(/^Undo 15 changes this chat made in graph 'g'\?/);
  // The newest 100 went; the oldest 15 stay.
  expect(texts('Asked')).toEqual(['first', ...Array.from({ length: 15 }, (_, i) => `made ${i}`)].sort());
});
