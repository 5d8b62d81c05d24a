/**
 * `npm run demo` as people run it, with the demo's own stdio entry (`dist/demo-mcp.mjs`, the twin
 * of `--mcp`): a client that can neither ask in its chat nor show apps deletes a page with content,
 * and nothing is deleted until the person answers in the demo's terminal, as `--mcp` asks in a
 * box. Keep leaves the page; Approve deletes it, and the change reaches the demo's Activity. The
 * `roam-mcp install` command the demo prints connects a sandboxed client to the tray's HTTP
 * server: the tray calls it installed, and its changes reach Activity too.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { poll } from './poll.ts';

const root = path.resolve(import.meta.dirname, '../..');
const child = spawn(process.execPath, [path.join(root, 'dist', 'demo.mjs')], { stdio: 'pipe' });
let output = '';
child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
let agent: Client | undefined;

afterAll(async () => {
  await agent?.close();
  if (child.exitCode === null) {
    child.kill('SIGINT');
    await once(child, 'exit');
  }
});

async function waitForOutput(marker: RegExp): Promise<RegExpExecArray> {
  for (;;) {
    const found = marker.exec(output);
    if (found) return found;
    const exited = once(child, 'exit').then(() => 'exit' as const);
    const data = Promise.race([once(child.stdout, 'data'), once(child.stderr, 'data')]);
    if ((await Promise.race([exited, data])) === 'exit' && !marker.test(output))
      throw new Error(`the demo exited before printing ${marker}:\n${output}`);
  }
}

let ui: string;
let key: string;
let home: string;
const ipc = (channel: string, input?: unknown) =>
  fetch(`${ui}ipc/${channel}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    ...(input === undefined ? {} : { body: JSON.stringify(input) }),
  }).then(async (r) => (await r.json()) as unknown);
const text = (result: CallToolResult) =>
  result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');

beforeAll(async () => {
  await waitForOutput(/Ctrl-C stops the demo/);
  [, ui, key] = /Tray UI \(browser preview\): (http:\/\/127\.0\.0\.1:\d+\/)#key=([\w-]{43})\n/.exec(
    output,
  ) as unknown as [string, string, string];
  home = /Temporary HOME:\s+(\S+)/.exec(output)![1]!;
  await ipc('import:run');
  await ipc('graphs:update', { id: 'hosted:demo-work', accessLevel: 'full' });
  await waitForOutput(/MCP over HTTP at http/);
}, 60_000);

describe('npm run demo: its stdio entry asks before a page with content goes', () => {
  it('waits for y or k in the demo terminal; k keeps the page, y deletes it and Activity shows it', async () => {
    expect(output).toContain('type y N to');
    agent = new Client({ name: 'Plain Client', version: '1.0.0' });
    await agent.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [path.join(root, 'dist', 'demo-mcp.mjs'), '--home', home],
      }),
    );
    const call = async (name: string, args: Record<string, unknown> = {}) =>
      (await agent!.callTool({ name, arguments: { graph: 'Work', ...args } })) as CallToolResult;
    const pageGone = async () => {
      const found = await call('get_page', { uid: 'alan-pg' });
      return found.isError === true && /not found|no page|NOT_FOUND/i.test(text(found));
    };
    await call('select_graph');

    const first = await call('delete_page', { uid: 'alan-pg' });
    expect(text(first)).toMatch(
      /^Waiting for the person, nothing changed yet: .* They answer in Roam Companion/,
    );
    const [, asked] = await waitForOutput(/\[(\d+)\] A change waits for your answer: (.*)\n/);
    expect(output).toContain("Page deleted: 'Alan Turing'");
    expect(output).toContain(`Type y ${asked} to approve it, or k ${asked} to keep things as they are`);
    expect(await pageGone()).toBe(false);

    child.stdin.write(`k ${asked}\n`);
    await waitForOutput(new RegExp(`\\[${asked}\\] (?!A change|Keeping)[^\\n]+\\n`));
    expect(await pageGone()).toBe(false);

    expect(text(await call('delete_page', { uid: 'alan-pg' }))).toMatch(/^Waiting for the person/);
    const [, second] = await waitForOutput(
      new RegExp(`\\[(?!${asked}\\])(\\d+)\\] A change waits for your answer`),
    );
    child.stdin.write(`y ${second}\n`);
    await poll(pageGone, 15_000, 100).toBe(true);
    // Journaled in the demo's data folder: the tray's Activity lists the deletion.
    await poll(async () => JSON.stringify(await ipc('activity:list')), 15_000, 100).toContain('Alan Turing');
  });

  it('the install command it prints connects a sandboxed client to the tray: installed there, its changes in Activity', async () => {
    const [, dataDir, cliHome, bin] =
      /^ {2}ROAM_COMPANION_DATA_DIR=(\S+) HOME=(\S+) node (\S+) install cursor$/m.exec(output)!;
    expect(cliHome).toBe(home);
    const install = spawn(process.execPath, [bin!, 'install', 'cursor'], {
      env: { PATH: process.env.PATH, HOME: cliHome, ROAM_COMPANION_DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let said = '';
    install.stderr.on('data', (chunk: Buffer) => (said += chunk.toString()));
    const [code] = await once(install, 'exit');
    expect(code, said).toBe(0);
    expect(said).toContain("Made a key for Cursor ('cursor' in roam-mcp key list)");
    // The tray sees the entry as its own: installed over HTTP, not "Needs update".
    const clients = (await ipc('clients:list')) as Array<{ id: string; state: string; transport?: string }>;
    expect(clients.find((c) => c.id === 'cursor')).toMatchObject({ state: 'installed', transport: 'http' });

    const entry = JSON.parse(await readFile(path.join(home, '.cursor', 'mcp.json'), 'utf8')).mcpServers[
      'roam-companion'
    ] as { url: string; headers: Record<string, string> };
    const cursor = new Client({ name: 'Cursor', version: '1.0.0' });
    await cursor.connect(
      new StreamableHTTPClientTransport(new URL(entry.url), { requestInit: { headers: entry.headers } }),
    );
    try {
      await cursor.callTool({ name: 'select_graph', arguments: { graph: 'Work' } });
      const edited = (await cursor.callTool({
        name: 'update_block',
        arguments: { graph: 'Work', uid: 'hermes-ls', string: 'Edited by the CLI-installed Cursor' },
      })) as CallToolResult;
      expect(edited.isError, text(edited)).toBeFalsy();
    } finally {
      await cursor.close();
    }
    await poll(async () => JSON.stringify(await ipc('activity:list')), 15_000, 100).toContain(
      'Edited by the CLI-installed Cursor',
    );
  });

  it('the same waiting change is in the tray UI’s approvals panel too, and Approve there applies it', async () => {
    const call = async (name: string, args: Record<string, unknown> = {}) =>
      (await agent!.callTool({ name, arguments: { graph: 'Work', ...args } })) as CallToolResult;
    expect(text(await call('delete_page', { uid: 'compan-pg' }))).toMatch(/^Waiting for the person/);
    const waitingHere = async () =>
      ((await ipc('proposals:list')) as Array<{ id: string; question: string }>).find((p) =>
        p.question.includes("'Roam Companion'"),
      );
    await poll(waitingHere, 15_000, 100).toBeDefined();
    const shown = (await waitingHere())!;
    const answered = (await ipc('proposals:answer', { id: shown.id, answer: 'approve' })) as {
      done: boolean;
    };
    expect(answered.done).toBe(true);
    const found = await call('get_page', { uid: 'compan-pg' });
    expect(found.isError).toBe(true);
    // Answered once: the terminal no longer offers it, and the panel is empty again.
    await poll(async () => (await ipc('proposals:list')) as unknown[], 15_000, 100).toEqual([]);
  });
});
