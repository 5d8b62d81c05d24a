/**
 * Edit graph's "Ask me before" (issue 48) in Debian's Chromium through the preview and the real
 * core: reached and chosen from the keyboard alone (Tab to the group, arrow keys within it, Space
 * on Save), each choice in words, the note that says it follows Settings; saved into the store the
 * launcher reads, and said on the graph's row. At 420×600 and 1000×760, light and dark, axe-core
 * finds nothing serious; no choice's words overflow the form. Settings' same group reaches the
 * graphs without a choice of their own. Also the AI clients screen at tray size with every client
 * installable: its toolsets folded, it stays a few screens tall.
 */
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { violationsEverywhere } from './axe.ts';
import { poll } from './poll.ts';
import { screenshot } from './screenshots.ts';
import { startTrayWorld, type TrayWorld } from './tray-world.ts';

let world: TrayWorld;
let page: Page;

beforeAll(async () => {
  world = await startTrayWorld({ prefix: 'tray-graph-confirm-' });
  world.emulator.autoDecide({ kind: 'approve' });
  const add = world.preview.core.handlers['graphs:add'];
  await add({ name: 'team-notes', nickname: 'Team', accessLevel: 'full' });
  await add({ name: 'diary', type: 'offline', nickname: 'Diary', accessLevel: 'full' });
  ({ page } = world);
  await page.reload();
  await page.getByRole('listitem', { name: 'Diary', exact: true }).waitFor();
}, 60_000);

afterAll(() => world?.close());

const row = (name: string) => page.getByRole('listitem', { name, exact: true });
const focusedText = () =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLInputElement | null;
    return el?.type === 'radio' ? `radio:${el.closest('label')?.textContent ?? ''}` : (el?.textContent ?? '');
  });

describe.sequential('Edit graph: Ask me before', () => {
  it('a graph that follows Settings says nothing on its row; Edit shows the three choices in words', async () => {
    expect(await row('Team').innerText()).not.toMatch(/asks you/i);
    await row('Team').getByRole('button', { name: 'Edit Team' }).focus();
    await page.keyboard.press('Enter');
    const form = page.getByRole('form', { name: 'Edit Team' });
    const group = form.getByRole('group', { name: 'Ask me before' });
    await group.waitFor();
    const labels = await group.locator('label').allInnerTexts();
    expect(labels.map((l) => l.split(' — ')[0])).toEqual([
      'Changes that take much away',
      'Every change',
      'Never',
    ]);
    expect(await group.getByRole('radio', { name: /^Changes that take much away/ }).isChecked()).toBe(true);
    expect(await group.innerText()).toContain('As in Settings until you choose here');
    await group.scrollIntoViewIfNeeded();
    await screenshot(page, 'graph-confirm-edit', form);
  });

  it('at both sizes and in both schemes nothing overflows and axe finds nothing serious', async () => {
    const fields = page.getByRole('form', { name: 'Edit Team' }).locator('.form-fields');
    for (const width of [420, 1000]) {
      await page.setViewportSize({ width, height: width === 420 ? 600 : 760 });
      expect(await fields.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    }
    expect(await violationsEverywhere(page)).toEqual([]);
  });

  it('from the keyboard: Tab to the group, ArrowDown to "Every change", Space on Save; stored for the server and said on the row', async () => {
    const form = page.getByRole('form', { name: 'Edit Team' });
    for (let i = 0; i < 30 && !(await focusedText()).startsWith('radio:Changes that take much away'); i++)
      await page.keyboard.press('Tab');
    expect(await focusedText()).toMatch(/^radio:Changes that take much away/);
    await page.keyboard.press('ArrowDown');
    expect(await form.getByRole('radio', { name: /^Every change/ }).isChecked()).toBe(true);
    expect(await focusedText()).toMatch(/^radio:Every change/);
    const save = form.getByRole('button', { name: 'Save' });
    for (let i = 0; i < 10 && !(await save.evaluate((el) => el === document.activeElement)); i++)
      await page.keyboard.press('Tab');
    await page.keyboard.press(' ');
    await form.waitFor({ state: 'detached' });
    // Focus returns to the button that opened the form.
    await poll(() => focusedText()).toBe('Edit');
    await poll(() => row('Team').innerText()).toContain('Asks you before every change');
    expect(await row('Diary').innerText()).not.toMatch(/asks you/i);
    // The store the launcher sends to its roam-mcp child (tray-store.ts, childConfig).
    const stored = JSON.parse(
      await readFile(path.join(world.home, '.roam-companion', 'config.json'), 'utf8'),
    ) as { graphs: Array<{ name: string; confirm?: string }> };
    expect(stored.graphs.map((g) => [g.name, g.confirm])).toEqual([
      ['team-notes', 'every-write'],
      ['diary', undefined],
    ]);
    await screenshot(page, 'graph-confirm-row', row('Team'));
    expect(await violationsEverywhere(page)).toEqual([]);
  });

  it('opened again, the choice is the graph’s own and "Never" is said on the row in words', async () => {
    await row('Team').getByRole('button', { name: 'Edit Team' }).click();
    const form = page.getByRole('form', { name: 'Edit Team' });
    const group = form.getByRole('group', { name: 'Ask me before' });
    expect(await group.getByRole('radio', { name: /^Every change/ }).isChecked()).toBe(true);
    expect(await group.innerText()).toContain('This graph’s own choice: Settings does not change it.');
    await group.getByRole('radio', { name: /^Never/ }).check();
    await form.getByRole('button', { name: 'Save' }).click();
    await poll(() => row('Team').innerText()).toContain('Never asks you: agents write without asking');
    const [team] = await world.preview.core.handlers['graphs:list'](undefined);
    expect([team?.confirm, team?.confirmOwn]).toEqual(['never', true]);
  });
});

describe.sequential('Settings: Ask me before, for graphs without their own', () => {
  it('"Every change" chosen from the keyboard reaches the rows of graphs without a choice, not the others', async () => {
    await page.getByRole('tab', { name: 'Settings' }).click();
    const group = page.getByRole('group', { name: 'Ask me before' });
    await group.getByRole('radio', { name: /^Changes that take much away/ }).focus();
    await page.keyboard.press('ArrowDown');
    await page.getByText('Ask me before saved.').waitFor();
    expect(await violationsEverywhere(page)).toEqual([]);
    await page.getByRole('tab', { name: 'Graphs' }).click();
    await poll(() => row('Diary').innerText()).toContain('Asks you before every change');
    expect(await row('Team').innerText()).toContain('Never asks you: agents write without asking');
    expect((await world.preview.core.handlers['settings:get'](undefined)).confirm).toBe('every-write');
  });
});

describe.sequential('AI clients at tray size', () => {
  it('with every client installable, the toolsets fold on each card and the screen stays short', async () => {
    for (const client of await world.preview.core.handlers['clients:list'](undefined))
      if (client.configPath) await mkdir(path.dirname(client.configPath), { recursive: true });
    await page.setViewportSize({ width: 420, height: 600 });
    await page.getByRole('tab', { name: 'AI clients' }).click();
    await page.getByRole('listitem', { name: 'Cursor' }).getByText('Not installed').waitFor();
    expect(await page.locator('details.toolsets').count()).toBeGreaterThanOrEqual(3);
    expect(await page.locator('details.toolsets[open]').count()).toBe(0);
    // About 2,600 px when every card unfolded its six checkboxes (issue 49).
    const tall = await page.getByRole('tabpanel').evaluate((el) => el.scrollHeight);
    expect(tall).toBeLessThan(1600);
  });
});
