/**
 * A change an agent asked for, answered in the tray (docs/tray.md, "Approvals"), end to end: the
 * preview runs the real tray core with its HTTP server against the emulator; a real SDK client
 * over HTTP asks to delete pages; the waiting change appears in Debian's Chromium above every
 * screen with what would go (no hidden text); Keep leaves the page, Approve deletes it; one
 * answered in the chat leaves the tray and says so. axe-core at 420 and 1000 px, light and dark.
 */
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readUrlFile } from '../../src-mcp/data-folder/index.ts';
import { previewDataDir } from '../../src-main/preview/preview-data-dir.ts';
import type { PageSpec } from '../emulator/index.ts';
import { fileStored, uploadPdf } from '../harness/asked-graph.ts';
import { APPS_CAPABILITY } from '../harness/consent-client.ts';
import { violationsEverywhere } from './axe.ts';
import { poll } from './poll.ts';
import { screenshot } from './screenshots.ts';
import { startTrayWorld, type TrayWorld } from './tray-world.ts';
import { waitFor } from '../main/helpers.ts';

const SECRET = 'HIDDEN-4410';
const NAMES = ['Drafts', 'Archive', 'Chatted'];
const uidOf = (name: string, i: number) => `${name.slice(0, 3).toLowerCase()}${String(i).padStart(6, '0')}`;
const content: PageSpec[] = NAMES.map((name) => ({
  title: `${name} 2026`,
  uid: uidOf(name, 0),
  children: [
    ...Array.from({ length: 12 }, (_, i) => ({ string: `${name} note ${i}`, uid: uidOf(name, i + 1) })),
    { string: `${SECRET} #.rm-hide` },
  ],
}));

let world: TrayWorld;
let plain: Client;
let apps: Client;

async function connect(url: string, key: string, capabilities = {}): Promise<Client> {
  const client = new Client({ name: 'Cursor', version: '1.0.0' }, { capabilities });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    }),
  );
  return client;
}

beforeAll(async () => {
  world = await startTrayWorld({
    prefix: 'tray-approvals-',
    graphs: [{ name: 'journal', content }],
    preview: { httpHub: { port: 0 }, env: {} },
  });
  world.emulator.autoDecide({ kind: 'approve' });
  const { core } = world.preview;
  await core.handlers['graphs:add']({ name: 'journal', nickname: 'Journal', accessLevel: 'full' });
  const { url } = await waitFor(() =>
    readUrlFile({ env: { ROAM_COMPANION_DATA_DIR: previewDataDir(world.home) } }),
  );
  await mkdir(path.join(world.home, '.cursor'), { recursive: true });
  // With the files toolset, so a plain client can ask to delete a file.
  await core.handlers['clients:install']({ id: 'cursor', toolsets: ['core', 'navigation', 'files'] });
  const entry = JSON.parse(await readFile(path.join(world.home, '.cursor', 'mcp.json'), 'utf8')).mcpServers[
    'roam-companion'
  ];
  const key = /^Bearer (\S+)$/.exec(entry.headers.Authorization)![1]!;
  plain = await connect(url, key);
  apps = await connect(url, key, APPS_CAPABILITY);
  for (const client of [plain, apps])
    await client.callTool({ name: 'select_graph', arguments: { graph: 'Journal' } });
}, 60_000);

afterAll(async () => {
  await plain?.close().catch(() => {});
  await apps?.close().catch(() => {});
  await world?.close();
});

const exists = (name: string) =>
  world.emulator
    .graph('journal')
    .run('data.q', [`[:find ?e . :where [?e :block/uid "${uidOf(name, 0)}"]]`]) != null;
const ask = (client: Client, name: string) =>
  client.callTool({ name: 'delete_page', arguments: { uid: uidOf(name, 0) } }) as Promise<CallToolResult>;
const panel = () => world.page.getByRole('region', { name: /wait for your answer|waits for your answer/ });
const card = (name: string) => world.page.getByRole('listitem', { name: new RegExp(`${name} 2026`) });
const note = () => world.page.getByRole('status').filter({ hasText: /./ }).first();

