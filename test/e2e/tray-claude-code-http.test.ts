/**
 * Claude Code over the tray's HTTP server, end to end: the built renderer in Debian's Chromium over
 * the preview's HTTP bridge, which stands in for main (its clipboard too), the real tray core and
 * its real `roam-mcp serve --http` child. The row shows the command with `<key>`; Copy goes to main,
 * which puts the command with a new key on main's clipboard; the key is in no answer, no event and
 * nowhere in the page, and it works against the server.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startPreview, type Preview } from '../../src-main/preview/server.ts';
import { eventChannels } from '../../src-shared/constants.ts';
import { removeDir, tempDir } from '../harness/temp-dir.ts';
import { seriousViolations } from './axe.ts';
import { launchChromium } from './chromium.ts';
import { poll } from './poll.ts';

const KEY = /roam-mcp-key-[A-Za-z0-9_-]{20,}/;

let home: string;
let preview: Preview;
let browser: Browser;
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

it('shows the command with <key>; Copy has main put it on the clipboard with a new key the page never sees', async () => {
  await page.getByRole('tab', { name: 'AI clients' }).click();
  const row = page.getByRole('listitem', { name: 'Claude Code' });
  const masked = `claude mcp add --scope user --transport http roam-companion ${url} --header 'Authorization: Bearer <key>'`;
  await contains(row, masked);
  await contains(
    row,
    'Copying makes a new key; a Claude Code already set up with an older one must run the new command.',
  );

  await row.getByRole('button', { name: 'Copy the Claude Code command' }).click();
  await contains(row.getByRole('status'), 'Copied, with a new key (claude-code)');
  expect(channelsAsked).toContain('clients:copy-command');
  expect(clipboard).toHaveLength(1);
  const key = KEY.exec(clipboard[0]!)![0];
  expect(clipboard[0]).toBe(masked.replace('<key>', key));
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
