/**
 * A graph's "When no one can be asked" choice in the tray, end to end: the built renderer in
 * Debian's Chromium over the preview's HTTP bridge to the real tray core and its store file. Chosen
 * with the keyboard alone in the graph's Edit form, it changes the stored setting, and back; the
 * form, with the choice, has no serious accessibility violation in either theme.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { STORE_FILE } from '../../src-main/core/store-file.ts';
import type { Preview } from '../../src-main/preview/server.ts';
import { violationsEverywhere } from './axe.ts';
import { poll } from './poll.ts';
import { startTrayWorld, type TrayWorld } from './tray-world.ts';

let tray: TrayWorld | undefined;
let page: Page;
let preview: Preview;
let home: string;

beforeAll(async () => {
  tray = await startTrayWorld({ prefix: 'tray-unasked-' });
  ({ page, preview, home } = tray);
  await preview.core.handlers['graphs:add']({ name: 'team-notes', nickname: 'Team', accessLevel: 'full' });
});

afterAll(async () => {
  await tray?.close();
});

const stored = async () =>
  (
    JSON.parse(await readFile(path.join(home, '.roam-companion', STORE_FILE), 'utf8')) as {
      graphs: Array<{ name: string; whenNobodyCanAsk?: string }>;
    }
  ).graphs.find((g) => g.name === 'team-notes');
const isFocused = (locator: Locator) => locator.evaluate((el) => el === document.activeElement);

/** Presses Tab until `target` has the focus (at most 15 times): the way a keyboard user gets there. */
async function tabTo(target: Locator): Promise<void> {
  for (let presses = 0; presses < 15; presses++) {
    if (await isFocused(target)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}

/** Opens Team's Edit form from the keyboard; returns the form and its choice. */
async function openEditByKeyboard() {
  const edit = page
    .getByRole('listitem', { name: 'Team', exact: true })
    .getByRole('button', { name: 'Edit Team' });
  await edit.focus();
  await page.keyboard.press('Enter');
  const form = page.getByRole('form', { name: 'Edit Team' });
  const group = form.getByRole('group', { name: 'When no one can be asked' });
  await group.waitFor();
  return {
    form,
    group,
    proceed: group.getByRole('radio', { name: 'Go ahead (you can undo)' }),
    refuse: group.getByRole('radio', { name: 'Refuse' }),
  };
}

it('chosen with the keyboard in the graph’s Edit form, it changes the stored setting, and back', async () => {
  await page.getByRole('listitem', { name: 'Team', exact: true }).waitFor();
  expect(await stored()).not.toHaveProperty('whenNobodyCanAsk');

  let edit = await openEditByKeyboard();
  // Read out with the group: what it is about, in a person's words.
  const hint = await edit.group.getAttribute('aria-describedby');
  expect(await page.locator(`[id="${hint}"]`).innerText()).toBe(
    'If an agent wants to delete or rename a lot in an AI app that can’t ask you first.',
  );
  expect(await edit.proceed.isChecked()).toBe(true);
  await tabTo(edit.proceed);
  await page.keyboard.press('ArrowDown');
  await poll(() => edit.refuse.isChecked()).toBe(true);
  await tabTo(edit.form.getByRole('button', { name: 'Save' }));
  await page.keyboard.press('Enter');
  await edit.form.waitFor({ state: 'detached' });
  await poll(stored).toMatchObject({ whenNobodyCanAsk: 'refuse' });
  expect((await preview.core.handlers['graphs:list'](undefined))[0]?.whenNobodyCanAsk).toBe('refuse');

  // Opened again, it shows the stored choice; the arrow key takes it back to going ahead.
  edit = await openEditByKeyboard();
  await poll(() => edit.refuse.isChecked()).toBe(true);
  await tabTo(edit.refuse);
  await page.keyboard.press('ArrowUp');
  await poll(() => edit.proceed.isChecked()).toBe(true);
  await tabTo(edit.form.getByRole('button', { name: 'Save' }));
  await page.keyboard.press('Enter');
  await edit.form.waitFor({ state: 'detached' });
  await poll(stored).not.toHaveProperty('whenNobodyCanAsk');
});

it('the Edit form with the choice: no serious or critical axe violation, light and dark, both window sizes', async () => {
  const edit = await openEditByKeyboard();
  await edit.refuse.check();
  expect(await violationsEverywhere(page)).toEqual([]);
  // The focus ring shows on the radio in both themes (the browser's, not removed by our styles).
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await edit.refuse.focus();
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowDown');
    expect(await edit.refuse.evaluate((el) => getComputedStyle(el).outlineStyle)).not.toBe('none');
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await edit.form.getByRole('button', { name: 'Cancel' }).click();
  await edit.form.waitFor({ state: 'detached' });
  expect(await stored()).not.toHaveProperty('whenNobodyCanAsk');
});
