/**
 * Light and dark screenshots of the page (or one part of it) into test-results/screenshots, and
 * into docs/screenshots with UPDATE_SCREENSHOTS=1 (docs/ui.md).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';

export async function screenshot(page: Page, name: string, target: Page | Locator = page): Promise<void> {
  const dirs = [path.resolve('test-results/screenshots')];
  if (process.env.UPDATE_SCREENSHOTS === '1') dirs.push(path.resolve('docs/screenshots'));
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    const image = await target.screenshot({ animations: 'disabled' });
    for (const dir of dirs) {
      await mkdir(dir, { recursive: true });
      await writeFile(path.join(dir, `${name}-${colorScheme}.png`), image);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
}