describe.sequential('Approvals in the tray', () => {
  it('shows a waiting change above every screen, with what would go and no hidden text', async () => {
    const result = await ask(plain, 'Drafts');
    expect(JSON.stringify(result.content)).toContain('They answer in Roam Companion');
    await card('Drafts').waitFor();
    const text = await panel().innerText();
    expect(text).toContain('A change waits for your answer');
    expect(text).toContain('Drafts note 0');
    expect(text).toMatch(/1 hidden block/);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(uidOf('Drafts', 1));
    // It stays above the screens: on Settings too.
    await world.page.getByRole('tab', { name: 'Settings' }).click();
    await card('Drafts').waitFor();
    expect(await violationsEverywhere(world.page)).toEqual([]);
    await screenshot(world.page, 'approval-waiting');
  });

  it('Keep leaves the page as it was and says so', async () => {
    await card('Drafts').getByRole('button', { name: 'Keep as it is' }).click();
    await poll(() => note().innerText()).toMatch(/^Kept/);
    await poll(() => card('Drafts').count()).toBe(0);
    expect(exists('Drafts')).toBe(true);
  });

  it('Approve from the keyboard deletes the page as the agent’s change', async () => {
    await ask(plain, 'Archive');
    const approve = card('Archive').getByRole('button', { name: 'Approve' });
    await approve.focus();
    await world.page.keyboard.press('Enter');
    await poll(() => note().innerText()).toMatch(
      /^Approved and done\. To take it back: Activity in Roam Companion/,
    );
    expect(exists('Archive')).toBe(false);
    // The focus is not lost with the card: it is on the heading, which says nothing more waits.
    await poll(() => world.page.evaluate(() => document.activeElement?.textContent)).toBe(
      'No change waits for your answer',
    );
    expect(await violationsEverywhere(world.page)).toEqual([]);
  });

  it('a file delete shows the file by name with the blocks that show it, nothing of its address; Approve deletes it', async () => {
    const graph = world.emulator.graph('journal');
    const { fileUrl, address, query, name } = uploadPdf(graph, 'minutes');
    graph.run('data.block.create', [
      {
        location: { 'parent-uid': uidOf('Drafts', 0), order: 'last' },
        block: { string: `Minutes ![](${fileUrl})` },
      },
    ]);
    const stored = () => fileStored(graph, fileUrl);
    await plain.callTool({ name: 'file_delete', arguments: { url: fileUrl } });
    const fileCard = world.page.getByRole('listitem', { name: new RegExp(`Delete the file '${name}'`) });
    await fileCard.waitFor();
    const text = await fileCard.innerText();
    expect(text).toContain('1 file deleted from Roam');
    expect(text).toMatch(
      new RegExp(
        `${name.replace('.', '\\.')}\\s*\\]\\s*· shown in 1 block on 'Drafts 2026', left with a broken link`,
      ),
    );
    // Nothing of the address anywhere in the page, text or markup.
    const html = await world.page.content();
    for (const leak of ['token=', query, 'firebasestorage', address]) expect(html).not.toContain(leak);
    expect(await violationsEverywhere(world.page)).toEqual([]);
    await screenshot(world.page, 'approval-file');
    world.emulator.clearRequests();
    // The last test's note reads as this one will: read first, so the note that comes is this one's.
    if (await world.page.getByRole('button', { name: 'OK' }).count())
      await world.page.getByRole('button', { name: 'OK' }).click();
    await poll(() => world.page.getByRole('button', { name: 'OK' }).count()).toBe(0);
    await fileCard.getByRole('button', { name: 'Approve' }).click();
    await poll(() => note().innerText()).toMatch(/^Approved and done\./);
    await poll(() => fileCard.count()).toBe(0);
    expect(stored()).toBe(false);
    expect(world.emulator.requests.filter((r) => r.action === 'file.delete')).toHaveLength(1);
    await world.page.getByRole('button', { name: 'OK' }).click();
  });

  it('answered in the chat first, it leaves the tray and the tray says so', async () => {
    const result = await ask(apps, 'Chatted');
    await card('Chatted').waitFor();
    const approve = result._meta?.['roam-companion/approve'] as {
      tool: string;
      arguments: Record<string, string>;
    };
    expect((await apps.callTool({ name: approve.tool, arguments: approve.arguments })).isError ?? false).toBe(
      false,
    );
    await poll(() => card('Chatted').count()).toBe(0);
    await poll(() => note().innerText()).toMatch(/answered in the chat, or it expired/);
    expect(exists('Chatted')).toBe(false);
    expect(await violationsEverywhere(world.page)).toEqual([]);
    // Read: OK, and the panel goes, nothing waiting.
    await world.page.getByRole('button', { name: 'OK' }).click();
    await poll(() => world.page.getByRole('heading', { name: /waits? for your answer/ }).count()).toBe(0);
  });
});
