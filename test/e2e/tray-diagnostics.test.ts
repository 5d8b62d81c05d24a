/**
 * Settings' Copy diagnostics in Debian's Chromium against the real core and the emulator, on a
 * setup with secrets in it: a graph whose token is in ~/.roam-tools.json (and in the tray's
 * store), a note in its guidelines and pages, and Cursor connected over HTTP with a key. Reached
 * with the keyboard alone at 420 and 1000 px, the button has main put roam-mcp doctor's checks on
 * the clipboard (here the preview's stand-in for main's): the checks are there, and no token, key
 * or note text — neither there nor in anything the page received. No serious axe violation in
 * either scheme.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page, Response } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { KeyStore } from '../../src-mcp/data-folder/key-store.ts';
import { previewDataDir } from '../../src-main/preview/preview-data-dir.ts';
import { writeToolsConfig } from '../harness/mcp-bin.ts';
import { violationsEverywhere } from './axe.ts';
import { poll } from './poll.ts';
import { startTrayWorld, type TrayWorld } from './tray-world.ts';

const NOTE = 'Quarterly salary review for Dana Whitfield';
const GUIDELINE = 'Never mention the Larkspur acquisition';
const TOKEN = /roam-graph-(local-)?token-[A-Za-z0-9_-]{5,}/;
const KEY = /roam-mcp-key-[A-Za-z0-9_-]{20,}/;

let tray: TrayWorld | undefined;
let page: Page;
let token: string;
let key: string;
/** What main wrote to the clipboard, in order. */
const clipboard: string[] = [];
/** Every answer the page's requests got from the core (its event stream never ends, so it is not read). */
const received: Promise<string>[] = [];

beforeAll(async () => {
  tray = await startTrayWorld({
    prefix: 'tray-diagnostics-',
    graphs: [
      {
        name: 'field-notes',
        content: [
          { title: 'roam/agent guidelines', children: [GUIDELINE] },
          { title: 'Plans', children: [NOTE] },
        ],
      },
    ],
    async prepare(home, roam) {
      token = roam.addToken('field-notes', 'hosted', 'full');
      await writeToolsConfig(home, [{ name: 'field-notes', token, accessLevel: 'full' }]);
      ({ key } = await new KeyStore({ dir: previewDataDir(home) }).create('cursor'));
      await mkdir(path.join(home, '.cursor'), { recursive: true });
      const entry = { url: 'http://127.0.0.1:39017/mcp', headers: { Authorization: `Bearer ${key}` } };
      await writeFile(
        path.join(home, '.cursor', 'mcp.json'),
        JSON.stringify({ mcpServers: { 'roam-companion': entry } }),
      );
    },
    preview: { env: {}, writeClipboard: (text) => void clipboard.push(text) },
    beforeLoad: (at) =>
      at.on('response', (response: Response) => {
        if (new URL(response.url()).pathname.startsWith('/ipc/')) received.push(response.text());
      }),
  });
  ({ page } = tray);
  // The tray holds the same token in its store.
  await tray.preview.core.handlers['import:run'](undefined);
}, 60_000);

afterAll(async () => {
  await tray?.close();
});

const copyButton = () => page.getByRole('button', { name: 'Copy diagnostics' });

/** Tabs from the Settings tab to Copy diagnostics (every stop with its focus ring), then presses Enter. */
async function copyWithKeyboard(): Promise<void> {
  await page.getByRole('tab', { name: 'Settings' }).focus();
  for (let step = 0; step < 40; step++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return null;
      const style = getComputedStyle(el);
      const box = el.getBoundingClientRect();
      return {
        name: el.textContent?.trim() ?? '',
        ring: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2,
        inView: box.bottom > 0 && box.top < window.innerHeight,
      };
    });
    if (!focused) break;
    if (focused.name !== 'Copy diagnostics') continue;
    expect(focused.ring, 'focus ring on Copy diagnostics').toBe(true);
    expect(focused.inView, 'Copy diagnostics scrolled into view').toBe(true);
    await page.keyboard.press('Enter');
    return;
  }
  throw new Error('Tab never reached Copy diagnostics');
}

function expectNoSecret(text: string): void {
  expect(text).not.toMatch(TOKEN);
  expect(text).not.toMatch(KEY);
  expect(text).not.toContain(token);
  expect(text).not.toContain(key);
  expect(text).not.toContain(NOTE);
  expect(text).not.toContain(GUIDELINE);
}

it.each([
  { width: 420, height: 600 },
  { width: 1000, height: 760 },
])('at $width px, the keyboard copies the checks with no token, key or note text', async (viewport) => {
  await page.setViewportSize(viewport);
  await page.getByRole('tab', { name: 'Settings' }).click();
  await copyButton().waitFor();
  const before = clipboard.length;
  await copyWithKeyboard();
  const said = page.getByRole('status').filter({ hasText: 'Diagnostics copied' });
  await poll(() => said.innerText()).toMatch(
    /^Diagnostics copied \(\d+ problems?, \d+ warnings?\): paste them into your bug report\.$/,
  );
  expect(clipboard).toHaveLength(before + 1);
  const copied = clipboard.at(-1)!;
  // The checks, in the setup's own names: Roam, the graph's token and guidelines, Cursor over HTTP with its key.
  expect(copied).toMatch(/✓ Roam Desktop: answers on port \d+/);
  expect(copied).toContain('✓ graph field-notes: token grants full, chosen level full; guidelines readable');
  expect(copied).toMatch(/✓ Cursor: installed over http \(.*mcp\.json\)/);
  expectNoSecret(copied);
  // The page holds only the counts.
  expectNoSecret(await page.locator('body').innerText());
  expect(await page.locator('body').innerText()).not.toContain('guidelines readable');
  expect(await violationsEverywhere(page)).toEqual([]);
});

it('no answer the page received holds a token, a key or a note', async () => {
  const bodies = await Promise.all(received);
  expect(bodies.length).toBeGreaterThan(0);
  for (const body of bodies) expectNoSecret(body);
});
