/**
 * A hidden right-to-left override (U+202E) in a page title never reverses what a person reads in
 * the change-review app (issue 40, item 10): the rename row's old → new, a move's From/To place
 * line and the dry run's step lines keep their order, in Debian's Chromium, with the real app the
 * built bin serves, hosted by the package's own host side, against the emulator. Every
 * graph-derived text is isolated (`<bdi>`).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { jsonOf, newToken, ROOT } from '../harness/mcp-bin.ts';
import { startStdioWorld, type StdioWorld } from '../harness/stdio-world.ts';
import { launchChromium } from './chromium.ts';

const TOKEN = newToken();
const RLO = '\u202e';
let world: StdioWorld;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  world = await startStdioWorld({
    emulator: {
      graphs: [
        {
          name: 'g',
          tokens: [{ token: TOKEN, accessLevel: 'full' }],
          content: [
            { title: `Old${RLO}dlo`, uid: 'oldpage01', children: [{ string: 'first', uid: 'first0001' }] },
            {
              title: 'Source',
              uid: 'source001',
              children: [{ string: `moved${RLO}devom`, uid: 'moved0001' }],
            },
            { title: `Dest${RLO}tsed`, uid: 'destpage1', children: [{ string: 'anchor', uid: 'anchor001' }] },
          ],
        },
      ],
    },
    config: [{ name: 'g', token: TOKEN, accessLevel: 'full' }],
    orient: ['g'],
  });
  await world.mcp.call('update_page', { uid: 'oldpage01', title: 'Plain new' }).then(jsonOf);
  await world.mcp.call('move_block', { uid: 'moved0001', parentUid: 'anchor001' }).then(jsonOf);

  const host = await build({
    entryPoints: [path.join(ROOT, 'test/e2e/app-host/host.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'chrome120',
    logLevel: 'warning',
  });
  browser = await launchChromium();
  page = await (await browser.newContext({ viewport: { width: 900, height: 900 } })).newPage();
  page.setDefaultTimeout(10_000);
  await page.exposeFunction('hostCallTool', (params: { name: string; arguments?: Record<string, unknown> }) =>
    world.mcp.call(params.name, params.arguments ?? {}),
  );
  await page.setContent(
    '<!doctype html><html lang="en"><head><title>Host</title></head><body></body></html>',
  );
  await page.addScriptTag({ content: host.outputFiles[0]!.text });
  const html = await readFile(path.join(ROOT, 'dist/apps/change-review.html'), 'utf8');
  await page.evaluate((text) => window.host.open(text, 'light'), html);
});

afterAll(async () => {
  await browser?.close();
  await world?.close();
});

const appFrame = (): Frame => page.frames().find((f) => f !== page.mainFrame())!;

/**
 * Left edges, as drawn, of the first occurrence of each of `needles` in the first element
 * matching `selector` that holds the first one (its text holds them in this order): drawn in
 * reading order, they grow.
 */
async function lefts(selector: string, needles: string[]): Promise<number[]> {
  return appFrame().evaluate(
    ({ selector, needles }) => {
      const root = [...document.querySelectorAll(selector)].find((e) => e.textContent?.includes(needles[0]!));
      if (!root) throw new Error(`no ${selector}`);
      const nodes: Text[] = [];
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) nodes.push(n as Text);
      return needles.map((needle) => {
        for (const node of nodes) {
          const at = node.data.indexOf(needle);
          if (at < 0) continue;
          const range = document.createRange();
          range.setStart(node, at);
          range.setEnd(node, at + needle.length);
          return range.getBoundingClientRect().left;
        }
        throw new Error(`'${needle}' not in ${selector}`);
      });
    },
    { selector, needles },
  );
}

const increasing = (values: number[]) => values.every((v, i) => i === 0 || v > (values[i - 1] as number));

it('keeps the rename row and the move’s place line in reading order', async () => {
  const result = await world.mcp.call('list_changes', {});
  await page.evaluate((r) => window.host.showResult(r as never), result);
  await appFrame().waitForSelector('.op.rename');
  // Old‮dlo → Plain new: the arrow after the old title, the new title after the arrow.
  expect(increasing(await lefts('.op.rename .row .text', ['Old', '→', 'Plain new']))).toBe(true);
  // To: Dest‮tsed › anchor: the block after the ›, after the page.
  expect(increasing(await lefts('.op.move .row .text', ['Dest', '›', 'anchor']))).toBe(true);
});

it('keeps the dry run’s step lines in reading order', async () => {
  await appFrame().getByRole('button', { name: 'Undo whole chat…' }).click();
  await appFrame().waitForSelector('.dry-run .step');
  // "moved 'moved‮devom' back to position 0 under 'Source'": the words after the quote read left to right.
  expect(increasing(await lefts('.dry-run .step', ['back to', 'position', 'under']))).toBe(true);
});
