/**
 * Token write-back respects the config file as the user left it: the mode is kept, and a file
 * we cannot take as ours (root not an object, read-only, a link to nothing) is left byte for byte
 * as it was while the token stays in memory, with a notice that says how to keep access and
 * never shows the token. Through the built bin against the emulator's token exchange.
 */
import { chmod, lstat, mkdir, readFile, readlink, rm, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/index.ts';
import {
  errorCode,
  startMcp,
  scratchHome,
  allTextOf,
  toolsConfig,
  toolsConfigPath,
  writeToolsConfig,
} from '../harness/mcp-bin.ts';

const GRAPH = 'kept-graph';
let home: { home: string; cleanup(): Promise<void> };
let emulator: Emulator;
const configPath = () => toolsConfigPath(home.home);
const modeOf = async (file: string) => (await stat(file)).mode & 0o777;

beforeEach(async () => {
  home = await scratchHome('roam-file-state-');
  emulator = await startEmulator({ home: home.home, port: 0, graphs: [{ name: GRAPH, content: 'demo' }] });
  emulator.autoDecide({ kind: 'approve' }, 0);
});

afterEach(async () => {
  await emulator?.close();
  await home?.cleanup();
});

/**
 * Starts a bin on the config, lets `meanwhile` change the file (as the user or a dotfile manager
 * would while the server runs), then has the bin obtain a token. Returns the notice and stderr.
 */
async function obtainToken(meanwhile: () => Promise<void> = async () => {}) {
  const bin = await startMcp({ home: home.home });
  try {
    await meanwhile();
    const result = await bin.call('get_page', { title: 'Project Apollo' });
    expect(errorCode(result), allTextOf(result)).toBeUndefined();
    const auth = emulator.requests.filter((r) => r.graph === GRAPH).at(-1)?.headers.authorization;
    const token = auth?.replace(/^Bearer /, '');
    expect(token).toMatch(/^roam-graph-local-token-/);
    return { notice: allTextOf(result), stderr: bin.stderr(), token: token as string };
  } finally {
    await bin.close();
  }
}

function expectNotSaved(out: { notice: string; stderr: string; token: string }, why: RegExp): void {
  for (const text of [out.notice, out.stderr]) {
    expect(text).toMatch(/NOT saved and is kept in memory for this session/);
    expect(text).toMatch(why);
    expect(text).toMatch(/roam-mcp connect --graph "kept-graph"/);
    expect(text).not.toContain(out.token);
  }
}

describe('token write-back and the file state', () => {
  it('keeps the mode of the config (0640 stays 0640)', { timeout: 30_000 }, async () => {
    await writeFile(configPath(), toolsConfig([{ name: GRAPH }]), { mode: 0o640 });
    await chmod(configPath(), 0o640);
    const out = await obtainToken();
    expect(out.notice).toMatch(/The token was saved to/);
    expect(await modeOf(configPath())).toBe(0o640);
    const saved = JSON.parse(await readFile(configPath(), 'utf8')) as { graphs: Array<{ token?: string }> };
    expect(saved.graphs[0]?.token).toBe(out.token);
    // The config says no level: the server asks for the safer default, as connect and the tray do.
    const asked = emulator.requests.find((r) => r.path === '/api/graphs/tokens/request');
    expect(asked?.body).toMatchObject({ accessLevel: 'read-append' });
  });

  it('leaves a read-only (0400) config as it is and says how to save', { timeout: 30_000 }, async () => {
    const text = toolsConfig([{ name: GRAPH }]);
    await writeFile(configPath(), text);
    await chmod(configPath(), 0o400);
    const out = await obtainToken();
    expectNotSaved(out, /read-only \(mode 400\).*chmod u\+w/);
    expect(await modeOf(configPath())).toBe(0o400);
    expect(await readFile(configPath(), 'utf8')).toBe(text);
  });

  it('never replaces a file whose root is not an object', { timeout: 30_000 }, async () => {
    await writeToolsConfig(home.home, [{ name: GRAPH }]);
    const replaced = '["the user put something else here"]\n';
    const out = await obtainToken(() => writeFile(configPath(), replaced));
    expectNotSaved(out, /is not a Roam config/);
    expect(await readFile(configPath(), 'utf8')).toBe(replaced);
  });

  it('never turns a link to nothing into a regular file', { timeout: 30_000 }, async () => {
    const target = path.join(home.home, 'dotfiles', 'roam-tools.json');
    await mkdir(path.dirname(target));
    await writeFile(target, toolsConfig([{ name: GRAPH }]), { mode: 0o600 });
    await symlink(target, configPath());
    const out = await obtainToken(() => rm(target));
    expectNotSaved(out, /symbolic link to a file that does not exist/);
    expect((await lstat(configPath())).isSymbolicLink()).toBe(true);
    expect(await readlink(configPath())).toBe(target);
    await expect(stat(target)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('writes through a symlink to its target and keeps the link', { timeout: 30_000 }, async () => {
    const target = path.join(home.home, 'real-config.json');
    await writeFile(target, toolsConfig([{ name: GRAPH }]), { mode: 0o600 });
    await symlink(target, configPath());
    const out = await obtainToken();
    expect(out.notice).toMatch(/The token was saved/);
    expect((await lstat(configPath())).isSymbolicLink()).toBe(true);
    const saved = JSON.parse(await readFile(target, 'utf8')) as { graphs: Array<{ token?: string }> };
    expect(saved.graphs[0]?.token).toBe(out.token);
  });
});
