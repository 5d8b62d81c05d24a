/**
 * Claude Code over the tray's HTTP server, end to end: the built renderer in Debian's Chromium over
 * the preview's HTTP bridge, which stands in for main (its clipboard too), the real tray core and
 * its real `roam-mcp serve --http` child. The row shows the command, which names only the file the
 * key waits in; Copy goes to main, which makes a new key, writes it into that file (0600) and the
 * command to main's clipboard; the key is in no answer, no event, not on the clipboard and nowhere
 * in the page, and it works against the server.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startPreview, type Preview } from '../../src-main/preview/server.ts';
import { previewDataDir } from '../../src-main/preview/preview-data-dir.ts';
import { eventChannels } from '../../src-shared/constants.ts';
import { removeDir, tempDir } from '../harness/temp-dir.ts';
import { mkdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { seriousViolations, violationsEverywhere } from './axe.ts';
import { launchChromium, type BrowserSession } from './chromium.ts';
import { poll } from './poll.ts';

const KEY = /roam-mcp-key-[A-Za-z0-9_-]{20,}/;

let home: string;
let preview: Preview;
let browser: BrowserSession;
let page: Page;
let url: string;
/** What main wrote to its clipboard. */
const clipboard: string[] = [];
/** Every payload that crossed the bridge (IPC answers and core events), and the channels asked. */
const bridgePayloads: string[] = [];
const channelsAsked: string[] = [];

