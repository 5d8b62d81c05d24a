/**
 * The recorded walk through `npm run demo` (issue: "the demo is the product"): add a graph in the
 * tray UI → install into the demo's sandboxed Claude Desktop from the AI clients screen → a real
 * SDK client started with the command and args written in that file sees the graph → switching
 * it off in the UI removes it from the running client → the status bar counts the session (1,
 * then 0). Real Chromium, real processes, real files; screenshots into docs/screenshots with
 * UPDATE_SCREENSHOTS=1.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Locator, Page } from 'playwright-core';
import { launchChromium, type BrowserSession } from './chromium.ts';
import { screenshot } from './screenshots.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemo, startDemoPreview, type Demo } from '../../scripts/demo.ts';
import type { Preview } from '../../src-main/preview/server.ts';
import { LOCAL_TOKEN_PREFIX } from '../../src-shared/roam-config.ts';
import { poll } from './poll.ts';
import { openTray } from './tray-world.ts';

let demo: Demo;
let preview: Preview;
let browser: BrowserSession;
let page: Page;
let client: Client | undefined;

beforeAll(async () => {
  demo = await startDemo();
  preview = await startDemoPreview(demo);
  // The person in Roam approves at once (the demo's own Roam waits 2 s, which the walk does not show).
  demo.emulator.autoDecide({ kind: 'approve' });
  browser = await launchChromium();
  page = await openTray(browser, preview);
});

afterAll(async () => {
  await client?.close();
  await browser?.close();
  await preview?.close();
  await demo?.close();
});

const contains = (locator: Locator, text: string) => poll(() => locator.innerText()).toContain(text);
const status = () => page.getByRole('contentinfo', { name: 'Status' });
const tab = (name: string) => page.getByRole('tab', { name });

/** The graph nicknames the agent gets from list_graphs. */
async function agentGraphs(): Promise<string[]> {
  const result = await client!.callTool({ name: 'list_graphs', arguments: {} });
  const text = (result.content as { type: string; text: string }[])[0]?.text ?? '';
  if (result.isError) return [`error: ${text}`];
  return (JSON.parse(text) as { items: { nickname: string }[] }).items.map((g) => g.nickname);
}

// One walk: each test starts where the one before left the page.
describe.sequential('the demo walk: the agent sees what the tray shows', () => {
  it('puts the import offer off for good ("Not now" survives a reload)', async () => {
    const offer = page.getByRole('region', { name: 'Import graphs' });
    await contains(offer, 'Found 2 graphs');
    await offer.getByRole('button', { name: 'Not now' }).click();
    await offer.waitFor({ state: 'detached' });
    // The page took the bridge key out of the address bar and keeps it for the tab: a reload works.
    expect(page.url()).toBe(preview.url);
    await page.reload();
    await page.getByText('No graphs yet').waitFor();
    expect(await offer.count()).toBe(0);
  });

  it('adds a graph in the UI; the "pick a graph" error goes once one is picked', async () => {
    await page.getByRole('button', { name: 'Add graph' }).click();
    const form = page.getByRole('form', { name: 'Add a graph' });
    const graph = form.getByRole('combobox', { name: 'Graph' });
    await graph.locator('option', { hasText: 'demo-work (hosted)' }).waitFor({ state: 'attached' });
    await form.getByRole('button', { name: 'Add and request token' }).click();
    const pick = form.getByRole('alert').filter({ hasText: 'Choose a graph from the list' });
    await pick.waitFor();
    await graph.selectOption({ label: 'demo-work (hosted)' });
    await pick.waitFor({ state: 'detached' });
    await form.getByRole('textbox', { name: 'Nickname' }).fill('Work');
    await form.getByText('Nickname is free.').waitFor();
    await form.getByRole('radio', { name: /Read \+ append/ }).check();
    await screenshot(page, 'walk-1-add-graph');
    await form.getByRole('button', { name: 'Add and request token' }).click();

    // Roam approves.
    const panel = page.getByRole('region', { name: 'Token request for Work' });
    await contains(panel, 'Approved: Work is connected.');
    await panel.getByRole('button', { name: /^Dismiss/ }).click();
    await panel.waitFor({ state: 'detached' });
    await page.reload(); // a dismissed panel stays dismissed
    await contains(page.getByRole('listitem', { name: 'Work', exact: true }), 'Token ok');
    expect(await panel.count()).toBe(0);
  });

  it('installs into the sandboxed Claude Desktop from the AI clients screen, after showing the diff', async () => {
    await tab('AI clients').click();
    const row = page.getByRole('listitem', { name: 'Claude Desktop' });
    await contains(row, 'Not installed');
    await row.getByRole('button', { name: 'Install into Claude Desktop…' }).click();
    await row.getByLabel('Changes').locator('.diff-line.added', { hasText: 'demo-mcp.mjs' }).waitFor();
    await screenshot(page, 'walk-2-install-preview');
    await row.getByRole('button', { name: 'Confirm install' }).click();
    await contains(row, 'Installed');
  });

  it('a client started with the written command and args sees the graph, and counts as a session', async () => {
    const file = path.join(demo.home, '.config', 'Claude', 'claude_desktop_config.json');
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain(LOCAL_TOKEN_PREFIX);
    const entry = (JSON.parse(text) as { mcpServers: Record<string, { command: string; args: string[] }> })
      .mcpServers['roam-companion']!;
    expect(entry.args).toEqual([path.resolve('dist/demo-mcp.mjs'), '--home', demo.home]);

    client = new Client({ name: 'demo-walk', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: entry.command, args: entry.args }));
    expect(await agentGraphs()).toEqual(['Work']);
    await contains(status(), '1 MCP session connected');
    await tab('Graphs').click();
    await screenshot(page, 'walk-3-agent-connected');
  });

  it('a nickname edited in the UI reaches the running client', async () => {
    await page.getByRole('button', { name: 'Edit Work' }).click();
    const form = page.getByRole('form', { name: 'Edit Work' });
    await form.getByRole('textbox', { name: 'Nickname' }).fill('Office');
    await form.getByText('Nickname is free.').waitFor();
    await form.getByRole('button', { name: 'Save' }).click();
    await poll(agentGraphs).toEqual(['Office']);
  });

  it('switching the graph off in the UI removes it from the running client', async () => {
    await page.getByRole('switch', { name: 'Enabled: Office' }).click();
    await page.getByRole('switch', { name: 'Enabled: Office', checked: false }).waitFor();
    await poll(agentGraphs).not.toContain('Office');
    await screenshot(page, 'walk-4-switched-off');
  });

  it('the session count follows the client closing', async () => {
    await client!.close();
    client = undefined;
    await contains(status(), '0 MCP sessions connected');
  });
});
