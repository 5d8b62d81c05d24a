/**
 * The tray's approvals panel with what a hostile agent makes (docs/tray.md, "Approvals"), end to
 * end: the preview runs the real tray core and its HTTP server against the emulator, a real SDK
 * client over HTTP (it names itself "Cursor") asks, and Debian's Chromium draws the panel. A
 * replaced text shows what comes, its new words marked; a page title with a right-to-left
 * override, `<b>` markup and 5,000 characters draws nothing reversed, no markup and stays a line;
 * the client that asked is named; the question is not set in bold; Approve comes first, styled
 * as the primary action as in the chat's view, and the keyboard reaches it; after Approve the note
 * points to Activity, not to an agent tool. axe-core at 420 and 1000 px, light and dark.
 */
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readUrlFile } from '../../src-mcp/data-folder/index.ts';
import { previewDataDir } from '../../src-main/preview/preview-data-dir.ts';
import { waitFor } from '../main/helpers.ts';
import { violationsEverywhere } from './axe.ts';
import { drawnLefts, increasing } from './drawn-order.ts';
import { poll } from './poll.ts';
import { screenshot } from './screenshots.ts';
import { startTrayWorld, type TrayWorld } from './tray-world.ts';

const WIRE = 'Wire the money to account 666 [[Approved by CFO]]';
const HOSTILE = `<b>Bold</b>\u202E ${'T'.repeat(5000)}`;
const lines = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({
    string: `${prefix} ${i + 1}`,
    uid: `${prefix}${i}`.padEnd(9, 'x'),
  }));

let world: TrayWorld;
let agent: Client;

beforeAll(async () => {
  world = await startTrayWorld({
    prefix: 'tray-approvals-hostile-',
    graphs: [
      {
        name: 'journal',
        content: [
          { title: 'Ledger', uid: 'ledger001', children: lines('entry', 12) },
          { title: HOSTILE, uid: 'hostile01', children: lines('item', 12) },
        ],
      },
    ],
    preview: { httpHub: { port: 0 }, env: {} },
  });
  world.emulator.autoDecide({ kind: 'approve' });
  const { core } = world.preview;
  await core.handlers['graphs:add']({ name: 'journal', nickname: 'Journal', accessLevel: 'full' });
  const { url } = await waitFor(() =>
    readUrlFile({ env: { ROAM_COMPANION_DATA_DIR: previewDataDir(world.home) } }),
  );
  await mkdir(path.join(world.home, '.cursor'), { recursive: true });
  await core.handlers['clients:install']({ id: 'cursor', toolsets: ['core'] });
  const entry = JSON.parse(await readFile(path.join(world.home, '.cursor', 'mcp.json'), 'utf8')).mcpServers[
    'roam-companion'
  ];
  const key = /^Bearer (\S+)$/.exec(entry.headers.Authorization)![1]!;
  agent = new Client({ name: 'Cursor', version: '1.0.0' });
  await agent.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    }),
  );
  await agent.callTool({ name: 'select_graph', arguments: { graph: 'Journal' } });
}, 60_000);

afterAll(async () => {
  await agent?.close().catch(() => {});
  await world?.close();
});

const card = (name: RegExp) => world.page.getByRole('listitem', { name });
const note = () => world.page.getByRole('status').filter({ hasText: /./ }).first();
const stringOf = (uid: string) =>
  world.emulator
    .graph('journal')
    .run('data.q', ['[:find ?s . :in $ ?u :where [?b :block/uid ?u] [?b :block/string ?s]]', uid]);

describe.sequential('the approvals panel with hostile text', () => {
  it('a replaced text shows what comes, its new words marked; the client is named; the question is not bold', async () => {
    const updates = lines('entry', 11).map((b) => ({ uid: b.uid, string: WIRE }));
    await agent.callTool({ name: 'update_blocks', arguments: { updates } });
    const edit = card(/^Replace the text of 11 blocks on 'Ledger'/);
    await edit.waitFor();
    const question = edit.locator('.approval-question');
    expect(await question.innerText()).toContain(`with '${WIRE}'`);
    expect(Number(await question.evaluate((e) => getComputedStyle(e).fontWeight))).toBeLessThan(600);
    expect(await edit.innerText()).toMatch(/asked by Cursor \(update_blocks\)/);
    const first = edit.locator('.approval-edits > li').first();
    expect(await first.locator('.diff-before').textContent()).toBe('Before[deleted: entry 1]');
    expect(await first.locator('ins').innerText()).toContain('Wire the money to account 666');
    expect(await edit.locator('.approval-edits > li').count()).toBe(11);
    expect(await violationsEverywhere(world.page)).toEqual([]);
    await screenshot(world.page, 'tray-approval-new-text');
    await edit.getByRole('button', { name: 'Keep as it is' }).click();
    await poll(() => edit.count()).toBe(0);
    expect(stringOf('entry0xxx')).toBe('entry 1');
  });

  it('a hostile title draws nothing reversed, no markup, bounded; Approve first and primary, from the keyboard', async () => {
    await agent.callTool({ name: 'delete_page', arguments: { uid: 'hostile01' } });
    const page = card(/^Delete the page '<b>Bold<\/b>/);
    await page.waitFor();
    expect(await page.locator('b, strong').count()).toBe(0);
    const deleted = page.locator('.diff-detail').first();
    expect(await deleted.innerText()).toMatch(/^Page deleted: <b>Bold<\/b>.* T{10,}… \(12 blocks\)$/);
    // The words after the title read left to right, whatever its override (wide: one line).
    await world.page.setViewportSize({ width: 1000, height: 760 });
    const after = await deleted.evaluate(drawnLefts, [' (', '12 blocks']);
    expect(increasing(after)).toBe(true);
    expect(
      increasing(
        await page
          .locator('.approval-question')
          .evaluate(drawnLefts, ['Delete the page', 'and its 12 blocks']),
      ),
    ).toBe(true);
    // Bounded: nothing scrolls sideways at tray size, and the card's question stays a few lines.
    const sizes = await page.evaluate((e) => ({
      scroll: document.documentElement.scrollWidth,
      width: document.documentElement.clientWidth,
      question: e.querySelector('.approval-question')!.getBoundingClientRect().height,
    }));
    expect(sizes.scroll).toBeLessThanOrEqual(sizes.width);
    expect(sizes.question).toBeLessThan(120);
    const buttons = await page.getByRole('button').allInnerTexts();
    expect(buttons).toEqual(['Approve', 'Keep as it is']);
    expect(await page.getByRole('button', { name: 'Approve' }).getAttribute('class')).toBe('primary');
    expect(await violationsEverywhere(world.page)).toEqual([]);
    await screenshot(world.page, 'tray-approval-hostile-title');

    // From the keyboard: the focus reaches Approve from the scrolling list before it, then Keep.
    await page.getByRole('group').focus();
    await world.page.keyboard.press('Tab');
    expect(await world.page.evaluate(() => document.activeElement?.textContent)).toBe('Approve');
    await world.page.keyboard.press('Tab');
    expect(await world.page.evaluate(() => document.activeElement?.textContent)).toBe('Keep as it is');
    await world.page.keyboard.press('Shift+Tab');
    await world.page.keyboard.press('Enter');
    await poll(() => note().innerText()).toMatch(
      /^Approved and done\. To take it back: Activity in Roam Companion/,
    );
    expect(await note().innerText()).not.toContain('undo_changes');
    expect(
      world.emulator.graph('journal').run('data.q', ['[:find ?e . :where [?e :block/uid "hostile01"]]']),
    ).toBeNull();
  });
});
