import { spawn } from 'node:child_process';
import { readFile, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { requests, type RequestChannel } from '../../../src-shared/ipc-contract.ts';
import { createFileKeySecretBox } from '../../../src-main/core/store/file-key-secret-box.ts';
import type { TrayCore } from '../../../src-main/core/tray-core.ts';
import { TOKEN_PATTERN, repoRoot, startCore, tempDirs } from '../helpers.ts';
import { fixtureScript } from '../../harness/fixture-bundles.ts';
import { LOCK_FILE, STORE_FILE } from '../../../src-main/core/store/store-file.ts';
import { STALE_MS } from '../../../src-shared/node/file-lock.ts';
import { toolsConfigPath, writeToolsConfig } from '../../harness/mcp-bin.ts';

let dirs: Awaited<ReturnType<typeof tempDirs>>;
let core: TrayCore;

beforeEach(async () => {
  dirs = await tempDirs();
  ({ core } = startCore(dirs));
});
afterEach(async () => {
  await core.close();
  await dirs.cleanup();
});

const list = () => core.handlers['graphs:list'](undefined);

describe('graph management', () => {
  it('has a handler for every channel of the contract', () => {
    expect(Object.keys(core.handlers).sort()).toEqual(Object.keys(requests).sort());
  });

  it('adds, renames, changes access, disables and removes graphs', async () => {
    const added = await core.handlers['graphs:add']({
      name: 'jfb-work',
      nickname: 'Work',
      description: 'job',
    });
    expect(added).toMatchObject({
      id: 'hosted:jfb-work',
      nickname: 'Work',
      accessLevel: 'read-append',
      enabled: true,
      token: { state: 'missing' },
    });
    await core.handlers['graphs:update']({
      id: added.id,
      nickname: 'Office',
      accessLevel: 'full',
      enabled: false,
    });
    expect((await list())[0]).toMatchObject({ nickname: 'Office', accessLevel: 'full', enabled: false });
    await core.handlers['graphs:remove']({ id: added.id });
    expect(await list()).toEqual([]);
  });

  it('refuses a nickname clash (case-insensitive), naming both graphs, and keeps the store unchanged', async () => {
    await core.handlers['graphs:add']({ name: 'jfb-work', nickname: 'Work' });
    const before = await list();
    const clash = core.handlers['graphs:add']({ name: 'other', nickname: 'WORK' });
    await expect(clash).rejects.toMatchObject({ code: 'VALIDATION' });
    await expect(clash).rejects.toThrow(
      /'WORK'.*'other'.*clashes with 'Work'.*'jfb-work'.*different nickname/,
    );
    expect(await list()).toEqual(before);
    // A graph without nickname goes by its name.
    await expect(core.handlers['graphs:add']({ name: 'work' })).rejects.toThrow(/clashes/);
    // One line a person reads at once, naming the graph in the way.
    expect(await core.handlers['graphs:check-nickname']({ nickname: 'work' })).toEqual({
      ok: false,
      message:
        "'work' is already the nickname of graph 'jfb-work' (case and accents do not count). Choose another.",
    });
    expect(
      await core.handlers['graphs:check-nickname']({ nickname: 'work', exceptId: 'hosted:jfb-work' }),
    ).toEqual({
      ok: true,
    });
    expect(await core.handlers['graphs:check-nickname']({ nickname: 'Personal' })).toEqual({ ok: true });
  });

  it('compares nicknames and names as Unicode labels and refuses invisible or mixed-alphabet nicknames', async () => {
    await core.handlers['graphs:add']({ name: 'work2', nickname: 'Work' });
    const personal = await core.handlers['graphs:add']({ name: 'personal', nickname: 'Home' });
    const before = await list();
    // Full-width letters and another graph's *name* are the same label.
    await expect(core.handlers['graphs:add']({ name: 'b', nickname: 'Ｗork' })).rejects.toThrow(
      /'Ｗork' \(graph 'b'\) clashes with 'Work', already the nickname of graph 'work2'/,
    );
    await expect(core.handlers['graphs:update']({ id: personal.id, nickname: 'WORK2' })).rejects.toThrow(
      /'WORK2' \(graph 'personal'\) clashes with 'work2', already the name of graph 'work2'/,
    );
    await expect(core.handlers['graphs:add']({ name: 'c', nickname: 'Wo\u200Brk' })).rejects.toThrow(
      /invisible or control character \(U\+200B\)/,
    );
    await expect(core.handlers['graphs:add']({ name: 'd', nickname: 'W\u043Erk' })).rejects.toThrow(
      /mixes Latin and Cyrillic/,
    );
    expect(await list()).toEqual(before);
    // The live check of the forms applies the same rule, with the graph's own name.
    expect(
      await core.handlers['graphs:check-nickname']({ nickname: 'work2', exceptId: personal.id }),
    ).toMatchObject({ ok: false, message: expect.stringContaining("already the name of graph 'work2'") });
    expect(await core.handlers['graphs:check-nickname']({ nickname: 'Notes', name: 'Ｗork' })).toMatchObject({
      ok: false,
      message: expect.stringContaining("graph 'work2'"),
    });
    expect(await core.handlers['graphs:check-nickname']({ nickname: 'Работа', name: 'job' })).toEqual({
      ok: true,
    });
  });

  it('a disabled graph keeps its nickname: re-enabling can never create a clash', async () => {
    const work = await core.handlers['graphs:add']({ name: 'a', nickname: 'Work' });
    await core.handlers['graphs:update']({ id: work.id, enabled: false });
    await expect(core.handlers['graphs:add']({ name: 'b', nickname: 'work' })).rejects.toThrow(/clashes/);
  });

  it('refuses an offline graph shadowed by the hosted one of the same name, and duplicates', async () => {
    await core.handlers['graphs:add']({ name: 'notes' });
    await expect(
      core.handlers['graphs:add']({ name: 'notes', type: 'offline', nickname: 'Local' }),
    ).rejects.toThrow(/both as hosted and as offline/);
    await expect(core.handlers['graphs:add']({ name: 'notes' })).rejects.toThrow(/already configured/);
  });

  it('rejects malformed input with INVALID_INPUT and says what is wrong', async () => {
    await expect(core.handlers['graphs:add']({ name: '   ' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/name: Graph name is required/),
    });
    await expect(core.handlers['graphs:update']({ id: 'hosted:nope', nickname: 'x' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(core.handlers['settings:set']({ defaultAccessLevel: 'admin' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
  });

  it('settings: default access level applies to new graphs; launch at login goes to the shell hook', async () => {
    const applied: boolean[] = [];
    await core.close();
    ({ core } = startCore(dirs, { setLaunchAtLogin: (on) => void applied.push(on) }));
    expect(await core.handlers['settings:get'](undefined)).toEqual({
      launchAtLogin: false,
      defaultAccessLevel: 'read-append',
      uploadFolders: [],
      confirm: 'destructive',
    });
    await core.handlers['settings:set']({ launchAtLogin: true, defaultAccessLevel: 'read-only' });
    expect(applied).toEqual([true]);
    expect((await core.handlers['graphs:add']({ name: 'g' })).accessLevel).toBe('read-only');
  });

  it('store file is 0600 and the preview key file too', async () => {
    await core.handlers['graphs:add']({ name: 'g' });
    expect((await stat(path.join(dirs.storeDir, STORE_FILE))).mode & 0o777).toBe(0o600);
    expect((await stat(path.join(dirs.storeDir, 'preview-secret.key'))).mode & 0o777).toBe(0o600);
  });
});

describe('import of ~/.roam-tools.json', () => {
  const tokenA = 'roam-graph-local-token-AAAAAAAAAAAAAAAAAAAAAAAAAAAA1';
  const tokenB = 'roam-graph-local-token-BBBBBBBBBBBBBBBBBBBBBBBBBBBB2';

  it('offers the file once, imports graphs with encrypted tokens, leaves the file alone', async () => {
    expect(await core.handlers['import:check'](undefined)).toMatchObject({ available: false });
    const file = toolsConfigPath(dirs.home);
    const source = JSON.stringify({
      graphs: [
        { name: 'jfb-work', token: tokenA, nickname: 'Work', description: 'job' },
        { name: 'zettel', type: 'offline', token: tokenB },
      ],
    });
    await writeFile(file, source);
    expect(await core.handlers['import:check'](undefined)).toEqual({
      available: true,
      path: file,
      graphCount: 2,
    });
    const graphs = await core.handlers['import:run'](undefined);
    expect(graphs.map((g) => [g.id, g.nickname, g.token])).toEqual([
      ['hosted:jfb-work', 'Work', { state: 'ok', last4: 'AAA1' }],
      ['offline:zettel', 'zettel', { state: 'ok', last4: 'BBB2' }],
    ]);
    const stored = await readFile(path.join(dirs.storeDir, STORE_FILE), 'utf8');
    expect(stored).not.toMatch(TOKEN_PATTERN);
    expect(await readFile(file, 'utf8')).toBe(source);
    expect(await core.handlers['import:check'](undefined)).toMatchObject({ available: false });
    // The ciphertext decrypts back to the token with the store's key.
    const box = createFileKeySecretBox(dirs.storeDir);
    const cipher = (JSON.parse(stored) as { graphs: Array<{ token: { cipher: string } }> }).graphs[0]!.token
      .cipher;
    expect(await box.decrypt(new Uint8Array(Buffer.from(cipher, 'base64')))).toBe(tokenA);
  });

  it('counts only the graphs the import would add, and offers nothing when all are here', async () => {
    await core.handlers['graphs:add']({ name: 'zettel', type: 'offline', nickname: 'Notes' });
    const file = toolsConfigPath(dirs.home);
    const graphs = [
      { name: 'jfb-work', token: tokenA },
      { name: 'zettel', type: 'offline', token: tokenB },
    ];
    await writeFile(file, JSON.stringify({ graphs }));
    expect(await core.handlers['import:check'](undefined)).toEqual({
      available: true,
      path: file,
      graphCount: 1,
    });
    await core.handlers['graphs:add']({ name: 'jfb-work' });
    expect(await core.handlers['import:check'](undefined)).toMatchObject({ available: false, graphCount: 0 });
  });

  it('imports nothing when the file would break a rule, and says why', async () => {
    await core.handlers['graphs:add']({ name: 'mine', nickname: 'Work' });
    await writeToolsConfig(dirs.home, {
      text: JSON.stringify({
        graphs: [
          { name: 'jfb-work', token: tokenA, nickname: 'work' },
          { name: 'x', token: tokenB },
        ],
      }),
    });
    await expect(core.handlers['import:run'](undefined)).rejects.toThrow(/Nothing was imported.*clashes/);
    expect((await list()).map((g) => g.id)).toEqual(['hosted:mine']);

    await writeToolsConfig(dirs.home, {
      text: JSON.stringify({ graphs: [{ name: 'r', token: 'roam-graph-token-remote123456' }] }),
    });
    const remote = core.handlers['import:run'](undefined);
    await expect(remote).rejects.toThrow(/remote API token/);
    await expect(remote).rejects.not.toThrow(/remote123456/);

    await writeToolsConfig(dirs.home, { text: '{ not json' });
    await expect(core.handlers['import:run'](undefined)).rejects.toThrow(/not valid JSON.*Fix the file/);
  });
});

/**
 * The killed writer usually held the store lock: aged past the stale time, it is broken at the next
 * writer's first try instead of after STALE_MS of real waiting (file-lock.test.ts proves the wait).
 */
async function ageLeftLock(): Promise<void> {
  const old = new Date(Date.now() - STALE_MS - 1_000);
  await utimes(path.join(dirs.storeDir, LOCK_FILE), old, old).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
}

describe('crash safety of store writes', () => {
  it('a writer killed mid-flight leaves a complete old or new file, never a torn one', async () => {
    for (let round = 0; round < 3; round++) {
      const writer = spawn(process.execPath, [fixtureScript('store-writer'), dirs.storeDir], {
        cwd: repoRoot,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      await new Promise<void>((resolve, reject) => {
        writer.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('writing') && resolve());
        writer.on('exit', (code) => reject(new Error(`writer exited early (${code})`)));
      });
      // Let it rewrite for a moment at full speed, then kill it without warning.
      await new Promise((resolve) => setTimeout(resolve, 50 + round * 40));
      const exited = new Promise((resolve) => writer.on('exit', resolve));
      writer.kill('SIGKILL');
      await exited;
      const data = JSON.parse(await readFile(path.join(dirs.storeDir, STORE_FILE), 'utf8')) as {
        graphs: Array<{ name: string }>;
      };
      expect(data.graphs).toHaveLength(200);
      const rounds = new Set(data.graphs.map((g) => g.name.split('-')[1]));
      expect(rounds.size).toBe(1);
      expect((await list()).length).toBe(200);
      await ageLeftLock();
    }
  });
});

describe('every channel validates its input', () => {
  it.each(Object.keys(requests) as RequestChannel[])('%s rejects a wrong-typed input', async (channel) => {
    const handler = core.handlers[channel];
    // Void channels reject any object; object channels reject a number.
    const bad = requests[channel].input.safeParse(undefined).success ? { unexpected: true } : 42;
    await expect(handler(bad)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
});
