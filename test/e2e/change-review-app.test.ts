/**
 * The change-review MCP App end to end, in Debian's Chromium: the real app (the HTML the built bin
 * serves) in a sandboxed iframe, hosted by the package's own host side (AppBridge,
 * test/e2e/app-host/host.ts), every tools/call it makes going through a real SDK client to the
 * built bin against the emulator. A chat with an edit, a create, a move and a conflict, each drawn
 * as a diff (the edit's changed words marked, the create's outline, the move's pages, the
 * conflict's two texts side by side); Undo from the keyboard runs the dry run, then the undo; the
 * conflict is shown and left alone; light and dark from the host's theme; axe-core finds nothing;
 * no hidden block's text ever reaches the page.
 * Screenshots (light and dark) into docs/screenshots with UPDATE_SCREENSHOTS=1.
 */
import type { FrameLocator } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { jsonOf } from '../harness/mcp-bin.ts';
import { startOneGraphWorld, type StdioWorld } from '../harness/stdio-world.ts';
import { openChangeReview, type AppHost, type ToolCall } from './app-host/page.ts';

const SECRET = 'TOPSECRET-42';
let world: StdioWorld;
let host: AppHost;
let app: FrameLocator;
/** Every tools/call the app made through the host, in order. */
const calls: ToolCall[] = [];

beforeAll(async () => {
  world = await startOneGraphWorld([
    {
      title: 'Project',
      uid: 'project01',
      children: [
        { string: 'Met on Monday about alpha', uid: 'alpha0001' },
        { string: 'beta', uid: 'beta00001' },
      ],
    },
    {
      title: 'Notes',
      uid: 'notes0001',
      children: [
        { string: 'visible note', uid: 'visible01' },
        { string: `${SECRET} #.rm-hide`, uid: 'hidden001', children: [`${SECRET} child`] },
      ],
    },
    {
      title: 'Inbox',
      uid: 'inbox0001',
      children: [
        { string: 'visible parent', uid: 'vparent01', children: [`${SECRET} private #.rm-private`] },
      ],
    },
  ]);
  const agent = (name: string, args: Record<string, unknown>) => world.mcp.call(name, args).then(jsonOf);
  await agent('update_block', { uid: 'alpha0001', string: 'Met on Tuesday about alpha' });
  await agent('create_block', { pageTitle: 'Project', markdown: '- delta\n  - delta child' });
  await agent('update_block', { uid: 'beta00001', string: 'beta by agent' });
  await agent('move_block', { uid: 'visible01', parentUid: 'vparent01' });
  // A person edits the agent's block afterwards: undoing that change is a conflict.
  world.emulator
    .graph('g')
    .run('data.block.update', [{ block: { uid: 'beta00001', string: 'beta by person' } }]);

  host = await openChangeReview({
    callTool: async (params) => {
      calls.push(params);
      return world.mcp.call(params.name, params.arguments ?? {});
    },
  });
  app = host.app;
  // The same page the bin serves (test/mcp/apps/change-review-resource.test.ts reads it there).
  const served = await world.mcp.client.readResource({ uri: 'ui://roam-mcp/change-review.html' });
  expect(served.contents[0]?.text).toBe(host.html);
});

afterAll(async () => {
  await host?.close();
  await world?.close();
});

const blockText = (uid: string) =>
  world.emulator
    .graph('g')
    .run('data.q', ['[:find ?s . :in $ ?u :where [?b :block/uid ?u] [?b :block/string ?s]]', uid]);

const titled = (title: string) =>
  world.emulator.graph('g').run('data.q', ['[:find ?p . :in $ ?t :where [?p :node/title ?t]]', title]) !==
  null;

/** What the host does when the agent calls list_changes: the result goes to the app. */
async function showListChanges(): Promise<CallToolResult> {
  const result = await world.mcp.call('list_changes', {});
  await host.showResult(result);
  return result;
}