beforeAll(async () => {
  home = await tempDir('tray-claude-code-');
  preview = await startPreview({
    home,
    env: {},
    httpHub: { port: 0 },
    writeClipboard: (text) => void clipboard.push(text),
  });
  for (const channel of eventChannels)
    preview.core.on(channel, (p) => bridgePayloads.push(JSON.stringify(p)));
  // The store file the server's child waits for; then its address is the one the row shows.
  await preview.core.handlers['settings:set']({ confirm: 'never' });
  url = await servingUrl();
  browser = await launchChromium();
  page = await (await browser.newContext({ viewport: { width: 420, height: 600 } })).newPage();
  page.setDefaultTimeout(10_000);
  page.on('request', (request) => {
    const asked = /\/ipc\/([^?#]+)/.exec(request.url());
    if (asked) channelsAsked.push(decodeURIComponent(asked[1]!));
  });
  page.on('response', (response) => {
    if (response.url().includes('/ipc/'))
      void response.text().then(
        (text) => bridgePayloads.push(text),
        () => {},
      );
  });
  await page.goto(preview.pageUrl);
}, 40_000);

/** The tray's HTTP server's address once it serves (polled: it may serve before anyone listens). */
async function servingUrl(): Promise<string> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const http = (await preview.core.handlers['status:get'](undefined)).http;
    if (http?.state === 'serving') return http.url;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('The tray’s HTTP server did not serve within 20 s.');
}

afterAll(async () => {
  await browser?.close();
  await preview?.close();
  if (home) await removeDir(home);
});

const contains = (locator: Locator, text: string) => poll(() => locator.innerText()).toContain(text);

it('shows the command naming the key file; Copy has main make a new key there the page and clipboard never see', async () => {
  await page.getByRole('tab', { name: 'AI clients' }).click();
  const row = page.getByRole('listitem', { name: 'Claude Code' });
  const headers = path.join(previewDataDir(home), 'claude-code-headers.json');
  const helper = `cat '${headers}'`;
  const masked = `claude mcp add-json --scope user roam-companion '${JSON.stringify({ type: 'http', url, headersHelper: helper }).replace(/'/g, `'\\''`)}'`;
  await contains(row, masked);
  await contains(
    row,
    'Copying makes a new key and keeps it in a file only you can read, which the command names; a Claude Code set up with it picks up the new key at its next connection.',
  );
  // Its transport, as its command sets it up: the tray's server, not a process per chat.
  await contains(row, "Once installed, over HTTP: the tray's server, with a key of its own.");

  await row.getByRole('button', { name: 'Copy the Claude Code command' }).click();
  await contains(row.getByRole('status'), 'Copied, with a new key (claude-code)');
  expect(channelsAsked).toContain('clients:copy-command');
  expect(clipboard).toHaveLength(1);
  // The command names the headers file; the key is only in that file (0600).
  expect(clipboard[0]).toBe(masked);
  expect(clipboard[0]).not.toMatch(KEY);
  expect((await stat(headers)).mode & 0o077).toBe(0);
  const key = KEY.exec(await readFile(headers, 'utf8'))![0];
  // The new key is listed by name in Client keys.
  await contains(page.getByRole('list', { name: 'Client keys' }), 'claude-code');

  // The copied command's key serves a chat on the tray's server.
  const chat = new Client({ name: 'claude-code', version: '0.0.0' });
  await chat.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    }),
  );
  expect((await chat.listTools()).tools.length).toBeGreaterThan(0);
  await chat.close();

  expect(await seriousViolations(page)).toEqual([]);
  // Nowhere the renderer can read: the DOM (text and attributes), every answer and event.
  expect(await page.content()).not.toContain(key);
  expect(await page.evaluate(() => document.body.innerText)).not.toMatch(KEY);
  await poll(async () => bridgePayloads.some((p) => p.includes('"keyName":"claude-code"'))).toBe(true);
  expect(bridgePayloads.join('\n')).not.toMatch(KEY);
}, 30_000);

it('Cursor over HTTP: its key’s toolsets and the tools its chats get, a new choice applied to the key, a revoked key not green', async () => {
  await mkdir(path.join(home, '.cursor'), { recursive: true });
  await page.getByRole('tab', { name: 'Graphs' }).click();
  await page.getByRole('tab', { name: 'AI clients' }).click();
  const row = page.getByRole('listitem', { name: 'Cursor' });
  await row.getByRole('button', { name: 'Install into Cursor…' }).click();
  await row.getByRole('button', { name: 'Confirm install' }).click();
  await contains(row.getByRole('status', { name: 'Cursor: done' }), 'Installed in Cursor.');
  await row.getByRole('button', { name: 'OK' }).click();
  const badge = row.locator('.badge');
  await poll(() => badge.innerText()).toBe('Installed');
  await contains(row, "Over HTTP: the tray's server, with a key of its own.");
  // Right after the install: the key's sets, folded, and nothing to apply.
  const fold = row.locator('details.toolsets');
  await contains(fold.locator('summary'), 'core, navigation · 38 tools');
  expect(await fold.evaluate((el) => (el as HTMLDetailsElement).open)).toBe(false);
  expect(await row.getByRole('button', { name: /Apply the toolsets/ }).count()).toBe(0);
  // The rows of every client fold: nothing opens six toolset rows at once.
  expect(await page.locator('details.toolsets[open]').count()).toBe(0);
  expect(await violationsEverywhere(page)).toEqual([]);

  const configFile = path.join(home, '.cursor', 'mcp.json');
  const config = await readFile(configFile, 'utf8');
  await fold.locator('summary').click();
  await row.getByRole('checkbox', { name: /^ui/ }).check();
  await contains(
    row.getByRole('status', { name: 'Tool count for Cursor' }),
    'Cursor gets 44 tools (45 where',
  );
  await row.getByRole('button', { name: 'Apply the toolsets to Cursor' }).click();
  const done = row.getByRole('status', { name: 'Cursor: done' });
  await contains(done, "Cursor's key now gives core, navigation, ui: 44 tools");
  await contains(done, "Cursor's config was not changed.");
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('OK');
  expect(await readFile(configFile, 'utf8')).toBe(config);
  expect(await violationsEverywhere(page)).toEqual([]);
  await done.getByRole('button', { name: 'OK' }).click();

  // The key's chats are served what the row says.
  const entry = JSON.parse(config).mcpServers['roam-companion'];
  const chat = new Client({ name: 'cursor', version: '0.0.0' });
  await chat.connect(
    new StreamableHTTPClientTransport(new URL(entry.url), {
      requestInit: { headers: { Authorization: entry.headers.Authorization } },
    }),
  );
  expect((await chat.listTools()).tools).toHaveLength(44);
  await chat.close();

  await page.getByRole('button', { name: 'Revoke the key cursor' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke' }).click();
  await poll(() => badge.innerText()).toBe('Needs update');
  await contains(
    row,
    'Its key was revoked or replaced by a newer one, so Cursor is refused: update it to give it a new key.',
  );
  expect(await violationsEverywhere(page)).toEqual([]);
}, 60_000);
