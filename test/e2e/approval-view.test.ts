/**
 * The approval view end to end, in Debian's Chromium: a write the consent gate holds for a client
 * that renders MCP Apps (a real v2 SDK client declaring `io.modelcontextprotocol/ui`, no
 * elicitation) arrives in the change-review app, hosted by the package's own host side
 * (test/e2e/app-host/host.ts). It draws what would go by page and text, hidden blocks only
 * counted; from the keyboard, Approve calls the app-only tool with exactly the result's one-time
 * values and the page goes; Keep leaves the graph as it was; either way the model is told
 * (ui/update-model-context). Both themes, axe-core finds nothing, no uid or code on the page.
 * Screenshots into docs/screenshots with UPDATE_SCREENSHOTS=1.
 */
import type { FrameLocator } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { consentClient, type ConsentClient } from '../harness/consent-client.ts';
import { jsonOf, textOf } from '../harness/mcp-bin.ts';
import { startOneGraphWorld, type StdioWorld } from '../harness/stdio-world.ts';
import { openChangeReview, type AppHost, type ToolCall } from './app-host/page.ts';

const SECRET = 'TOPSECRET-99';
const lines = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({
    string: `${prefix} ${i + 1}`,
    uid: `${prefix.slice(0, 3)}${i}`.padEnd(9, 'x'),
  }));
let world: StdioWorld;
let agent: ConsentClient;
let host: AppHost;
let app: FrameLocator;
/** Every call the app made but its checks of what became of an open proposal (they may come any time). */
const calls: ToolCall[] = [];
const told: string[] = [];

beforeAll(async () => {
  world = await startOneGraphWorld([
    {
      title: 'Plans',
      uid: 'plans0001',
      children: [...lines('Plan step', 11), { string: `${SECRET} #.rm-hide`, children: [`${SECRET} below`] }],
    },
    { title: 'Keepers', uid: 'keepers01', children: lines('Keeper', 12) },
    { title: 'Notes', uid: 'notes0001', children: [{ string: 'a note', uid: 'anote0001' }] },
    { title: 'Elsewhere', uid: 'elsewhere', children: lines('Elsewhere', 3) },
    { title: 'Pressed', uid: 'pressed01', children: lines('Pressed', 3) },
    { title: 'Reached', uid: 'reached01', children: lines('Reached', 3) },
    { title: 'Watched', uid: 'watched01', children: lines('Watched', 3) },
  ]);
  agent = await consentClient(world.home, '2026-07-28', { apps: true });
  jsonOf(await agent.call('select_graph', { graph: 'g' }));

  host = await openChangeReview({
    callTool: async (params) => {
      if (params.name !== 'read_proposal') calls.push(params);
      return agent.call(params.name, params.arguments ?? {});
    },
    modelContext: async (params) => {
      told.push((params.content ?? []).map((c) => c.text ?? '').join(' '));
    },
  });
  app = host.app;
});

afterAll(async () => {
  await host?.close();
  await agent?.close();
  await world?.close();
});

const exists = (uid: string) =>
  world.emulator.graph('g').run('data.q', ['[:find ?e . :in $ ?u :where [?e :block/uid ?u]]', uid]) != null;

/** The agent calls a tool; the host hands its result to the app, as a host that renders apps does. */
async function agentCalls(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const result = await agent.call(name, args);
  await host.showResult(result);
  return result;
}