it('shows each change as a diff: the edit’s changed words, the create’s outline, the move’s pages', async () => {
  await showListChanges();
  await app.getByRole('heading', { name: 'Changes in this chat (4)' }).waitFor();
  const items = app.locator('li.change');
  await expect.poll(() => items.count()).toBe(4);

  // The edit: both texts, only the word that changed marked on each side.
  const edit = app.locator('li.change', { hasText: 'Tuesday' });
  expect(await edit.locator('.op-head').innerText()).toBe('Edited a block on Project');
  expect(await edit.locator('.row').allInnerTexts()).toEqual([
    'Before\nMet on Monday about alpha',
    'After\nMet on Tuesday about alpha',
  ]);
  expect(await edit.locator('del').allInnerTexts()).toEqual(['Monday']);
  expect(await edit.locator('ins').allInnerTexts()).toEqual(['Tuesday']);

  // The create: the outline it added, nested as written.
  const create = app.locator('li.change', { hasText: 'delta child' });
  expect(await create.locator('.op-head').innerText()).toBe('Added 2 blocks');
  expect(await create.locator('.op > .outline.added > li > ins').allInnerTexts()).toEqual(['delta']);
  expect(await create.locator('.op > .outline > li > .outline.added > li > ins').allInnerTexts()).toEqual([
    'delta child',
  ]);

  // The move: from which page to which page (and under which block), never a uid.
  const move = app.locator('li.change', { hasText: 'Moved a block' });
  expect(await move.locator('.row').allInnerTexts()).toEqual([
    'Block\nvisible note',
    'From\nNotes',
    'To\nInbox › visible parent',
  ]);
  const html = await host.appFrame().evaluate(() => document.documentElement.outerHTML);
  for (const uid of ['visible01', 'vparent01', 'notes0001', 'alpha0001', 'project01'])
    expect(html).not.toContain(uid);
  await host.checkAndShoot('change-review-list');
});

it('Undo from the keyboard: the dry run first, then the undo, through the host', async () => {
  calls.length = 0;
  const undo = app
    .locator('li.change', { hasText: 'Tuesday' })
    .getByRole('button', { name: 'Undo update_block: Edited a block on Project' });
  await undo.focus();
  await host.page.keyboard.press('Enter');
  const heading = app.getByRole('heading', { name: 'Undo this change?' });
  await heading.waitFor();
  await expect
    .poll(() => host.appFrame().evaluate(() => document.activeElement?.textContent))
    .toBe('Undo this change?');
  expect(calls).toHaveLength(1);
  expect(calls[0]).toMatchObject({ name: 'undo_changes', arguments: { dryRun: true } });
  const id = (calls[0]!.arguments!.ids as string[])[0];
  expect(blockText('alpha0001')).toBe('Met on Tuesday about alpha'); // the dry run wrote nothing
  await host.checkAndShoot('change-review-dry-run');

  await host.page.keyboard.press('Tab');
  await expect.poll(() => host.appFrame().evaluate(() => document.activeElement?.textContent)).toBe('Undo');
  await host.page.keyboard.press('Enter');
  await app.getByRole('heading', { name: 'Undone' }).waitFor();
  expect(calls.map(({ name, arguments: args }) => ({ name, arguments: args }))).toEqual([
    { name: 'undo_changes', arguments: { ids: [id], dryRun: true } },
    { name: 'undo_changes', arguments: { ids: [id] } },
  ]);
  expect(blockText('alpha0001')).toBe('Met on Monday about alpha');
});

