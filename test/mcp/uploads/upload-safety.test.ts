/**
 * What file_upload may read, through the built bin over stdio against the emulator:
 * - by URL, nothing on this machine or its network: a "victim" HTTP server listening on every
 *   local address must never see a connection, whatever spelling of a local address the agent
 *   uses, and the Local API's own port is refused too;
 * - by path, only files in the folders the user allowed (`--upload-folder`, repeatable), never the
 *   secrets people keep in their home or our own files, whatever XDG variables the process has;
 *   under the tray, the folders and the tray's store folder arrive over IPC.
 * Nothing refused ever reaches Roam (no file.upload request).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  ResourceListChangedNotificationSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChildMessage, ParentMessage } from '../../../src-shared/child-ipc.ts';
import type { Emulator } from '../../emulator/index.ts';
import { ChildStdioTransport } from '../../harness/child-transport.ts';
import { binCommand, binEnv, errorOf, jsonOf, newToken, type McpHandle } from '../../harness/mcp-bin.ts';
import { startStdioWorld, type StdioWorld } from '../../harness/stdio-world.ts';

const TOKEN = newToken();
const SECRET = 'ghp_not-a-real-github-token';
let world: StdioWorld;
let home: string;
let emulator: Emulator;
let mcp: McpHandle;
let victim: { server: http.Server; port: number; connections: number };

const uploads = () => emulator.requests.filter((r) => r.action === 'file.upload').length;

async function put(relative: string, text: string): Promise<string> {
  const file = path.join(home, relative);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
  return file;
}

beforeAll(async () => {
  const server = http.createServer((_req, res) => res.end(SECRET));
  victim = { server, port: 0, connections: 0 };
  server.on('connection', () => victim.connections++);
  server.listen(0, '::');
  await once(server, 'listening');
  victim.port = (server.address() as AddressInfo).port;
  world = await startStdioWorld({
    emulator: { graphs: [{ name: 'main', tokens: [{ token: TOKEN, accessLevel: 'full' }] }] },
    config: [{ name: 'main', token: TOKEN, accessLevel: 'full' }],
    prepare: async (dir) => {
      home = dir;
      for (const secret of [
        '.ssh/id_ed25519',
        '.aws/credentials',
        '.config/Claude/claude_desktop_config.json',
        '.config/Roam Companion/config.json',
        '.config/Roam Companion/preview-secret.key',
        'Library/Application Support/Roam Companion/config.json',
        'Library/Application Support/roam-companion/journal/changes.jsonl',
        'cfg/Roam Companion/preview-secret.key',
        'Pictures/.env',
      ])
        await put(secret, SECRET);
      await put('Pictures/holiday.txt', 'sunny');
      await put('Documents/report.txt', 'quarterly');
      await put('Private/diary.txt', 'dear diary');
    },
    mcp: (dir) => ({
      args: [
        '--upload-folder',
        '~/Pictures',
        `--upload-folder=${path.join(dir, 'Documents')}`,
        '--upload-folder',
        dir,
      ],
      // The tray's store somewhere the defaults do not know, named only by this variable.
      env: { XDG_CONFIG_HOME: path.join(dir, 'cfg') },
    }),
    orient: ['main'],
  });
  ({ emulator, mcp } = world);
});

afterAll(async () => {
  await world?.close();
  victim?.server.closeAllConnections();
  victim?.server.close();
});

describe('file_upload by URL never reaches this machine or its network', () => {
  it.each([
    'http://127.0.0.1:PORT/',
    'http://0.0.0.0:PORT/',
    'http://2130706433:PORT/',
    'http://0x7f000001:PORT/',
    'http://0177.0.0.1:PORT/',
    'http://127.1:PORT/',
    'http://[::1]:PORT/',
    'http://[::ffff:127.0.0.1]:PORT/',
    'http://[::ffff:7f00:1]:PORT/',
    'http://localhost:PORT/',
    'https://127.0.0.1:PORT/',
    'http://169.254.169.254/latest/meta-data/',
    'http://[fd00:ec2::254]/latest/meta-data/',
    'http://10.0.0.1/',
    'http://192.168.1.1/',
    'http://100.64.0.1/',
  ])('%s is refused', async (template) => {
    const before = uploads();
    const error = errorOf(
      await mcp.call('file_upload', { graph: 'main', url: template.replace('PORT', String(victim.port)) }),
    );
    expect(error).toMatchObject({ code: 'INVALID_PARAMS', field: 'url' });
    expect(error.message).toMatch(/not on the public internet/);
    expect(victim.connections).toBe(0);
    expect(uploads()).toBe(before);
  });

  it("the Local API's own port is refused", async () => {
    const error = errorOf(
      await mcp.call('file_upload', { graph: 'main', url: `${emulator.url}/api/graphs/open` }),
    );
    expect(error.message).toMatch(/not on the public internet/);
    expect(emulator.requests.some((r) => r.path?.includes('/api/graphs/open'))).toBe(false);
  });
});

describe('file_upload by path reads only the folders the user allowed', () => {
  it('reads a file in an allowed folder and reads it back', async () => {
    for (const [file, text] of [
      ['~/Pictures/holiday.txt', 'sunny'],
      [path.join(home, 'Documents', 'report.txt'), 'quarterly'],
      ['~/Private/diary.txt', 'dear diary'],
    ]) {
      const { url } = jsonOf<{ url: string }>(
        await mcp.call('file_upload', { graph: 'main', filePath: file }),
      );
      expect(jsonOf(await mcp.call('file_get', { graph: 'main', url }))).toMatchObject({ text });
    }
  });

  it('refuses secrets, dot-files and our own files with the answer a missing file gets', async () => {
    const missing = errorOf(
      await mcp.call('file_upload', { graph: 'main', filePath: '~/Pictures/missing.png' }),
    );
    const shape = (message: string, given: string) => message.replace(given, '<path>');
    const before = uploads();
    for (const given of [
      '~/.ssh/id_ed25519',
      '~/.aws/credentials',
      '~/.config/Claude/claude_desktop_config.json',
      '~/.config/Roam Companion/config.json',
      '~/.config/Roam Companion/preview-secret.key',
      '~/Library/Application Support/Roam Companion/config.json',
      '~/Library/Application Support/roam-companion/journal/changes.jsonl',
      '~/cfg/Roam Companion/preview-secret.key',
      '~/.roam-tools.json',
      '~/Pictures/.env',
      '/etc/passwd',
    ]) {
      const error = errorOf(await mcp.call('file_upload', { graph: 'main', filePath: given }));
      expect(error.code, given).toBe('INVALID_PARAMS');
      expect(shape(error.message, given), given).toBe(shape(missing.message, '~/Pictures/missing.png'));
    }
    expect(uploads()).toBe(before);
    expect(mcp.transcript()).not.toContain(SECRET);
  });
});

describe('under the tray, the folders and the store folder come over IPC', () => {
  let child: ChildProcess;
  let client: Client;
  const applied: Array<() => void> = [];
  const graph = {
    name: 'main',
    type: 'hosted' as const,
    nickname: 'Main',
    token: TOKEN,
    accessLevel: 'full' as const,
  };
  /** Sends a config and waits until the child applied it (it announces resources/list_changed). */
  const configure = async (message: ParentMessage) => {
    const done = new Promise<void>((resolve) => applied.push(resolve));
    child.send(message);
    await done;
  };
  const call = async (args: Record<string, unknown>) =>
    (await client.callTool({ name: 'file_upload', arguments: { graph: 'Main', ...args } })) as CallToolResult;

  beforeAll(async () => {
    child = spawn(...binCommand(), {
      env: binEnv(home, { ROAM_MCP_CONFIG_FROM_PARENT: '1' }),
      stdio: ['pipe', 'pipe', 'inherit', 'ipc'],
    });
    await new Promise<void>((resolve) =>
      child.on('message', (m: ChildMessage) => m.type === 'ready' && resolve()),
    );
    // The child serves once its first config arrived.
    child.send({ type: 'config', graphs: [graph] } satisfies ParentMessage);
    client = new Client({ name: 'ipc-uploads', version: '1' });
    client.setNotificationHandler(ResourceListChangedNotificationSchema, async () => {
      for (const resolve of applied.splice(0)) resolve();
    });
    await client.connect(new ChildStdioTransport(child));
  });
  afterAll(async () => {
    await client?.close().catch(() => {});
    if (child && child.exitCode === null) child.kill();
  });

  it('reads nothing local until the tray names a folder, then that folder minus the store', async () => {
    const graph = {
      name: 'main',
      type: 'hosted' as const,
      nickname: 'Main',
      token: TOKEN,
      accessLevel: 'full' as const,
    };
    await configure({ type: 'config', graphs: [graph] });
    await client.callTool({ name: 'select_graph', arguments: { graph: 'Main' } });
    expect(errorOf(await call({ filePath: '~/Private/diary.txt' })).code).toBe('UPLOAD_FOLDER_NOT_SET');

    const store = path.join(home, 'store-elsewhere');
    await put('store-elsewhere/config.json', SECRET);
    await configure({ type: 'config', graphs: [graph], uploadFolders: [home], protectedPaths: [store] });
    expect((await call({ filePath: '~/Private/diary.txt' })).isError).toBeFalsy();
    expect(errorOf(await call({ filePath: '~/store-elsewhere/config.json' })).message).toMatch(
      /cannot be uploaded/,
    );
  });
});
