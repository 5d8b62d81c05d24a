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

/** The rules that read colors: all a change of color scheme can make pass or fail. */
const COLOR_RULES = ['color-contrast', 'link-in-text-block'];

/** One line per failing node: rule, impact, where, and what axe says to fix (`rules`: only those). */
export async function seriousViolations(page: Page, rules?: readonly string[]): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(await axeSource);
  const options = {
    resultTypes: ['violations'],
    ...(rules ? { runOnly: { type: 'rule', values: rules } } : {}),
  };
  const results = await page.evaluate(
    (options) =>
      (
        window as unknown as { axe: { run(context: Document, options: object): Promise<AxeResults> } }
      ).axe.run(document, options),
    options,
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

/**
 * Violations on the screen as it is, at both tray window sizes and in both color schemes: every rule
 * at each size (a layout shows and hides what it likes), and in the dark scheme the rules that read
 * colors, since a scheme changes nothing else (each full axe run is a few hundred ms of CPU).
 */
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
      const rules = colorScheme === 'dark' ? COLOR_RULES : undefined;
      found.push(...(await seriousViolations(page, rules)).map((v) => `${where}: ${v}`));
    }
  }
  await page.setViewportSize({ width: 420, height: 600 });
  await page.emulateMedia({ colorScheme: 'light' });
  return found;
}