it('draws the held delete by page and text, hidden blocks counted; Approve from the keyboard deletes and the model is told', async () => {
  const held = await agentCalls('delete_page', { uid: 'plans0001' });
  const values = held._meta?.['roam-companion/approve'] as {
    tool: string;
    arguments: Record<string, string>;
  };
  const heading = app.getByRole('heading', { name: 'The agent asks before it goes ahead' });
  await heading.waitFor();
  await expect
    .poll(() => host.appFrame().evaluate(() => document.activeElement?.id))
    .toBe('proposal-heading');
  expect(await app.locator('.question').innerText()).toMatch(
    /^Delete the page 'Plans' and its 13 blocks \(2 of them hidden\)/,
  );
  const removed = await app.locator('.outline.removed > li').allInnerTexts();
  expect(removed).toHaveLength(11);
  expect(removed[0]).toBe('Plan step 1 · Plans');
  const html = await host.appFrame().evaluate(() => document.documentElement.outerHTML);
  expect(html).not.toContain(SECRET);
  expect(html).not.toContain(values.arguments.code!);
  for (const uid of ['plans0001', 'Plax0xxxx']) expect(html).not.toContain(uid);
  await host.checkAndShoot('approval-proposal');

  calls.length = 0;
  await host.page.keyboard.press('Tab');
  await expect
    .poll(() => host.appFrame().evaluate(() => document.activeElement?.textContent))
    .toBe('Approve');
  await host.page.keyboard.press('Enter');
  await app.getByText(/^Approved and done\. To take it back/).waitFor();
  // The outcome is a person's sentence: not the write's result (JSON naming the page's uid), not
  // the model's advice to call undo_changes.
  const after = await host.appFrame().evaluate(() => document.getElementById('app')!.innerText);
  expect(after).toMatch(/To take it back: Activity in Roam Companion/);
  for (const uid of ['plans0001', 'Plax0xxxx']) expect(after).not.toContain(uid);
  expect(after).not.toMatch(/[{}"]|undo_changes/);
  expect(calls.map(({ name, arguments: args }) => ({ name, arguments: args }))).toEqual([
    { name: values.tool, arguments: values.arguments },
  ]);
  expect(exists('plans0001')).toBe(false);
  await expect
    .poll(() => told.at(-1))
    .toMatch(/^The person answered the change that waited for them: Approved by the person and done/);
  expect(await host.violations()).toEqual([]);
});

it('Keep leaves the graph as it was, and the model is told', async () => {
  const held = await agentCalls('delete_page', { uid: 'keepers01' });
  const keep = held._meta?.['roam-companion/keep'] as { tool: string; arguments: Record<string, string> };
  calls.length = 0;
  await app.getByRole('button', { name: 'Keep as it is' }).click();
  await app.getByText(/^Kept as it is: nothing was changed\./).waitFor();
  expect(calls.map(({ name, arguments: args }) => ({ name, arguments: args }))).toEqual([
    { name: 'keep_change', arguments: keep.arguments },
  ]);
  expect(exists('keepers01')).toBe(true);
  expect(
    world.emulator
      .graph('g')
      .run('data.q', ['[:find (count ?b) . :where [?p :block/uid "keepers01"] [?b :block/page ?p]]']),
  ).toBe(12);
  await expect.poll(() => told.at(-1)).toMatch(/Kept: the person chose to keep things as they are/);
  const listed = jsonOf<{ proposals: Array<{ status: string; tool: string }> }>(
    await agent.call('list_changes', {}),
  );
  expect(listed.proposals.map((p) => p.status)).toEqual(['kept', 'approved']);
});

type Values = { tool: string; arguments: Record<string, string> };
/**
 * The view out of sight: it asks on no timer, so what a test does next (a press, a reach) is the
 * first to learn what became of the proposal. `seen` undoes it.
 */
const outOfSight = () =>
  host
    .appFrame()
    .evaluate(() =>
      Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true }),
    );
const seen = () =>
  host.appFrame().evaluate(() => delete (document as { visibilityState?: unknown }).visibilityState);
/** The view asks the server again, as when the person comes back to it (no waiting on a timer). */
const shownAgain = () =>
  host.appFrame().evaluate(() => document.dispatchEvent(new Event('visibilitychange')));

it('approved elsewhere while the view is open: shown again, it says so instead of live buttons, and the model is told', async () => {
  const held = await agentCalls('delete_page', { uid: 'elsewhere' });
  await app.getByRole('button', { name: 'Approve' }).waitFor();
  // Answered where the view is not (Roam Companion answers with the same call, in this chat).
  const approve = held._meta?.['roam-companion/approve'] as Values;
  expect(textOf(await agent.call(approve.tool, approve.arguments))).toMatch(/^Approved by the person/);
  expect(exists('elsewhere')).toBe(false);

  await shownAgain();
  await app.getByRole('heading', { name: 'Approved elsewhere' }).waitFor();
  expect(await app.getByRole('button', { name: 'Approve' }).count()).toBe(0);
  expect(await app.getByRole('status').innerText()).toMatch(/^Approved and done\. To take it back/);
  await expect
    .poll(() => told.at(-1))
    .toMatch(
      /^The person answered the change that waited for them elsewhere: Approved by the person and done/,
    );
  expect(await host.violations()).toEqual([]);
});

