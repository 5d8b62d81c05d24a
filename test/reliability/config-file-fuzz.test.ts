/**
 * Hostile ~/.roam-tools.json files, read by the real bin: wrong types, random JSON, syntax
 * errors next to a token, duplicate keys, a huge file, a directory, a symlink, an unreadable
 * file. Tools answer a clear CONFIG_* error naming the file (never a token), the server keeps
 * serving, and the file's bytes are unchanged.
 */
import fc from 'fast-check';
import { chmod, lstat, mkdir, readFile, readlink, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/index.ts';
import {
  errorCode,
  makeToken,
  startMcp,
  scratchHome,
  allTextOf,
  toolsConfig,
  toolsConfigPath,
  writeToolsConfig,
} from '../harness/mcp-bin.ts';

const TOKEN = makeToken('CONFIGFUZZSECRETVALUE');
const SECRET_PART = TOKEN.slice('roam-graph-local-token-'.length);
const GRAPH = 'config-graph';
const LONG = process.env.ROAM_LONG_TESTS === '1';
const isRoot = process.getuid?.() === 0;

let home: { home: string; cleanup(): Promise<void> };
let emulator: Emulator;
const configPath = () => toolsConfigPath(home.home);

beforeAll(async () => {
  home = await scratchHome();
  emulator = await startEmulator({
    home: home.home,
    port: 0,
    graphs: [{ name: GRAPH, content: 'demo', tokens: [{ token: TOKEN, accessLevel: 'full' }] }],
  });
});

afterAll(async () => {
  await emulator?.close();
  await home?.cleanup();
});

/** No run of 12+ characters of the token's secret part anywhere in `text`. */
function expectNoSecret(text: string): void {
  expect(text).not.toContain(TOKEN);
  for (let i = 0; i + 12 <= SECRET_PART.length; i++) expect(text).not.toContain(SECRET_PART.slice(i, i + 12));
}

/** Starts the bin on the current HOME, calls a graph tool and list_graphs, returns what was seen. */
async function observe(): Promise<{ code: string | undefined; text: string; stderr: string }> {
  const bin = await startMcp({ home: home.home });
  try {
    const page = await bin.call('get_page', { title: 'Project Apollo' });
    const list = await bin.call('list_graphs', {});
    // The server keeps serving after the config error.
    const ping = await bin.client.ping();
    expect(ping).toBeTruthy();
    return { code: errorCode(page), text: `${allTextOf(page)}\n${allTextOf(list)}`, stderr: bin.stderr() };
  } finally {
    await bin.close();
  }
}

async function expectConfigRefused(contents: string | Buffer): Promise<string> {
  await writeFile(configPath(), contents, { mode: 0o600 });
  const before = await readFile(configPath());
  const seen = await observe();
  expect(seen.code).toBe('CONFIG_INVALID');
  expect(seen.text).toContain('.roam-tools.json');
  expectNoSecret(seen.text);
  expectNoSecret(seen.stderr);
  expect((await readFile(configPath())).equals(before)).toBe(true);
  return seen.text;
}

describe('hostile config files through the bin', () => {
  it('wrong types are refused with the field named', async () => {
    const text = await expectConfigRefused(JSON.stringify({ graphs: [{ name: 42, token: TOKEN }] }));
    expect(text).toMatch(/name/);
    await expectConfigRefused(JSON.stringify({ graphs: 'all of them' }));
    await expectConfigRefused(JSON.stringify([{ name: GRAPH, token: TOKEN }]));
    await expectConfigRefused('null');
    await expectConfigRefused(JSON.stringify({ graphs: [{ name: GRAPH, type: 'cloud', token: TOKEN }] }));
  });

  it('a syntax error right after the token gives line and column, not the token', async () => {
    const text = await expectConfigRefused(`{"graphs": [{"name": "${GRAPH}", "token": "${TOKEN}"x}]}`);
    expect(text).toMatch(/line \d+, column \d+/);
    await expectConfigRefused(`{"graphs": [{"name": "${GRAPH}", "token": "${TOKEN}"},]x}`);
    await expectConfigRefused(`{"graphs": [{"name": "${GRAPH}", "token": "${TOKEN}`);
    await expectConfigRefused('');
    await expectConfigRefused(Buffer.from([0xff, 0xfe, 0x00, 0x7b, 0x00]));
  });

  it('a remote token or a non-token is refused without repeating it', async () => {
    const remote = `roam-graph-token-${SECRET_PART}`;
    const text = await expectConfigRefused(JSON.stringify({ graphs: [{ name: GRAPH, token: remote }] }));
    expect(text).not.toContain(remote);
    await expectConfigRefused(JSON.stringify({ graphs: [{ name: GRAPH, token: SECRET_PART }] }));
  });

  it('duplicate keys: the last one wins as in JSON.parse, and a bad last one is refused', async () => {
    await expectConfigRefused(
      `{"graphs": [{"name": "${GRAPH}", "token": "${TOKEN}"}], "graphs": {"not": "a list"}}`,
    );
    await writeFile(
      configPath(),
      `{"graphs": [{"name": "other", "token": "x"}], "graphs": [{"name": "${GRAPH}", "token": "${TOKEN}"}]}`,
      { mode: 0o600 },
    );
    const seen = await observe();
    expect(seen.code).toBeUndefined();
  });

  it('duplicate nicknames are refused naming the clash', async () => {
    const text = await expectConfigRefused(
      JSON.stringify({
        graphs: [
          { name: GRAPH, token: TOKEN, nickname: 'Work' },
          { name: 'other', token: TOKEN, nickname: 'work' },
        ],
      }),
    );
    expect(text.toLowerCase()).toContain('work');
  });

  it('a huge file (20 MB) is refused quickly with a short message', async () => {
    const huge = `{"graphs": [${`{"name": "${'n'.repeat(1000)}", "token": 5},`.repeat(20_000)}]}`;
    const text = await expectConfigRefused(huge);
    expect(text.length).toBeLessThan(20_000);
  });

  it('a directory instead of a file gives a clear error and is left alone', async () => {
    const dirHome = await scratchHome();
    try {
      await mkdir(toolsConfigPath(dirHome.home));
      const bin = await startMcp({ home: dirHome.home });
      try {
        const result = await bin.call('get_page', { title: 'x' });
        expect(errorCode(result)).toMatch(/^CONFIG_/);
        expect(allTextOf(result)).toMatch(/roam-tools\.json|directory|EISDIR/i);
        expect((await stat(toolsConfigPath(dirHome.home))).isDirectory()).toBe(true);
      } finally {
        await bin.close();
      }
    } finally {
      await dirHome.cleanup();
    }
  });

  it.skipIf(isRoot)('an unreadable file gives a clear error and keeps its bytes', async () => {
    await writeToolsConfig(home.home, [{ name: GRAPH, token: TOKEN }]);
    await chmod(configPath(), 0o000);
    try {
      const seen = await observe();
      expect(seen.code).toBe('CONFIG_INVALID');
      expect(seen.text).toMatch(/permission|EACCES/i);
    } finally {
      await chmod(configPath(), 0o600);
    }
  });

  it('a symlinked config is read through the link', async () => {
    const real = path.join(home.home, 'dotfiles-roam-tools.json');
    await writeFile(real, toolsConfig([{ name: GRAPH, token: TOKEN }]), { mode: 0o600 });
    const { rm } = await import('node:fs/promises');
    await rm(configPath(), { force: true });
    await symlink(real, configPath());
    const seen = await observe();
    expect(seen.code).toBeUndefined();
    expect((await lstat(configPath())).isSymbolicLink()).toBe(true);
    await rm(configPath(), { force: true });
  });

  it('a dangling or looping symlink is treated like a missing or unreadable file', async () => {
    const { rm } = await import('node:fs/promises');
    await rm(configPath(), { force: true });
    await symlink(path.join(home.home, 'nowhere.json'), configPath());
    const dangling = await observe();
    expect(dangling.code).toMatch(/^CONFIG_/);
    await rm(configPath(), { force: true });
    await symlink(configPath(), configPath());
    const loop = await observe();
    expect(loop.code).toMatch(/^CONFIG_/);
    expect(await readlink(configPath())).toBe(configPath());
    await rm(configPath(), { force: true });
  });

  it(
    'random JSON shapes around a token are refused or accepted, never leak, never rewritten',
    { timeout: 120_000 },
    async () => {
      const entry = fc.record(
        {
          name: fc.oneof(fc.constant(GRAPH), fc.string(), fc.integer(), fc.constant(null)),
          type: fc.oneof(fc.constantFrom('hosted', 'offline'), fc.string(), fc.boolean()),
          token: fc.oneof(fc.constant(TOKEN), fc.constant(SECRET_PART), fc.integer()),
          nickname: fc.oneof(fc.string(), fc.constant(''), fc.constant(null)),
          accessLevel: fc.oneof(fc.constantFrom('read-only', 'full'), fc.string()),
        },
        { requiredKeys: ['token'] },
      );
      const file = fc.oneof(
        fc.record({ graphs: fc.array(entry, { maxLength: 3 }) }, { requiredKeys: [] }),
        fc.record({
          version: fc.oneof(fc.constant(1), fc.integer()),
          graphs: fc.oneof(entry, fc.jsonValue()),
        }),
        fc.jsonValue(),
      );
      await fc.assert(
        fc.asyncProperty(file, async (value) => {
          await writeFile(configPath(), JSON.stringify(value) ?? 'undefined', { mode: 0o600 });
          const before = await readFile(configPath());
          const seen = await observe();
          expectNoSecret(seen.text);
          expectNoSecret(seen.stderr);
          if (seen.code !== undefined) expect(seen.code).toMatch(/^[A-Z_]+$/);
          expect((await readFile(configPath())).equals(before)).toBe(true);
        }),
        { numRuns: LONG ? 200 : 5, seed: LONG ? undefined : 3 },
      );
    },
  );
});
