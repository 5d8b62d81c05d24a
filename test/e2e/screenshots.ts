/**
 * Light and dark screenshots of the page (or one part of it), at the tray's size (420×600, named
 * `<name>-<scheme>`) and in a larger window (1000×760, `<name>-1000-<scheme>`), into
 * test-results/screenshots with SCREENSHOTS=1, and into docs/screenshots as well with
 * UPDATE_SCREENSHOTS=1 (docs/ui.md). Only when asked: they check nothing, and a run's hundred
 * images cost its Chromium about as much CPU as the tests around them. The page is left at tray
 * size, light.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';

const sizes = [
  { suffix: '', viewport: { width: 420, height: 600 } },
  { suffix: '-1000', viewport: { width: 1000, height: 760 } },
];

/** Where this run saves screenshots: nowhere unless asked. */
export function screenshotFolders(): string[] {
  const update = process.env.UPDATE_SCREENSHOTS === '1';
  return [
    ...(update || process.env.SCREENSHOTS === '1' ? [path.resolve('test-results/screenshots')] : []),
    ...(update ? [path.resolve('docs/screenshots')] : []),
  ];
}

/** Saves `image` as `file` in every folder this run saves screenshots to. */
export async function saveScreenshot(file: string, image: Buffer): Promise<void> {
  for (const dir of screenshotFolders()) {
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, file), image);
  }
}

export async function screenshot(page: Page, name: string, target: Page | Locator = page): Promise<void> {
  if (!screenshotFolders().length) return;
  const before = page.viewportSize();
  for (const { suffix, viewport } of sizes) {
    await page.setViewportSize(viewport);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await saveScreenshot(
        `${name}${suffix}-${colorScheme}.png`,
        await target.screenshot({ animations: 'disabled' }),
      );
    }
  }
  await page.setViewportSize(before ?? sizes[0]!.viewport);
  await page.emulateMedia({ colorScheme: 'light' });
}
