/**
 * The demo stopped while its page stays open: the status bar no longer says Roam runs (what the
 * page shows is stale), and a click says what to do in plain text (no markdown backticks).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPreview, type Preview } from '../../src-main/preview/server.ts';
import { startEmulator } from '../emulator/index.ts';
import type { Emulator } from '../emulator/types.ts';
import { removeDir, tempDir } from '../harness/temp-dir.ts';
import { violationsEverywhere } from './axe.ts';
import { launchChromium, type BrowserSession } from './chromium.ts';
import { poll } from './poll.ts';

let home: string;
let emulator: Emulator;
let preview: Preview | undefined;
let browser: BrowserSession;
let page: Page;

beforeAll(async () => {
  home = await tempDir('preview-gone-');
  emulator = await startEmulator({ home, graphs: [{ name: 'team-notes' }] });
  preview = await startPreview({ home, emulator, statusPollMs: 300 });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 420, height: 600 } });
  page.setDefaultTimeout(10_000);
  await page.goto(preview.pageUrl);
});

afterAll(async () => {
  await browser?.close();
  await preview?.close();
  await emulator?.close();
  await removeDir(home);
});

describe('the page of a demo that stopped', () => {
  it('stops saying Roam Desktop runs, and says what to do without markdown', async () => {
    const status = page.getByRole('contentinfo', { name: 'Status' });
    await poll(() => status.innerText()).toContain('Roam Desktop running');
    await preview!.close();
    preview = undefined;
    await poll(() => status.innerText()).toContain('The preview server stopped answering');
    expect(await status.innerText()).not.toContain('Roam Desktop running');
    expect(await status.locator('.dot.ok').count()).toBe(0);
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByRole('checkbox', { name: 'Launch at login' }).click();
    const alert = page.getByRole('tabpanel').getByRole('alert').last();
    await poll(() => alert.innerText()).toContain('The preview server is not reachable');
    expect(await page.locator('body').innerText()).not.toContain('`');
    expect(await violationsEverywhere(page)).toEqual([]);
  });
});
