/**
 * axe-core in the page under test: the serious and critical accessibility violations of what is on
 * screen now. The source is evaluated through the DevTools protocol, so the page's CSP (script-src
 * 'self') stays as it ships.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { AxeResults } from 'axe-core';
import type { Page } from 'playwright-core';

const axeSource = readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** One line per failing node: rule, impact, where, and what axe says to fix. */
export async function seriousViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(await axeSource);
  const results = await page.evaluate(() =>
    (window as unknown as { axe: { run(context: Document, options: object): Promise<AxeResults> } }).axe.run(
      document,
      {
        resultTypes: ['violations'],
      },
    ),
  );
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) =>
      violation.nodes.map(
        (node) =>
          `${violation.id} (${violation.impact}) at ${node.target.join(' ')}: ${node.failureSummary ?? ''}`,
      ),
    );
}

/** Violations on the screen as it is, at both tray window sizes and in both color schemes. */
export async function violationsEverywhere(page: Page): Promise<string[]> {
  const found: string[] = [];
  for (const viewport of [
    { width: 420, height: 600 },
    { width: 1000, height: 760 },
  ]) {
    await page.setViewportSize(viewport);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      const where = `${viewport.width}×${viewport.height} ${colorScheme}`;
      found.push(...(await seriousViolations(page)).map((v) => `${where}: ${v}`));
    }
  }
  await page.setViewportSize({ width: 420, height: 600 });
  await page.emulateMedia({ colorScheme: 'light' });
  return found;
}
