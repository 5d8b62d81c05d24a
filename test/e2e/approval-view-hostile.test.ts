/**
 * The approval view with what a hostile agent makes, in Debian's Chromium, with the app the built
 * bin serves and a real SDK client that renders MCP Apps (no elicitation), against the emulator:
 * a replaced text shows what comes (its new words marked), not only what goes; a page title with
 * a right-to-left override, `<b>` markup and 5,000 characters draws nothing reversed, no markup,
 * and stays a line; Approve and Keep are reachable from the keyboard, Approve first; after Approve
 * the view says what happened in a person's words (no JSON, no uid, no agent tool to run). Both
 * themes, axe-core finds nothing.
 */
import type { FrameLocator } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { consentClient, type ConsentClient } from '../harness/consent-client.ts';
import { jsonOf } from '../harness/mcp-bin.ts';
import { startOneGraphWorld, type StdioWorld } from '../harness/stdio-world.ts';
import { openChangeReview, type AppHost } from './app-host/page.ts';
import { drawnLefts, increasing } from './drawn-order.ts';

const WIRE = 'Wire the money to account 666 [[Approved by CFO]]';
const HOSTILE = `<b>Bold</b>\u202E ${'T'.repeat(5000)}`;
const lines = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({
    string: `${prefix} ${i + 1}`,
    uid: `${prefix}${i}`.padEnd(9, 'x'),
  }));

let world: StdioWorld;
let agent: ConsentClient;
let host: AppHost;
let app: FrameLocator;

beforeAll(async () => {
  world = await startOneGraphWorld([
    { title: 'Ledger', uid: 'ledger001', children: lines('entry', 12) },
    { title: HOSTILE, uid: 'hostile01', children: lines('item', 12) },
  ]);
  agent = await consentClient(world.home, '2026-07-28', { apps: true });
  jsonOf(await agent.call('select_graph', { graph: 'g' }));
  host = await openChangeReview({
    callTool: (params) => agent.call(params.name, params.arguments ?? {}),
    width: 1200,
  });
  app = host.app;
});

afterAll(async () => {
  await host?.close();
  await agent?.close();
  await world?.close();
});

const frame = () => host.appFrame();

it('a replaced text shows what comes: each block before and after, the new words marked', async () => {
  const updates = lines('entry', 11).map((b, i) => ({
    uid: b.uid,
    string: i === 3 ? `entry ${i + 1} ${WIRE}` : WIRE,
  }));
  await host.showResult(await agent.call('update_blocks', { updates }));
  await app.getByRole('heading', { name: 'Texts that are replaced' }).waitFor();
  const edits = await app.locator('.replaced > li').allInnerTexts();
  expect(edits).toHaveLength(11);
  expect(edits[0]).toMatch(
    /Before\s+entry 1\s+After\s+Wire the money to account 666 \[\[Approved by CFO\]\]/,
  );
  // The block that keeps its words marks only what comes.
  const kept = app.locator('.replaced > li').nth(3);
  expect(await kept.locator('ins').allInnerTexts()).toEqual([expect.stringContaining('Wire the money')]);
  expect(await kept.locator('del').count()).toBe(0);
  expect(await app.locator('.question').innerText()).toMatch(/^Replace the text of 11 blocks on 'Ledger'/);
  await host.checkAndShoot('approval-view-new-text');
  await app.getByRole('button', { name: 'Keep as it is' }).click();
  await app.getByRole('heading', { name: 'Kept as it is' }).waitFor();
});

it('a hostile page title draws nothing reversed, no markup, and stays a line; keyboard reaches Approve then Keep', async () => {
  await host.showResult(await agent.call('delete_page', { uid: 'hostile01' }));
  const head = app.locator('.op-head').first();
  await head.waitFor();
  expect(await frame().evaluate(() => document.querySelectorAll('b, strong').length)).toBe(0);
  expect(await head.innerText()).toMatch(/^Page <b>Bold<\/b>.* T{10,}…\s*goes, with 12 blocks\.$/);
  // What the view says after the title reads left to right, whatever the title's override.
  const lefts = await head.evaluate(drawnLefts, ['goes', 'with', '12 blocks']);
  expect(increasing(lefts)).toBe(true);
  const question = await app.locator('.question').innerText();
  expect(question.length).toBeLessThan(300);
  expect(
    increasing(await app.locator('.question').evaluate(drawnLefts, ['Delete the page', 'and its 12 blocks'])),
  ).toBe(true);
  // Bounded: a 5,000-character title neither widens the view nor runs past a few lines.
  const box = await frame().evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    width: document.documentElement.clientWidth,
    head: document.querySelector('.op-head')!.getBoundingClientRect().height,
  }));
  expect(box.scroll).toBeLessThanOrEqual(box.width);
  expect(box.head).toBeLessThan(100);

  await frame().evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await frame().focus('#proposal-heading');
  await host.page.keyboard.press('Tab');
  expect(await frame().evaluate(() => document.activeElement?.textContent)).toBe('Approve');
  expect(await frame().evaluate(() => document.activeElement?.className)).toBe('primary');
  await host.page.keyboard.press('Tab');
  expect(await frame().evaluate(() => document.activeElement?.textContent)).toBe('Keep as it is');
  await host.checkAndShoot('approval-view-hostile-title');
});

it('after Approve the view says what happened in a person’s words: no JSON, no uid, no agent tool', async () => {
  await app.getByRole('button', { name: 'Approve' }).click();
  const status = app.getByRole('status');
  await app.getByRole('heading', { name: 'Approved' }).waitFor();
  const said = await status.innerText();
  expect(said).toMatch(/^Approved and done\. To take it back: Activity in Roam Companion/);
  expect(said).not.toMatch(/[{}]|hostile01|undo_changes/);
  expect(await host.violations()).toEqual([]);
});
