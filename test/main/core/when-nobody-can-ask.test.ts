// A graph's "when no one can be asked" setting in the tray, with nothing faked: kept by the import
// of ~/.roam-tools.json, stored, sent by the --mcp launcher to the real roam-mcp child with every
// config, and honoured live: a plain client (no elicitation, no apps, no tray showing it) is
// refused a large delete while the graph says `refuse`, and goes ahead once it says `proceed`.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrayCore } from '../../../src-main/core/tray-core.ts';
import { STORE_FILE } from '../../../src-main/core/store-file.ts';
import { startEmulator, type Emulator } from '../../emulator/index.ts';
import { errorOf, jsonOf, textOf, writeToolsConfig } from '../../harness/mcp-bin.ts';
import { connectThroughLauncher, startCore, tempDirs } from '../helpers.ts';

const ID = 'hosted:notes';
let dirs: Awaited<ReturnType<typeof tempDirs>>;
let emulator: Emulator;
let core: TrayCore;
let client: Client;

const call = async (name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: { graph: 'Notes', ...args } })) as CallToolResult;
const pageExists = (uid: string) =>
  emulator.graph('notes').run('data.q', ['[:find ?e . :in $ ?u :where [?e :block/uid ?u]]', uid]) !== null;
const storedGraph = async () =>
  (
    JSON.parse(await readFile(path.join(dirs.storeDir, STORE_FILE), 'utf8')) as {
      graphs: Array<Record<string, unknown>>;
    }
  ).graphs[0];
const viewed = async () => (await core.handlers['graphs:list'](undefined))[0]?.whenNobodyCanAsk;

/**
 * Sets the graph's choice in the tray, then waits until the running child has a config made after
 * it: a later change (the description, which list_graphs shows) travels in a later, whole config.
 */
let round = 0;
async function choose(whenNobodyCanAsk: 'proceed' | 'refuse'): Promise<void> {
  await core.handlers['graphs:update']({ id: ID, whenNobodyCanAsk });
  const description = `round ${++round}`;
  await core.handlers['graphs:update']({ id: ID, description });
  await expect
    .poll(async () =>
      textOf((await client.callTool({ name: 'list_graphs', arguments: {} })) as CallToolResult),
    )
    .toContain(description);
}

function expectRefused(result: CallToolResult, page: string): void {
  expect(errorOf(result)).toMatchObject({
    code: 'ACCESS_LEVEL',
    setting: 'whenNobodyCanAsk',
    graph: 'Notes',
  });
  expect(textOf(result)).toMatch(new RegExp(`Delete the page '${page}'.*Nothing was changed`));
}

beforeAll(async () => {
  dirs = await tempDirs();
  emulator = await startEmulator({
    home: dirs.home,
    graphs: [
      {
        name: 'notes',
        content: Array.from({ length: 4 }, (_, i) => ({
          title: `Page ${i}`,
          uid: `page${i}0000`,
          children: ['first line', 'second line', 'third line'],
        })),
      },
    ],
  });
  // The official server's file says `refuse`; the tray imports it.
  const token = emulator.addToken('notes', 'hosted', 'full');
  await writeToolsConfig(dirs.home, [
    { name: 'notes', nickname: 'Notes', token, accessLevel: 'full', whenNobodyCanAsk: 'refuse' },
  ]);
  ({ core } = startCore(dirs));
  await core.handlers['import:run'](undefined);
  // From here only the tray decides: the file (which the child never reads) says the opposite.
  await writeToolsConfig(dirs.home, [
    { name: 'notes', nickname: 'Notes', token, accessLevel: 'full', whenNobodyCanAsk: 'proceed' },
  ]);
  client = await connectThroughLauncher(dirs, 'plain-client');
  jsonOf(await call('select_graph', {}));
});

afterAll(async () => {
  await client?.close();
  await core?.close();
  await emulator?.close();
  await dirs?.cleanup();
});

describe('when no one can be asked, through the tray and its --mcp child', () => {
  it('imported as `refuse`: the tray shows it, and the child refuses a large delete, deleting nothing', async () => {
    expect(await viewed()).toBe('refuse');
    expect(await storedGraph()).toMatchObject({ whenNobodyCanAsk: 'refuse' });
    expectRefused(await call('delete_page', { uid: 'page00000' }), 'Page 0');
    expect(pageExists('page00000')).toBe(true);
  });

  it('set to go ahead in the tray: the same delete goes through (the undo is there)', async () => {
    await choose('proceed');
    expect(await viewed()).toBe('proceed');
    // Absent is `proceed`: the store keeps only a refusal.
    expect(await storedGraph()).not.toHaveProperty('whenNobodyCanAsk');
    expect(jsonOf(await call('delete_page', { uid: 'page00000' }))).toBeTruthy();
    expect(pageExists('page00000')).toBe(false);
  });

  it('set to refuse again: the running child refuses, deleting nothing', async () => {
    await choose('refuse');
    expectRefused(await call('delete_page', { uid: 'page10000' }), 'Page 1');
    expect(pageExists('page10000')).toBe(true);
  });

  it('back to go ahead: it goes ahead', async () => {
    await choose('proceed');
    expect(jsonOf(await call('delete_page', { uid: 'page10000' }))).toBeTruthy();
    expect(pageExists('page10000')).toBe(false);
  });

  it('refuses a value it does not know, saying which, and changes nothing', async () => {
    const before = await readFile(path.join(dirs.storeDir, STORE_FILE), 'utf8');
    await expect(
      core.handlers['graphs:update']({ id: ID, whenNobodyCanAsk: 'ask' as 'refuse' }),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringMatching(/whenNobodyCanAsk/) });
    expect(await readFile(path.join(dirs.storeDir, STORE_FILE), 'utf8')).toBe(before);
  });
});

describe('stores written before the setting, and stores that are not ours', () => {
  it('an old store loads as `proceed`; one with a value we do not know is left as it is', async () => {
    const file = path.join(dirs.storeDir, STORE_FILE);
    const old = JSON.parse(await readFile(file, 'utf8')) as { graphs: Array<Record<string, unknown>> };
    delete old.graphs[0]!.whenNobodyCanAsk;
    await writeFile(file, JSON.stringify(old));
    expect(await viewed()).toBe('proceed');

    old.graphs[0]!.whenNobodyCanAsk = 'sometimes';
    const foreign = JSON.stringify(old);
    await writeFile(file, foreign);
    await expect(core.handlers['graphs:list'](undefined)).rejects.toThrow(/unexpected shape.*Move it aside/);
    await expect(core.handlers['graphs:update']({ id: ID, whenNobodyCanAsk: 'refuse' })).rejects.toThrow(
      /unexpected shape/,
    );
    expect(await readFile(file, 'utf8')).toBe(foreign);
  });
});
