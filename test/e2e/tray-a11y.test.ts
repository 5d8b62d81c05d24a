/**
 * Everyone can use the tray: every screen, light and dark, at tray size (420×600) and in a larger
 * window (1000×760), has no serious or critical axe-core violation; everything works from the
 * keyboard alone (tab order, visible focus, dialogs that trap and return focus, Escape closes);
 * status changes are announced through live regions. Debian's Chromium against the real core and
 * the emulator.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Preview } from '../../src-main/preview/server.ts';
import type { Emulator } from '../emulator/types.ts';
import { violationsEverywhere } from './axe.ts';
import { poll } from './poll.ts';
import { writeToolsConfig } from '../harness/mcp-bin.ts';
import { startTrayWorld, TRAY_GRAPHS, type TrayWorld } from './tray-world.ts';

let home: string;
let emulator: Emulator;
let preview: Preview;
let page: Page;
let tray: TrayWorld | undefined;

beforeAll(async () => {
  tray = await startTrayWorld({
    prefix: 'tray-a11y-',
    graphs: [...TRAY_GRAPHS, { name: 'garden' }],
    // The official server's config, so the first screen shows the import offer too.
    prepare: (at, roam) =>
      writeToolsConfig(at, {
        text: JSON.stringify({
          graphs: [{ name: 'old-notes', token: roam.addToken('team-notes', 'hosted', 'full') }],
        }),
      }).then(() => undefined),
    clipboard: true,
  });
  ({ home, emulator, preview, page } = tray);
});

afterAll(async () => {
  await tray?.close();
});

const graphRow = (nickname: string) => page.getByRole('listitem', { name: nickname, exact: true });
const tab = (name: string | RegExp) => page.getByRole('tab', { name });
const isFocused = (locator: Locator) => poll(() => locator.evaluate((el) => el === document.activeElement));
const status = () => page.getByRole('contentinfo', { name: 'Status' });

const violations = () => violationsEverywhere(page);

async function addGraph(graph: string, level: RegExp, nickname?: string): Promise<void> {
  await page.getByRole('button', { name: 'Add graph' }).click();
  const form = page.getByRole('form', { name: 'Add a graph' });
  await form.getByRole('combobox', { name: 'Graph' }).selectOption({ label: graph });
  if (nickname) await form.getByRole('textbox', { name: 'Nickname' }).fill(nickname);
  await form.getByRole('radio', { name: level }).check();
  await form.getByRole('button', { name: 'Add and request token' }).click();
  await form.waitFor({ state: 'detached' });
}

describe('every screen, light and dark, at 420×600 and 1000×760: no serious or critical axe violation', () => {
  it('Graphs, empty, with the import offer', async () => {
    await page.getByText('No graphs yet').waitFor();
    await page.getByRole('region', { name: 'Import graphs' }).waitFor();
    expect(await violations()).toEqual([]);
  });

  it('Add graph, with a field reported missing', async () => {
    await page.getByRole('button', { name: 'Add graph' }).click();
    const form = page.getByRole('form', { name: 'Add a graph' });
    await form.getByRole('combobox', { name: 'Graph' }).selectOption({ label: 'Type a name…' });
    await form.getByRole('button', { name: 'Add and request token' }).click();
    await form.getByRole('alert').waitFor();
    expect(await violations()).toEqual([]);
    await form.getByRole('button', { name: 'Cancel' }).click();
  });

  it('Graphs with a waiting request, an approval granting less than chosen, and a failure', async () => {
    emulator.decide('reading-list', { kind: 'approve', accessLevel: 'read-only' });
    await addGraph('reading-list (hosted)', /Full/, 'Reading');
    await graphRow('Reading')
      .getByText('Approved with less access than you chose: Reading is connected.')
      .waitFor();
    await addGraph('team-notes (hosted)', /Read \+ append/, 'Team');
    await graphRow('Team').getByText('Approve the dialog in Roam Desktop').waitFor();
    emulator.decide('diary', { kind: 'reject' }, 'offline');
    await addGraph('diary (offline)', /Read only/);
    await graphRow('diary')
      .getByText(/was declined in Roam/)
      .waitFor();
    expect(await violations()).toEqual([]);
  });

  it('Graphs while Roam Desktop is not running', async () => {
    await emulator.stop();
    await poll(() => status().innerText()).toContain('Roam Desktop is not running');
    expect(await violations()).toEqual([]);
    await status().getByRole('button', { name: 'Open Roam Desktop' }).click();
    await poll(() => status().innerText()).toContain('Roam Desktop running');
  });

  it('Edit form, remove confirmation, and a switched-off graph', async () => {
    await graphRow('diary').getByRole('button', { name: 'Edit diary' }).click();
    await page.getByRole('form', { name: 'Edit diary' }).getByRole('radio', { name: /Full/ }).check();
    expect(await violations()).toEqual([]);
    await page.keyboard.press('Escape');
    await graphRow('diary').getByRole('button', { name: 'Remove diary' }).click();
    await page.getByRole('alertdialog', { name: 'Remove diary?' }).waitFor();
    expect(await violations()).toEqual([]);
    await page.keyboard.press('Escape');
    await graphRow('diary').getByRole('switch', { name: 'Enabled: diary' }).click();
    await graphRow('diary').getByText('Switched off').waitFor();
    expect(await violations()).toEqual([]);
  });

  it('Blocked, empty and with a graph', async () => {
    await tab('Blocked').click();
    await page.getByText('Nothing is blocked').waitFor();
    expect(await violations()).toEqual([]);
    await tab('Graphs').click();
    emulator.decide('secret-plans', { kind: 'never-allow' });
    await addGraph('secret-plans (hosted)', /Read only/, 'Plans');
    await tab('Blocked (1)').click();
    await page.getByRole('listitem', { name: 'Plans' }).waitFor();
    expect(await violations()).toEqual([]);
  });

  it('AI clients with a config that cannot be parsed, and the preview of an install', async () => {
    // One screen shows both rows: Cursor's config error, Claude Desktop offering an install.
    const clients = await preview.core.handlers['clients:list'](undefined);
    const cursor = clients.find((c) => c.id === 'cursor')!;
    const claude = clients.find((c) => c.id === 'claude-desktop')!;
    await mkdir(path.dirname(cursor.configPath!), { recursive: true });
    await writeFile(cursor.configPath!, '{ "mcpServers": ');
    await mkdir(path.dirname(claude.configPath!), { recursive: true });
    await tab('AI clients').click();
    await page.getByRole('listitem', { name: 'Cursor' }).getByText('Config error').waitFor();
    const row = page.getByRole('listitem', { name: 'Claude Desktop' });
    await row.getByRole('button', { name: 'Install into Claude Desktop…' }).waitFor();
    expect(await violations()).toEqual([]);
    await row.getByRole('button', { name: 'Install into Claude Desktop…' }).click();
    await row.getByRole('dialog').waitFor();
    expect(await violations()).toEqual([]);
    await page.keyboard.press('Escape');
    await rm(cursor.configPath!);
    await tab('Graphs').click();
  });

  it('Settings, with an upload folder, a refused one and the saved note', async () => {
    await tab('Settings').click();
    await page.getByRole('checkbox', { name: 'Launch at login' }).waitFor();
    expect(await violations()).toEqual([]);
    const folders = page.getByRole('region', { name: 'Upload folders' });
    const field = folders.getByRole('textbox', { name: 'Folder to add (absolute path)' });
    await mkdir(path.join(home, 'Pictures'), { recursive: true });
    await field.fill(path.join(home, 'Pictures'));
    await field.press('Enter');
    await folders.getByRole('button', { name: /^Remove upload folder/ }).waitFor();
    await field.fill('relative/folder');
    await field.press('Enter');
    await folders.getByRole('alert').waitFor();
    expect(await violations()).toEqual([]);
    await folders.getByRole('button', { name: /^Remove upload folder/ }).click();
    await folders.getByText('No upload folder').waitFor();
    await tab('Graphs').click();
  });
});

describe('keyboard only', () => {
  it('Tab reaches every control in reading order, each in view with a visible focus ring', async () => {
    await tab('Graphs').click();
    await graphRow('Team').waitFor();
    // Every control a Tab should reach, numbered in document order (no positive tabindex anywhere).
    const tabbable = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('button, input, select, textarea, a[href], [tabindex]')]
        .filter((el) => el.tabIndex >= 0 && !(el as HTMLButtonElement).disabled && el.getClientRects().length)
        .map((el, index) => {
          el.dataset.step = String(index);
          return index;
        }),
    );
    await tab('Graphs').focus();
    const visited = [0];
    for (let step = 1; step < tabbable.length + 2; step++) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        if (!el?.dataset.step) return null;
        // A switch draws its ring on the slider beside the (invisible) checkbox.
        const ringOn = el.getAttribute('role') === 'switch' ? (el.nextElementSibling as HTMLElement) : el;
        const style = getComputedStyle(ringOn);
        const box = el.getBoundingClientRect();
        return {
          step: Number(el.dataset.step),
          what: el.outerHTML.slice(0, 80),
          ring: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2,
          inView: box.bottom > 0 && box.top < window.innerHeight,
        };
      });
      if (!focused) break; // past the last control
      expect(focused.ring, `focus ring on ${focused.what}`).toBe(true);
      expect(focused.inView, `${focused.what} scrolled into view`).toBe(true);
      visited.push(focused.step);
    }
    expect(visited).toEqual(tabbable);
  });

  it('the remove confirmation keeps the focus inside, Escape closes it and the focus returns', async () => {
    const remove = graphRow('Team').getByRole('button', { name: 'Remove Team' });
    await remove.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('alertdialog', { name: 'Remove Team?' });
    await isFocused(dialog.getByRole('button', { name: 'Cancel' })).toBe(true);
    await page.keyboard.press('Tab');
    await isFocused(dialog.getByRole('button', { name: 'Remove' })).toBe(true);
    await page.keyboard.press('Tab');
    await isFocused(dialog.getByRole('button', { name: 'Cancel' })).toBe(true);
    await page.keyboard.press('Shift+Tab');
    await isFocused(dialog.getByRole('button', { name: 'Remove' })).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await isFocused(remove).toBe(true);
  });

  it('forms open on their first field; Escape closes them and the focus returns to their button', async () => {
    const add = page.getByRole('button', { name: 'Add graph' });
    await add.focus();
    await page.keyboard.press('Enter');
    const form = page.getByRole('form', { name: 'Add a graph' });
    await isFocused(form.getByRole('combobox', { name: 'Graph' })).toBe(true);
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'detached' });
    await isFocused(add).toBe(true);

    const edit = graphRow('Team').getByRole('button', { name: 'Edit Team' });
    await edit.focus();
    await page.keyboard.press('Enter');
    const editForm = page.getByRole('form', { name: 'Edit Team' });
    await isFocused(editForm.getByRole('textbox', { name: 'Nickname' })).toBe(true);
    await page.keyboard.press('Escape');
    await editForm.waitFor({ state: 'detached' });
    await isFocused(edit).toBe(true);
  });

  it('the install preview takes the focus, keeps it, and gives it back on Escape', async () => {
    await tab('AI clients').click();
    const row = page.getByRole('listitem', { name: 'Claude Desktop' });
    const install = row.getByRole('button', { name: 'Install into Claude Desktop…' });
    await install.focus();
    await page.keyboard.press('Enter');
    const dialog = row.getByRole('dialog');
    await isFocused(dialog).toBe(true);
    await page.keyboard.press('Shift+Tab');
    await isFocused(dialog.getByRole('button', { name: 'Confirm install' })).toBe(true);
    await page.keyboard.press('Tab');
    await isFocused(dialog.getByRole('button', { name: 'Cancel' })).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await isFocused(install).toBe(true);
    await tab('Graphs').click();
  });

  it('installs from the keyboard alone: preview, confirm, the outcome read out, OK, and back', async () => {
    await tab('AI clients').click();
    const row = page.getByRole('listitem', { name: 'Claude Desktop' });
    await row.getByRole('button', { name: 'Install into Claude Desktop…' }).focus();
    await page.keyboard.press('Enter');
    await isFocused(row.getByRole('dialog')).toBe(true);
    await page.keyboard.press('Shift+Tab');
    await isFocused(row.getByRole('button', { name: 'Confirm install' })).toBe(true);
    await page.keyboard.press('Enter');
    const done = row.getByRole('status', { name: 'Claude Desktop: done' });
    await poll(() => done.innerText()).toContain('Quit Claude Desktop completely and open it again');
    const uninstall = row.getByRole('button', { name: 'Uninstall from Claude Desktop…' });
    await isFocused(uninstall).toBe(true);
    expect(await violations()).toEqual([]);
    // The outcome's OK is the next stop; it closes the outcome and the focus comes back.
    await page.keyboard.press('Tab');
    await isFocused(done.getByRole('button', { name: 'OK' })).toBe(true);
    await page.keyboard.press('Enter');
    await done.waitFor({ state: 'detached' });
    await isFocused(uninstall).toBe(true);
    // Uninstalled again from the keyboard, so the screens after this one start as before.
    await page.keyboard.press('Enter');
    await isFocused(row.getByRole('dialog')).toBe(true);
    await page.keyboard.press('Shift+Tab');
    await isFocused(row.getByRole('button', { name: 'Confirm uninstall' })).toBe(true);
    await page.keyboard.press('Enter');
    await poll(() => done.innerText()).toContain('Removed from Claude Desktop.');
    await tab('Graphs').click();
  });
});

describe('keyboard only: adding a graph', () => {
  it('from Add graph to the approval without a mouse: pick, name, level, submit', async () => {
    await tab('Graphs').click();
    emulator.decide('garden', { kind: 'approve' });
    const add = page.getByRole('button', { name: 'Add graph' });
    await add.focus();
    await page.keyboard.press('Enter');
    const form = page.getByRole('form', { name: 'Add a graph' });
    const graph = form.getByRole('combobox', { name: 'Graph' });
    await isFocused(graph).toBe(true);
    // The closed select changes with the arrow keys, as a keyboard user picks from it.
    const picked = () => graph.locator('option:checked').innerText();
    for (let i = 0; i < 10 && (await picked()) !== 'garden (hosted)'; i++)
      await page.keyboard.press('ArrowDown');
    expect(await picked()).toBe('garden (hosted)');
    await page.keyboard.press('Tab');
    await isFocused(form.getByRole('textbox', { name: 'Nickname' })).toBe(true);
    await page.keyboard.type('Garden');
    await form.getByText('Nickname is free.').waitFor();
    // On to the access level: Tab enters the radio group, the arrows choose within it.
    const readOnly = form.getByRole('radio', { name: /Read only/ });
    for (let i = 0; i < 10 && !(await readOnly.evaluate((el) => el === document.activeElement)); i++) {
      await page.keyboard.press('Tab');
      const inGroup = await page.evaluate(
        () => (document.activeElement as HTMLInputElement | null)?.type === 'radio',
      );
      if (inGroup) {
        for (let j = 0; j < 5 && !(await readOnly.isChecked()); j++) await page.keyboard.press('ArrowUp');
        break;
      }
    }
    expect(await readOnly.isChecked()).toBe(true);
    const submit = form.getByRole('button', { name: 'Add and request token' });
    for (let i = 0; i < 10 && !(await submit.evaluate((el) => el === document.activeElement)); i++)
      await page.keyboard.press('Tab');
    await isFocused(submit).toBe(true);
    await page.keyboard.press('Enter');
    await poll(() => graphRow('Garden').innerText()).toContain('Approved: Garden is connected.');
    expect(await violations()).toEqual([]);
  });
});

describe('status changes are announced', () => {
  const liveText = () =>
    page.evaluate(() =>
      [...document.querySelectorAll('[role="status"], [role="alert"], [aria-live]')]
        .map((el) => (el as HTMLElement).innerText)
        .join('\n'),
    );

  it('Roam Desktop stopping and starting, in the status bar', async () => {
    await emulator.stop();
    await poll(liveText).toContain('Roam Desktop is not running');
    await emulator.start();
    await poll(liveText).toMatch(/Roam Desktop running · port \d+/);
  });

  it('a token request’s outcome, and a copy', async () => {
    emulator.decide('team-notes', { kind: 'approve' });
    // The last answer (Roam not running) may still offer Try again, which then stands in for Request token.
    await graphRow('Team')
      .getByRole('button', { name: /^(Request token for Team|Try again)$/ })
      .click();
    await poll(liveText).toContain('Approved: Team is connected.');
    await graphRow('Team').getByRole('button', { name: 'Copy nickname Team' }).click();
    await poll(liveText).toContain('Copied');
  });
});
