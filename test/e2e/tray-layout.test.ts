/**
 * The window never scrolls its header away (docs/ui.md): with Add graph or Edit open over a list
 * of graphs, a mouse wheel over the form and the keyboard's Tab through it scroll only the form's
 * fields and main; the header and tabs stay where they were, the document never scrolls (no blank
 * band under the status bar), and the buttons sit below the fields, never over the Access level
 * label. Debian's Chromium at 420×600 and 1000×760, light and dark; axe-core on each form.
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { violationsEverywhere } from './axe.ts';
import { poll } from './poll.ts';
import { startTrayWorld, type TrayWorld } from './tray-world.ts';

let world: TrayWorld;
let page: Page;

beforeAll(async () => {
  world = await startTrayWorld({ prefix: 'tray-layout-' });
  world.emulator.autoDecide({ kind: 'approve' });
  const add = world.preview.core.handlers['graphs:add'];
  await add({ name: 'team-notes', nickname: 'Team', accessLevel: 'full' });
  await add({ name: 'reading-list', nickname: 'Reading', accessLevel: 'read-only' });
  await add({ name: 'diary', type: 'offline', nickname: 'Diary', accessLevel: 'full' });
  ({ page } = world);
  await page.reload();
  await page.getByRole('listitem', { name: 'Diary', exact: true }).waitFor();
}, 60_000);

afterAll(() => world?.close());

const box = async (locator: Locator) => (await locator.boundingBox())!;
const header = () => page.locator('header');
const status = () => page.getByRole('contentinfo', { name: 'Status' });

/** What must not move or show: the header's box, the document's scroll, the status bar's bottom. */
async function frame() {
  return {
    header: await box(header()),
    documentScrollTop: await page.evaluate(() => document.scrollingElement!.scrollTop),
    statusBottom: await status().evaluate((el) => Math.round(el.getBoundingClientRect().bottom)),
  };
}

/** The fields' region ends where the buttons begin: the buttons cover no field, no label. */
async function expectFooterBelowFields(form: Locator): Promise<void> {
  const fields = await box(form.locator('.form-fields'));
  const footer = await box(form.locator('.form-footer'));
  expect(footer.y).toBeGreaterThanOrEqual(fields.y + fields.height - 0.5);
  // The Access level label, wherever it scrolled: drawn under no button.
  const legend = await box(form.getByText('Access level', { exact: true }));
  const overlap = Math.min(legend.y + legend.height, footer.y + footer.height) - Math.max(legend.y, footer.y);
  expect(overlap).toBeLessThanOrEqual(0);
  // Both buttons whole, above the status bar.
  for (const button of await form.locator('.form-footer button').all()) {
    const { y, height } = await box(button);
    expect(y + height).toBeLessThanOrEqual((await box(status())).y);
  }
}

async function wheelOver(form: Locator, times: number): Promise<void> {
  const fields = await box(form.locator('.form-fields'));
  await page.mouse.move(fields.x + fields.width / 2, fields.y + Math.min(fields.height / 2, 100));
  for (let i = 0; i < times; i++) await page.mouse.wheel(0, 400);
}

const viewports = [
  { width: 420, height: 600 },
  { width: 1000, height: 760 },
];

describe.sequential('the window never scrolls its header away', () => {
  for (const viewport of viewports)
    for (const colorScheme of ['light', 'dark'] as const)
      it(`${viewport.width}×${viewport.height} ${colorScheme}: Add graph scrolls inside its own region`, async () => {
        await page.setViewportSize(viewport);
        await page.emulateMedia({ colorScheme });
        const before = await frame();
        expect(before.statusBottom).toBe(viewport.height);
        await page.getByRole('button', { name: 'Add graph' }).click();
        const form = page.getByRole('form', { name: 'Add a graph' });
        await form.getByRole('combobox', { name: 'Graph' }).selectOption({ label: 'secret-plans (hosted)' });
        // The form is its own scroll region: taller fields than room (at tray size), never a taller window.
        const fields = form.locator('.form-fields');
        if (viewport.height === 600)
          expect(await fields.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
        await expectFooterBelowFields(form);
        await wheelOver(form, 6);
        await poll(() => fields.evaluate((el) => el.scrollTop + el.clientHeight >= el.scrollHeight - 1)).toBe(
          true,
        );
        expect(await frame()).toEqual(before);
        await expectFooterBelowFields(form);
        // The wheel over the list below scrolls main, never the window.
        await page.mouse.move(viewport.width / 2, (await box(status())).y - 10);
        await page.mouse.wheel(0, 3000);
        expect(await frame()).toEqual(before);
        await page.keyboard.press('Escape');
        await form.waitFor({ state: 'detached' });
      });

  it('from the keyboard: Tab through Add graph keeps the focus in view and the header in place', async () => {
    await page.setViewportSize(viewports[0]!);
    await page.emulateMedia({ colorScheme: 'light' });
    const before = await frame();
    await page.getByRole('button', { name: 'Add graph' }).click();
    const form = page.getByRole('form', { name: 'Add a graph' });
    await form.getByRole('combobox', { name: 'Graph' }).selectOption({ label: 'secret-plans (hosted)' });
    const add = form.getByRole('button', { name: 'Add and request token' });
    for (let i = 0; i < 20 && !(await add.evaluate((el) => el === document.activeElement)); i++) {
      await page.keyboard.press('Tab');
      // Whatever has the focus is in the window, between the header and the status bar.
      const focused = await page.evaluate(() => {
        const r = document.activeElement!.getBoundingClientRect();
        return { top: r.top, bottom: r.bottom };
      });
      expect(focused.top).toBeGreaterThanOrEqual(before.header.y + before.header.height - 1);
      expect(focused.bottom).toBeLessThanOrEqual((await box(status())).y + 1);
    }
    await poll(() => add.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await frame()).toEqual(before);
    expect(await violationsEverywhere(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'detached' });
  });

  for (const viewport of viewports)
    it(`${viewport.width}×${viewport.height}: Edit scrolls inside its own region`, async () => {
      await page.setViewportSize(viewport);
      const before = await frame();
      const row = page.getByRole('listitem', { name: 'Diary', exact: true });
      await row.getByRole('button', { name: 'Edit Diary' }).click();
      const form = page.getByRole('form', { name: 'Edit Diary' });
      await form.getByRole('radio', { name: /Read only/ }).check(); // its hint makes the form taller
      await expectFooterBelowFields(form);
      await wheelOver(form, 6);
      expect(await frame()).toEqual(before);
      await expectFooterBelowFields(form);
      expect(await violationsEverywhere(page)).toEqual([]);
      await page.keyboard.press('Escape');
      await form.waitFor({ state: 'detached' });
    });
});
