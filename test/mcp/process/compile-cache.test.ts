/**
 * The bin's entry turns Node's compile cache on (src-mcp/server/compile-cache.ts) and then loads its
 * chunks, or the one-file build when there is no cache (scripts/build.mjs): through the built bin,
 * it answers both protocol eras with the cache folder fresh, already filled, impossible to write
 * (NODE_COMPILE_CACHE or our data folder), or switched off, and the answers do not depend on it. On a Node that has the cache (22.1+), the
 * folder is filled once the tools have loaded, without a clean exit (clients often end the server
 * with a signal). The node22 test pass runs every case on a Node with the cache.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ltsNodePath, ltsNodeSupported } from '../../../scripts/lts-node.mjs';
import { binCommand, binEnv, newToken, removeHome, tempHome } from '../../harness/mcp-bin.ts';
import { SERVER_NODE } from '../../server-node.ts';

type Message = { id?: number; result?: Record<string, unknown>; error?: { code: number } };

const envelope = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'cache-test', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** Each era's opening request and its tools/list. */
const ERAS = {
  initialize: {
    open: {
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
    },
    list: {},
  },
  discover: { open: { method: 'server/discover', params: { _meta: envelope } }, list: { _meta: envelope } },
} as const;

let home: string;
beforeAll(async () => {
  home = await tempHome('roam-compile-cache-');
});
afterAll(() => removeHome(home));

/** Opens the bin on `node` with `env`, sends the era's opening and tools/list, returns both answers. */
async function openAndList(node: string, era: keyof typeof ERAS, env: Record<string, string>) {
  const [, args] = binCommand();
  const child = spawn(node, args, {
    env: binEnv(home, { ROAM_GRAPH: 'cached', ROAM_API_TOKEN: newToken(), ...env }),
  });
  const answers = new Map<number, (line: string) => void>();
  createInterface({ input: child.stdout }).on('line', (line) => {
    const message = JSON.parse(line) as Message;
    if (message.id !== undefined) answers.get(message.id)?.(line);
  });
  const send = (id: number, method: string, params: object) =>
    new Promise<string>((resolve) => {
      answers.set(id, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  try {
    const opened = JSON.parse(await send(1, ERAS[era].open.method, ERAS[era].open.params)) as Message;
    if (era === 'initialize') child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    const list = await send(2, 'tools/list', ERAS[era].list);
    return { opened, list };
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}

/** A Node with module.enableCompileCache: the one under test, else the npm-shipped 22 if present. */
function nodeWithCache(): string | undefined {
  const has = (node: string) =>
    spawnSync(node, ['-p', 'typeof require("node:module").flushCompileCache'], {
      encoding: 'utf8',
    }).stdout.trim() === 'function';
  if (has(SERVER_NODE)) return SERVER_NODE;
  const node22 = ltsNodeSupported ? ltsNodePath('node22') : '';
  return node22 && existsSync(node22) && has(node22) ? node22 : undefined;
}

describe.each(['initialize', 'discover'] as const)('the %s era', (era) => {
  it('answers the same with the cache folder unwritable, fresh, and filled', async () => {
    // A path under a regular file cannot be created, even by root.
    const blocker = path.join(home, `not-a-folder-${era}`);
    await writeFile(blocker, '');
    const unwritable = await openAndList(SERVER_NODE, era, {
      NODE_COMPILE_CACHE: path.join(blocker, 'cache'),
    });
    const noDataFolder = await openAndList(SERVER_NODE, era, {
      ROAM_COMPANION_DATA_DIR: path.join(blocker, 'data'),
    });
    const folder = path.join(home, `cache-${era}`);
    const fresh = await openAndList(SERVER_NODE, era, { NODE_COMPILE_CACHE: folder });
    const filled = await openAndList(SERVER_NODE, era, { NODE_COMPILE_CACHE: folder });
    const disabled = await openAndList(SERVER_NODE, era, { NODE_DISABLE_COMPILE_CACHE: '1' });

    expect(unwritable.opened.result).toBeDefined();
    expect(unwritable.opened.result).toMatchObject(
      era === 'initialize' ? { protocolVersion: '2025-06-18' } : { supportedVersions: ['2026-07-28'] },
    );
    for (const run of [noDataFolder, fresh, filled, disabled]) {
      expect(run.opened).toEqual(unwritable.opened);
      expect(run.list).toBe(unwritable.list);
    }
  });
});

describe('on a Node with the compile cache', () => {
  const node = nodeWithCache();
  it.skipIf(!node)('fills the cache folder once the tools have loaded, and starts from it', async () => {
    const folder = path.join(home, 'cache-written');
    const first = await openAndList(node!, 'initialize', { NODE_COMPILE_CACHE: folder });
    // The bin was ended with SIGTERM, not a clean exit: the entries were written when the tools loaded.
    const [versionFolder] = await readdir(folder);
    expect(versionFolder).toBeDefined();
    const entries = await readdir(path.join(folder, versionFolder!));
    expect(entries.length).toBeGreaterThan(3);
    const second = await openAndList(node!, 'initialize', { NODE_COMPILE_CACHE: folder });
    expect(second.list).toBe(first.list);
    expect(await readdir(path.join(folder, versionFolder!))).toEqual(expect.arrayContaining(entries));
  });

  it.skipIf(!node)(
    'keeps the cache in our data folder (0700) when NODE_COMPILE_CACHE is not set',
    async () => {
      const data = path.join(home, 'data-folder');
      const first = await openAndList(node!, 'discover', { ROAM_COMPANION_DATA_DIR: data });
      expect((await stat(data)).mode & 0o777).toBe(0o700);
      const [versionFolder] = await readdir(path.join(data, 'compile-cache'));
      expect(versionFolder).toBeDefined();
      expect((await readdir(path.join(data, 'compile-cache', versionFolder!))).length).toBeGreaterThan(3);
      const second = await openAndList(node!, 'discover', { ROAM_COMPANION_DATA_DIR: data });
      expect(second.list).toBe(first.list);
    },
  );
});