it('a change someone edited since: the dry run shows the agent’s text beside the person’s, and no undo; Escape keeps it', async () => {
  await app.getByRole('button', { name: 'Back to changes' }).click();
  await app.getByRole('heading', { name: /^Changes in this chat/ }).waitFor();
  await app.locator('li.change', { hasText: 'beta by agent' }).getByRole('button').click();
  const panel = app.locator('.dry-run');
  await panel.waitFor();
  await expect.poll(() => panel.innerText()).toMatch(/changed since by someone else: left alone/i);
  const conflict = panel.locator('.side-by-side');
  expect(await conflict.locator(':scope > div > p').allInnerTexts()).toEqual([
    'The agent wrote',
    'beta by agent',
    'There now',
    'beta by person',
  ]);
  expect(await conflict.locator('del').allInnerTexts()).toEqual(['agent']);
  expect(await conflict.locator('ins').allInnerTexts()).toEqual(['person']);
  expect(await panel.getByRole('button', { name: 'Undo', exact: true }).count()).toBe(0);
  await host.checkAndShoot('change-review-conflict');
  await host.page.keyboard.press('Escape');
  await app.getByRole('heading', { name: /^Changes in this chat/ }).waitFor();
  expect(blockText('beta00001')).toBe('beta by person');
});

it.each([
  ['delete_page', 'a page with a hidden block in it', { uid: 'notes0001' }, ['[hidden from AI]']],
  [
    'delete_block',
    'a block with a private child',
    { uid: 'vparent01' },
    // The moved block went in last.
    ['visible parent', '[hidden from AI]', 'visible note'],
  ],
] as const)('never shows the text of a hidden block: %s of %s', async (tool, _what, args, removedOutline) => {
  // The agent deletes what holds a hidden block (it never saw that block).
  jsonOf(await world.mcp.call(tool, args));
  await showListChanges();
  await app.getByRole('heading', { name: /^Changes in this chat/ }).waitFor();
  const listed = await host.appFrame().evaluate(() => document.documentElement.outerHTML);
  // The outline it deleted is drawn, the hidden block as such and nothing under it.
  const removed = app
    .locator('li.change', { hasText: /^delete/ })
    .first()
    .locator('.outline.removed del');
  expect(await removed.allInnerTexts()).toEqual(removedOutline);
  await app.getByRole('button', { name: new RegExp(`^Undo ${tool}`) }).click();
  await app.locator('.dry-run').waitFor();
  const dryRun = await host.appFrame().evaluate(() => document.documentElement.outerHTML);
  expect(listed + dryRun).toMatch(/'Notes'|'visible parent'/);
  expect(listed).not.toContain(SECRET);
  expect(dryRun).not.toContain(SECRET);
  await host.page.keyboard.press('Escape');
});

it('Undo whole chat: its dry run, then the undo of exactly the changes it showed, the conflict left alone', async () => {
  await showListChanges();
  await app.getByRole('heading', { name: /^Changes in this chat/ }).waitFor();
  calls.length = 0;
  await app.getByRole('button', { name: 'Undo whole chat…' }).click();
  await app.getByRole('heading', { name: 'Undo the whole chat?' }).waitFor();
  expect(titled('Notes')).toBe(false); // the dry run wrote nothing
  const shown = await app.locator('.report > li').count();
  // The agent goes on while the person reads: Undo takes back what the dry run showed, not this.
  const later = jsonOf<{ uids: string[] }>(
    await world.mcp.call('create_block', { pageTitle: 'Project', markdown: 'made after the dry run' }),
  ).uids[0]!;
  await app.getByRole('button', { name: 'Undo', exact: true }).click();
  await app.getByRole('heading', { name: 'Undone' }).waitFor();
  expect(calls.map(({ name, arguments: args }) => ({ name, arguments: args }))).toMatchObject([
    { name: 'undo_changes', arguments: { all: true, dryRun: true } },
    { name: 'undo_changes', arguments: { ids: expect.any(Array) } },
  ]);
  const undone = calls[1]!.arguments!.ids as string[];
  expect(undone.length).toBeGreaterThan(0);
  expect(undone.length).toBeLessThanOrEqual(shown);
  expect(blockText(later)).toBe('made after the dry run');
  expect(titled('Notes')).toBe(true);
  expect(blockText('vparent01')).toBe('visible parent');
  expect(blockText('beta00001')).toBe('beta by person');
  expect(await host.violations()).toEqual([]);
});