it('Approve pressed after it was kept elsewhere: the view shows it was kept, not an error, and nothing goes', async () => {
  const held = await agentCalls('delete_page', { uid: 'pressed01' });
  await app.getByRole('button', { name: 'Approve' }).waitFor();
  await outOfSight();
  const keep = held._meta?.['roam-companion/keep'] as Values;
  expect(textOf(await agent.call(keep.tool, keep.arguments))).toMatch(/^Kept: /);
  told.length = 0;
  // A press with nothing before it (no pointer over the view, no focus moved: those ask first).
  await host.appFrame().evaluate(() => document.querySelector<HTMLButtonElement>('button.primary')?.click());
  await app.getByRole('heading', { name: 'Kept as it is, answered elsewhere' }).waitFor();
  expect(await app.getByRole('alert').count()).toBe(0);
  expect(exists('pressed01')).toBe(true);
  await expect
    .poll(() => told.at(-1))
    .toMatch(/elsewhere: Kept: the person chose to keep things as they are/);
  expect(told).toHaveLength(1);
  await seen();
});

it('a write nothing held draws nothing', async () => {
  const result = await agentCalls('update_block', { uid: 'anote0001', string: 'a note, edited' });
  expect(textOf(result)).toMatch(/updated/);
  await expect.poll(() => app.locator('#app').innerText()).toBe('');
});

it('Undo whole chat from the change review on such a client: the dry run, then Undo is the person’s yes to the undo it holds', async () => {
  for (let i = 0; i < 11; i++)
    jsonOf(await agent.call('create_block', { pageTitle: 'Notes', markdown: `agent note ${i}` }));
  await agentCalls('list_changes', {});
  await app.getByRole('button', { name: 'Undo whole chat…' }).click();
  await app.getByRole('heading', { name: 'Undo the whole chat?' }).waitFor();
  calls.length = 0;
  await app.getByRole('button', { name: 'Undo', exact: true }).click();
  await app.getByRole('heading', { name: 'Undone' }).waitFor();
  const names = calls.map((c) => c.name);
  expect(names).toEqual(['undo_changes', 'approve_change']);
  expect(calls[0]!.arguments).toEqual({ ids: expect.any(Array) });
  expect(Object.keys(calls[1]!.arguments!).sort()).toEqual(['code', 'proposal']);
  const notes = world.emulator
    .graph('g')
    .run('data.q', [
      '[:find ?s :where [?p :block/uid "notes0001"] [?b :block/page ?p] [?b :block/string ?s]]',
    ]);
  expect(JSON.stringify(notes)).not.toContain('agent note');
  expect(exists('plans0001')).toBe(true);
  await expect
    .poll(() => told.at(-1))
    .toMatch(/^The person undid changes from the change review: Approved by the person/);
  expect(await host.violations()).toEqual([]);
});

it('answered in Roam Companion while the view is open and seen: its buttons go within seconds, untouched', async () => {
  const held = await agentCalls('delete_page', { uid: 'watched01' });
  await app.getByRole('button', { name: 'Approve' }).waitFor();
  const keep = held._meta?.['roam-companion/keep'] as Values;
  expect(textOf(await agent.call(keep.tool, keep.arguments))).toMatch(/^Kept: /);
  // No pointer, no focus, no visibilitychange: the view's own question on its timer (3 s).
  await app.getByRole('heading', { name: 'Kept as it is, answered elsewhere' }).waitFor();
  expect(await app.getByRole('button', { name: 'Approve' }).count()).toBe(0);
  expect(exists('watched01')).toBe(true);
});

it('answered in Roam Companion while the view is open: reaching for the buttons takes them away before a press', async () => {
  const held = await agentCalls('delete_page', { uid: 'reached01' });
  await app.getByRole('button', { name: 'Approve' }).waitFor();
  await outOfSight();
  const keep = held._meta?.['roam-companion/keep'] as Values;
  expect(textOf(await agent.call(keep.tool, keep.arguments))).toMatch(/^Kept: /);
  // The keyboard reaches for Approve: the view asks first, and the buttons go.
  await host.page.keyboard.press('Tab');
  await app.getByRole('heading', { name: 'Kept as it is, answered elsewhere' }).waitFor();
  expect(await app.getByRole('button', { name: 'Approve' }).count()).toBe(0);
  expect(exists('reached01')).toBe(true);
  await seen();
});
