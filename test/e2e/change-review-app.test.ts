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
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { build } from 'esbuild';
import type { AxeResults } from 'axe-core';
import type { Browser, Frame, FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { jsonOf, newToken, ROOT } from '../harness/mcp-bin.ts';
import { startStdioWorld, type StdioWorld } from '../harness/stdio-world.ts';
import { launchChromium } from './chromium.ts';

const TOKEN = newToken();
const SECRET = 'TOPSECRET-42';
let world: StdioWorld;
let browser: Browser;
let page: Page;
let app: FrameLocator;
/** Every tools/call the app made through the host, in order. */
const calls: Array<{ name: string; arguments?: Record<string, unknown> }> = [];

const hostBundle = async () => {
  const built = await build({
    entryPoints: [path.join(ROOT, 'test/e2e/app-host/host.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'chrome120',
    logLevel: 'warning',
  });
  return built.outputFiles[0]!.text;
};

beforeAll(async () => {
  world = await startStdioWorld({
    emulator: {
      graphs: [
        {
          name: 'g',
          tokens: [{ token: TOKEN, accessLevel: 'full' }],
          content: [
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
          ],
        },
      ],
    },
    config: [{ name: 'g', token: TOKEN, accessLevel: 'full' }],
    orient: ['g'],
  });
  const agent = (name: string, args: Record<string, unknown>) => world.mcp.call(name, args).then(jsonOf);
  await agent('update_block', { uid: 'alpha0001', string: 'Met on Tuesday about alpha' });
  await agent('create_block', { pageTitle: 'Project', markdown: '- delta\n  - delta child' });
  await agent('update_block', { uid: 'beta00001', string: 'beta by agent' });
  await agent('move_block', { uid: 'visible01', parentUid: 'vparent01' });
  // A person edits the agent's block afterwards: undoing that change is a conflict.
  world.emulator
    .graph('g')
    .run('data.block.update', [{ block: { uid: 'beta00001', string: 'beta by person' } }]);

  browser = await launchChromium();
  page = await (await browser.newContext({ viewport: { width: 640, height: 900 } })).newPage();
  page.setDefaultTimeout(10_000);
  await page.exposeFunction(
    'hostCallTool',
    async (params: { name: string; arguments?: Record<string, unknown> }) => {
      calls.push(params);
      return world.mcp.call(params.name, params.arguments ?? {});
    },
  );
  await page.setContent(
    '<!doctype html><html lang="en"><head><title>Test host</title></head><body></body></html>',
  );
  await page.addScriptTag({ content: await hostBundle() });
  const html = await readFile(path.join(ROOT, 'dist/apps/change-review.html'), 'utf8');
  // The same page the bin serves (test/mcp/apps/change-review-resource.test.ts reads it there).
  const served = await world.mcp.client.readResource({ uri: 'ui://roam-mcp/change-review.html' });
  expect(served.contents[0]?.text).toBe(html);
  await page.evaluate((text) => window.host.open(text, 'light'), html);
  app = page.frameLocator('iframe');
});

afterAll(async () => {
  await browser?.close();
  await world?.close();
});

const appFrame = (): Frame => page.frames().find((f) => f !== page.mainFrame())!;
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
  await page.evaluate((r) => window.host.showResult(r as never), result);
  return result;
}

const axeSource = readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Every axe violation in the app's frame, whatever its impact. */
async function violations(): Promise<string[]> {
  const frame = appFrame();
  if (!(await frame.evaluate(() => 'axe' in window))) await frame.evaluate(await axeSource);
  const results = await frame.evaluate(() =>
    (window as unknown as { axe: { run(d: Document, o: object): Promise<AxeResults> } }).axe.run(document, {
      resultTypes: ['violations'],
    }),
  );
  return results.violations.flatMap((v) =>
    v.nodes.map((n) => `${v.id} (${v.impact}) at ${n.target.join(' ')}`),
  );
}

/** axe in both themes, and a screenshot of the app in each. */
async function checkAndShoot(name: string): Promise<void> {
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((t) => window.host.setTheme(t), theme);
    await expect.poll(() => appFrame().evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
    expect(await violations()).toEqual([]);
    const image = await page.locator('iframe').screenshot({ animations: 'disabled' });
    const dirs = [path.resolve('test-results/screenshots')];
    if (process.env.UPDATE_SCREENSHOTS === '1') dirs.push(path.resolve('docs/screenshots'));
    for (const dir of dirs) {
      await mkdir(dir, { recursive: true });
      await writeFile(path.join(dir, `change-review-${name}-${theme}.png`), image);
    }
  }
  await page.evaluate(() => window.host.setTheme('light'));
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
  const html = await appFrame().evaluate(() => document.documentElement.outerHTML);
  for (const uid of ['visible01', 'vparent01', 'notes0001', 'alpha0001', 'project01'])
    expect(html).not.toContain(uid);
  await checkAndShoot('list');
});

it('Undo from the keyboard: the dry run first, then the undo, through the host', async () => {
  calls.length = 0;
  const undo = app
    .locator('li.change', { hasText: 'Tuesday' })
    .getByRole('button', { name: 'Undo update_block: Edited a block on Project' });
  await undo.focus();
  await page.keyboard.press('Enter');
  const heading = app.getByRole('heading', { name: 'Undo this change?' });
  await heading.waitFor();
  await expect
    .poll(() => appFrame().evaluate(() => document.activeElement?.textContent))
    .toBe('Undo this change?');
  expect(calls).toHaveLength(1);
  expect(calls[0]).toMatchObject({ name: 'undo_changes', arguments: { dryRun: true } });
  const id = (calls[0]!.arguments!.ids as string[])[0];
  expect(blockText('alpha0001')).toBe('Met on Tuesday about alpha'); // the dry run wrote nothing
  await checkAndShoot('dry-run');

  await page.keyboard.press('Tab');
  await expect.poll(() => appFrame().evaluate(() => document.activeElement?.textContent)).toBe('Undo');
  await page.keyboard.press('Enter');
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
  await checkAndShoot('conflict');
  await page.keyboard.press('Escape');
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
  const listed = await appFrame().evaluate(() => document.documentElement.outerHTML);
  // The outline it deleted is drawn, the hidden block as such and nothing under it.
  const removed = app
    .locator('li.change', { hasText: /^delete/ })
    .first()
    .locator('.outline.removed del');
  expect(await removed.allInnerTexts()).toEqual(removedOutline);
  await app.getByRole('button', { name: new RegExp(`^Undo ${tool}`) }).click();
  await app.locator('.dry-run').waitFor();
  const dryRun = await appFrame().evaluate(() => document.documentElement.outerHTML);
  expect(listed + dryRun).toMatch(/'Notes'|'visible parent'/);
  expect(listed).not.toContain(SECRET);
  expect(dryRun).not.toContain(SECRET);
  await page.keyboard.press('Escape');
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
  expect(await violations()).toEqual([]);
});
