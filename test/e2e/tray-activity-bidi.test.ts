/**
 * A hidden right-to-left override (U+202E) in a page title never reverses what a person reads in
 * the tray's Activity rows (issue 40, item 10): an agent started with the demo's entry renames a
 * page to a title ending in one, then renames it again; the second change's line, "Renamed page
 * 'Alan‮nala' → 'Plain title'", is drawn in reading order in Debian's Chromium (graph texts are
 * isolated in <bdi>).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startDemo, startDemoPreview, type Demo } from '../../scripts/demo.ts';
import type { Preview } from '../../src-main/preview/server.ts';
import { launchChromium } from './chromium.ts';

const RLO = '\u202e';
let demo: Demo;
let preview: Preview;
let browser: Browser;
let page: Page;
let agent: Client | undefined;

beforeAll(async () => {
  demo = await startDemo();
  preview = await startDemoPreview(demo);
  await preview.core.handlers['import:run'](undefined);
  await preview.core.handlers['graphs:update']({ id: 'hosted:demo-work', accessLevel: 'full' });
  browser = await launchChromium();
  page = await (await browser.newContext({ viewport: { width: 900, height: 700 } })).newPage();
  page.setDefaultTimeout(15_000);
  await page.goto(preview.pageUrl);
});

afterAll(async () => {
  await agent?.close();
  await browser?.close();
  await preview?.close();
  await demo?.close();
});

async function agentCall(name: string, args: Record<string, unknown>): Promise<void> {
  const result = await agent!.callTool({ name, arguments: { graph: 'Work', ...args } });
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
}

it('draws a change line whose old title hides a right-to-left override in reading order', async () => {
  agent = new Client({ name: 'Claude Desktop', version: '1.0.0' });
  await agent.connect(new StdioClientTransport({ command: demo.launcher.command, args: demo.launcher.args }));
  await agentCall('select_graph', {});
  await agentCall('update_page', { uid: 'alan-pg', title: `Alan${RLO}nala` });
  await agentCall('update_page', { uid: 'alan-pg', title: 'Plain title' });
  await page.getByRole('tab', { name: 'Activity' }).click();
  const line = page.locator('li.activity-change', { hasText: 'Plain title' }).locator('.row .grow');
  await line.waitFor();

  // Left edges as drawn of 'Renamed', the arrow and the new title: in reading order they grow.
  const lefts = await line.evaluate((root) => {
    const nodes: Text[] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) nodes.push(n as Text);
    return ['Renamed', '→', 'Plain title'].map((needle) => {
      for (const node of nodes) {
        const at = node.data.indexOf(needle);
        if (at < 0) continue;
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + needle.length);
        return range.getBoundingClientRect().left;
      }
      throw new Error(`'${needle}' not drawn`);
    });
  });
  expect(lefts[0]! < lefts[1]! && lefts[1]! < lefts[2]!, JSON.stringify(lefts)).toBe(true);
});
