/**
 * Light and dark screenshots of the page (or one part of it), at the tray's size (420×600, named
 * `<name>-<scheme>`) and in a larger window (1000×760, `<name>-1000-<scheme>`), into
 * test-results/screenshots, and into docs/screenshots with UPDATE_SCREENSHOTS=1 (docs/ui.md).
 * The page is left at tray size, light.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';

const sizes = [
  { suffix: '', viewport: { width: 420, height: 600 } },
  { suffix: '-1000', viewport: { width: 1000, height: 760 } },
];

export async function screenshot(page: Page, name: string, target: Page | Locator = page): Promise<void> {
  const dirs = [path.resolve('test-results/screenshots')];
  if (process.env.UPDATE_SCREENSHOTS === '1') dirs.push(path.resolve('docs/screenshots'));
  const before = page.viewportSize();
  for (const { suffix, viewport } of sizes) {
    await page.setViewportSize(viewport);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      const image = await target.screenshot({ animations: 'disabled' });
      for (const dir of dirs) {
        await mkdir(dir, { recursive: true });
        await writeFile(path.join(dir, `${name}${suffix}-${colorScheme}.png`), image);
      }
    }
  }
  await page.setViewportSize(before ?? sizes[0]!.viewport);
  await page.emulateMedia({ colorScheme: 'light' });
}
