/**
 * The change-review app in Debian's Chromium, as the browser tests host it: a page that runs the
 * host side (host.ts, bundled here) and opens the HTML the built bin serves in its sandboxed
 * iframe, every tools/call the app makes handed to `callTool`. Also what the tests check of it:
 * axe-core in the app's frame (every violation, whatever its impact) and screenshots in both themes.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { build } from 'esbuild';
import type { AxeResults } from 'axe-core';
import type { Frame, FrameLocator, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ROOT } from '../../harness/mcp-bin.ts';
import { launchChromium, type BrowserSession } from '../chromium.ts';
import { saveScreenshot, screenshotFolders } from '../screenshots.ts';

export interface ToolCall {
  name: string;
  arguments?: Record<string, unknown>;
}

export interface AppHost {
  browser: BrowserSession;
  page: Page;
  /** The app's iframe. */
  app: FrameLocator;
  /** The HTML the app was opened with (dist/apps/change-review.html). */
  html: string;
  appFrame(): Frame;
  /** What a host does with a tool result: hands it to the app. */
  showResult(result: CallToolResult): Promise<void>;
  /** Every axe violation in the app's frame. */
  violations(): Promise<string[]>;
  /** axe in both themes, and a screenshot of the app in each (`<name>-<theme>.png`). */
  checkAndShoot(name: string): Promise<void>;
  close(): Promise<void>;
}

const axeSource = readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** host.ts bundled, once per worker: the same for every page (a build is half a second of esbuild). */
let hostScript: Promise<string> | undefined;
function bundledHost(): Promise<string> {
  hostScript ??= build({
    entryPoints: [path.join(ROOT, 'test/e2e/app-host/host.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'chrome120',
    logLevel: 'warning',
  }).then(
    (built) => built.outputFiles[0]!.text,
    (error: unknown) => {
      hostScript = undefined;
      throw error;
    },
  );
  return hostScript;
}

export async function openChangeReview(options: {
  callTool(params: ToolCall): Promise<CallToolResult>;
  /** What the app tells the model (ui/update-model-context). */
  modelContext?(params: { content?: Array<{ text?: string }> }): Promise<void>;
  width?: number;
}): Promise<AppHost> {
  const script = bundledHost();
  script.catch(() => {}); // awaited below, unless the page fails first
  const browser = await launchChromium();
  const page = await (
    await browser.newContext({ viewport: { width: options.width ?? 640, height: 900 } })
  ).newPage();
  page.setDefaultTimeout(10_000);
  await page.exposeFunction('hostCallTool', (params: ToolCall) => options.callTool(params));
  if (options.modelContext) await page.exposeFunction('hostModelContext', options.modelContext);
  await page.setContent(
    '<!doctype html><html lang="en"><head><title>Test host</title></head><body></body></html>',
  );
  await page.addScriptTag({ content: await script });
  const html = await readFile(path.join(ROOT, 'dist/apps/change-review.html'), 'utf8');
  await page.evaluate((text) => window.host.open(text, 'light'), html);

  const appFrame = (): Frame => page.frames().find((f) => f !== page.mainFrame())!;
  async function violations(): Promise<string[]> {
    const frame = appFrame();
    if (!(await frame.evaluate(() => 'axe' in window))) await frame.evaluate(await axeSource);
    const results = await frame.evaluate(() =>
      (window as unknown as { axe: { run(d: Document, o: object): Promise<AxeResults> } }).axe.run(document, {
        resultTypes: ['violations'],
      }),
    );
    return results.violations.flatMap((v) =>
      v.nodes.map((n) => `${v.id} (${v.impact}) at ${n.target.join(' ')}`),
    );
  }
  return {
    browser,
    page,
    app: page.frameLocator('iframe'),
    html,
    appFrame,
    showResult: (result) => page.evaluate((r) => window.host.showResult(r as never), result),
    violations,
    async checkAndShoot(name) {
      for (const theme of ['light', 'dark'] as const) {
        await page.evaluate((t) => window.host.setTheme(t), theme);
        await expect
          .poll(() => appFrame().evaluate(() => document.documentElement.dataset.theme))
          .toBe(theme);
        expect(await violations()).toEqual([]);
        if (screenshotFolders().length)
          await saveScreenshot(
            `${name}-${theme}.png`,
            await page.locator('iframe').screenshot({ animations: 'disabled' }),
          );
      }
      await page.evaluate(() => window.host.setTheme('light'));
    },
    close: () => browser.close(),
  };
}
