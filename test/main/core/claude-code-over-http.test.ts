// Claude Code over the tray's HTTP server, through the real core, the real `roam-mcp serve --http`
// child and real files: its row shows the `claude mcp add-json` command, which names only the
// file its key waits in (headersHelper); the copy makes Claude Code's key in main (the old one
// stops working), writes it into that file (0600) and the command to the clipboard main was
// given, and answers the renderer without the key. No key in the command, the clipboard or the
// renderer. Nothing else is faked.
import { readFile, stat, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TrayCore } from '../../../src-main/core/tray-core.ts';
import { KeyStore, KeyVerifier, keysFile } from '../../../src-mcp/data-folder/key-store.ts';
import type { ClientView } from '../../../src-shared/ipc-contract.ts';
import { servingUrl, startCore, tempDirs } from '../helpers.ts';

const KEY = /roam-mcp-key-[A-Za-z0-9_-]{20,}/;
const REMOVE_COMMAND = 'claude mcp remove --scope user roam-companion';

let dirs: Awaited<ReturnType<typeof tempDirs>>;
let core: TrayCore;
let events: Array<{ event: string; payload: unknown }>;
let dataDir: string;
let url: string;
/** What main wrote to the clipboard, in order. */
const clipboard: string[] = [];
/** Every answer the renderer got, to search for keys. */
const answers: unknown[] = [];

beforeAll(async () => {
  dirs = await tempDirs();
  dataDir = path.join(dirs.home, 'data');
  ({ core, events } = startCore(dirs, {
    httpHub: { port: 0 },
    dataDir,
    env: {},
    writeClipboard: (text) => void clipboard.push(text),
  }));
  // The store file the server's child waits for.
  await core.handlers['settings:set']({ confirm: 'never' });
  url = await servingUrl(core);
}, 30_000);

afterAll(async () => {
  await core?.close();
  await dirs?.cleanup();
});

async function claudeCodeRow(): Promise<ClientView> {
  const list = await core.handlers['clients:list'](undefined);
  answers.push(list);
  return list.find((c) => c.id === 'claude-code')!;
}

const headersFile = () => path.join(dataDir, 'claude-code-headers.json');

/** Copies the command; answers it and the key the copy wrote into the headers file. */
async function copy(): Promise<{ command: string; key: string }> {
  const copied = clipboard.length;
  const answer = await core.handlers['clients:copy-command']({ id: 'claude-code' });
  answers.push(answer);
  expect(answer).toEqual({ copied: true, keyName: 'claude-code' });
  expect(clipboard).toHaveLength(copied + 1);
  const command = clipboard.at(-1)!;
  expect(command).not.toMatch(KEY);
  expect((await stat(headersFile())).mode & 0o077).toBe(0);
  return { command, key: keyInFile(await readFile(headersFile(), 'utf8')) };
}

const keyInFile = (text: string) => KEY.exec(text)![0];
const sha256 = (key: string) => createHash('sha256').update(key).digest('hex');

async function connect(key: string): Promise<Client> {
  const client = new Client({ name: 'claude-code', version: '0.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    }),
  );
  return client;
}

it('shows the command naming the headers file, and each copy puts a new working key into that file only', async () => {
  const row = await claudeCodeRow();
  const helper = `cat '${headersFile()}'`;
  const masked = `claude mcp add-json --scope user roam-companion '${JSON.stringify({ type: 'http', url, headersHelper: helper }).replace(/'/g, `'\\''`)}'`;
  expect(row).toMatchObject({ command: masked, commandKey: 'claude-code', state: 'unavailable' });

  const first = await copy();
  expect(first.command).toBe(masked);
  const firstKey = first.key;
  const keys = await readFile(keysFile({ dir: dataDir }), 'utf8');
  expect(keys).toContain(sha256(firstKey));
  expect(keys).not.toContain(firstKey);
  const chat = await connect(firstKey);
  expect((await chat.listTools()).tools.length).toBeGreaterThan(0);

  // A new copy replaces the key: only hashes are kept, so the old one cannot be shown again.
  const secondKey = (await copy()).key;
  expect(secondKey).not.toBe(firstKey);
  const verifier = new KeyVerifier(keysFile({ dir: dataDir }));
  expect(await verifier.verify(firstKey)).toBeUndefined();
  expect((await verifier.verify(secondKey))?.name).toBe('claude-code');
  await expect(chat.listTools()).rejects.toThrow(/401|not valid/);
  await chat.close().catch(() => {});
  expect((await core.handlers['keys:list'](undefined)).map((k) => k.name)).toEqual(['claude-code']);

  // The command, its state and its remove command read as before.
  expect(await claudeCodeRow()).toMatchObject({ command: masked, commandKey: 'claude-code' });
  const removed = await core.handlers['clients:uninstall']({ id: 'claude-code' });
  answers.push(removed);
  expect(removed.client.command).toBe(REMOVE_COMMAND);
  expect(await new KeyVerifier(keysFile({ dir: dataDir })).verify(secondKey)).toBeUndefined();

  expect(JSON.stringify(answers)).not.toMatch(KEY);
  expect(JSON.stringify(events)).not.toMatch(KEY);
}, 30_000);

it('an http entry at this server counts as installed while its key works; revoked, replaced, elsewhere or over stdio it needs an update', async () => {
  const config = path.join(dirs.home, '.claude.json');
  const entry = (fields: Record<string, unknown>) =>
    writeFile(config, JSON.stringify({ mcpServers: { 'roam-companion': fields }, other: 1 }));
  const header = { Authorization: 'Bearer roam-mcp-key-someOldKeyTheTrayNeverSawXYZ123' };

  await entry({ type: 'http', url, headers: header });
  // A key the server does not have: refused, so not installed.
  expect(await claudeCodeRow()).toMatchObject({
    state: 'stale',
    transport: 'http',
    message: `Its key was revoked or replaced by a newer one, so Claude Code is refused: run ${REMOVE_COMMAND}, then copy the command below and run it.`,
  });
  const copied = (await copy()).key;
  // The old key in its entry still does not work: the server refuses it, so it is not installed.
  expect(await claudeCodeRow()).toMatchObject({ state: 'stale', transport: 'http' });
  // Claude Code ran the new command: its entry holds the new key.
  await entry({ type: 'http', url, headers: { Authorization: `Bearer ${copied}` } });
  const installed = await claudeCodeRow();
  expect(installed.transport).toBe('http');
  expect(installed.state).toBe('installed');
  expect(installed.message).toBe(
    `Connected for all your projects over HTTP. To disconnect, run: ${REMOVE_COMMAND}`,
  );

  await entry({ type: 'http', url: 'http://127.0.0.1:1/mcp', headers: header });
  expect(await claudeCodeRow()).toMatchObject({ state: 'stale', commandKey: 'claude-code' });
  await entry({ type: 'stdio', command: process.execPath, args: ['/somewhere/roam-mcp.mjs'] });
  const stdio = await claudeCodeRow();
  expect(stdio.state).toBe('stale');
  expect(stdio.message).toContain(`First run: ${REMOVE_COMMAND}, then this command.`);
  await entry({});
  expect(JSON.stringify(answers)).not.toMatch(KEY);
});

it('copies at once (a double click) all answer, and the key left in the headers file is the one that works', async () => {
  const copied = clipboard.length;
  const copyNow = () => core.handlers['clients:copy-command']({ id: 'claude-code' });
  const results = await Promise.all(Array.from({ length: 5 }, copyNow));
  expect(results).toEqual(Array(5).fill({ copied: true, keyName: 'claude-code' }));
  expect(clipboard.slice(copied)).toHaveLength(5);
  const key = keyInFile(await readFile(headersFile(), 'utf8'));
  expect(await new KeyVerifier(keysFile({ dir: dataDir })).verify(key)).toMatchObject({
    name: 'claude-code',
  });
  expect((await core.handlers['keys:list'](undefined)).map((k) => k.name)).toEqual(['claude-code']);
});

/** A second tray on folders of its own (its server must not take over the first one's URL file). */
async function otherTray(extra: Parameters<typeof startCore>[1]) {
  const other = await tempDirs();
  const otherData = path.join(other.home, 'data');
  const { key } = await new KeyStore({ dir: otherData }).create('claude-code');
  const { core: tray } = startCore(other, { dataDir: otherData, env: {}, ...extra });
  const file = keysFile({ dir: otherData });
  return {
    tray,
    key,
    keysNow: () => readFile(file, 'utf8'),
    keyWorks: async () => (await new KeyVerifier(file).verify(key)) !== undefined,
    async close() {
      await tray.close();
      await other.cleanup();
    },
  };
}

it('a clipboard that fails says so, and that the new key was made all the same', async () => {
  const failing = await otherTray({
    httpHub: { port: 0 },
    writeClipboard: () => {
      throw new Error('clipboard is busy');
    },
  });
  const failure = await failing.tray.handlers['clients:copy-command']({ id: 'claude-code' }).catch(
    (e: Error) => e,
  );
  expect(failure).toMatchObject({
    message: expect.stringMatching(
      /Could not write the clipboard.*new key was made all the same.*Copy again/,
    ),
  });
  expect(await failing.keyWorks()).toBe(false);
  expect(JSON.stringify(failure) + String(failure)).not.toMatch(KEY);
  await failing.close();
});

it.each([
  ['without a clipboard in main (the demo’s preview)', { hub: true, clipboard: false }],
  ['without the HTTP server', { hub: false, clipboard: true }],
])('%s Claude Code keeps its stdio command, and a copy request makes nothing', async (_, has) => {
  const written: string[] = [];
  const stdio = await otherTray({
    ...(has.hub ? { httpHub: { port: 0 } } : {}),
    ...(has.clipboard ? { writeClipboard: (text: string) => void written.push(text) } : {}),
  });
  const keys = await stdio.keysNow();
  const row = (await stdio.tray.handlers['clients:list'](undefined)).find((c) => c.id === 'claude-code')!;
  expect(row.command).toMatch(/^claude mcp add --scope user roam-companion -- /);
  expect(row.message).toBe(
    'Claude Code was not found on this computer. Install it, then run this command in a terminal.',
  );
  expect(row.commandKey).toBeUndefined();
  await expect(stdio.tray.handlers['clients:copy-command']({ id: 'claude-code' })).rejects.toMatchObject({
    code: 'UNAVAILABLE',
    message: expect.stringMatching(/connects over stdio here.*Nothing was changed/),
  });
  expect(written).toEqual([]);
  expect(await stdio.keysNow()).toBe(keys);
  expect(await stdio.keyWorks()).toBe(true);
  await stdio.close();
});

it('only Claude Code’s command is copied this way', async () => {
  await expect(
    core.handlers['clients:copy-command']({ id: 'cursor' } as unknown as { id: 'claude-code' }),
  ).rejects.toMatchObject({ code: 'INVALID_INPUT' });
});
