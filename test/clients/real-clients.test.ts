/**
 * What `roam-mcp install` writes, read by the clients themselves (Gemini CLI, Claude Code, Codex,
 * pinned in scripts/real-clients.mjs and installed from the npm registry by the test setup): over
 * stdio and over HTTP to `roam-mcp serve --http` with the emulator as Roam, `gemini mcp list` and
 * `claude mcp list` connect to our server and say so; `codex mcp get` reads our entry back as
 * Codex understands it. Each client runs in a HOME of its own, on PATH and never opened (no
 * folder of its own yet). The clone as a plugin and an extension connects too, and our install
 * beside either says the client has two servers. Without the clients (no registry) the file is
 * skipped, saying why.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REAL_CLIENTS, realClientPath, realClientsFailure } from '../../scripts/real-clients.mjs';
import { startHttpWorld, type HttpWorld } from '../harness/http-world.ts';
import { binEnv, newToken, runBin } from '../harness/mcp-bin.ts';
import { tempDir } from '../harness/temp-dir.ts';

type Name = keyof typeof REAL_CLIENTS;
/** This clone: its own Claude Code marketplace and Gemini CLI extension, running its dist/roam-mcp.mjs. */
const CLONE = path.resolve(import.meta.dirname, '../..');
const missing = (Object.keys(REAL_CLIENTS) as Name[]).filter((name) => !existsSync(realClientPath(name)));
const why = missing.length
  ? `${missing.join(', ')} not installed: ${(await realClientsFailure())?.split('\n')[0] ?? 'the full test setup installs them (npm test), not test:one'}`
  : '';

// One line in the run's output when the clients are missing, not only a skipped test's name.
if (why) console.warn(`test/clients/real-clients.test.ts skipped: ${why}`);

const WORK = newToken();
let world: HttpWorld;

interface Run {
  code: number | null;
  out: string;
}

/** A client's own HOME: our config and the emulator's port file, as on a machine with Roam. */
async function clientHome(name: string): Promise<{ home: string; cwd: string; data: string }> {
  const home = await tempDir(`roam-real-${name}-`);
  for (const file of ['.roam-tools.json', '.roam-local-api.json'])
    await copyFile(path.join(world.home, file), path.join(home, file));
  // No ~/.gemini, ~/.codex or ~/.claude.json: each client is on PATH but was never opened, as
  // right after `npm install -g`; `roam-mcp install` finds it there and makes its folder.
  await mkdir(path.join(home, 'work'), { recursive: true });
  return { home, cwd: path.join(home, 'work'), data: path.join(world.home, 'data') };
}

type Home = Awaited<ReturnType<typeof clientHome>>;

/** The client's environment: its HOME, ours for the server it starts, no update checks or relaunch. */
const envOf = (h: Home, extra: Record<string, string> = {}) =>
  binEnv(h.home, {
    ROAM_COMPANION_DATA_DIR: h.data,
    PATH: `${(Object.keys(REAL_CLIENTS) as Name[]).map((name) => path.dirname(realClientPath(name))).join(':')}:${process.env.PATH ?? ''}`,
    GEMINI_CLI_TRUST_WORKSPACE: 'true',
    GEMINI_CLI_NO_RELAUNCH: 'true',
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    ...extra,
  });

function run(
  command: string,
  args: string[],
  h: Home,
  extra?: Record<string, string>,
  cwd = h.cwd,
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: envOf(h, extra),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, out }));
  });
}

const roamMcp = (h: Home, ...args: string[]) => runBin(args, { env: envOf(h), cwd: h.cwd });
const client = (name: Name, h: Home, args: string[], extra?: Record<string, string>) =>
  run(realClientPath(name), args, h, extra);
/** A client run in the clone's folder, as the README's commands are. */
const inClone = (name: Name, h: Home, args: string[]) =>
  run(realClientPath(name), args, h, { PWD: CLONE }, CLONE);
/** Runs the commands `install claude-code` printed to paste, one a line, as a person would. */
const paste = (h: Home, commands: string) => run('sh', ['-ec', commands], h);

describe.skipIf(missing.length > 0)(`the clients’ own CLIs${why ? ` (skipped: ${why})` : ''}`, () => {
  const homes = {} as Record<Name, Home>;

  beforeAll(async () => {
    world = await startHttpWorld({
      emulator: {
        graphs: [{ name: 'work', content: 'demo', tokens: [{ token: WORK, accessLevel: 'full' }] }],
      },
      config: [{ name: 'work', nickname: 'Work', token: WORK, accessLevel: 'full' }],
      keys: {},
    });
    for (const name of Object.keys(REAL_CLIENTS) as Name[]) homes[name] = await clientHome(name);
  }, 60_000);

  afterAll(async () => {
    await world?.close();
  });

  /** `roam-mcp install` for the three clients at once, each in its own home; every one succeeds. */
  async function installAll(transport: 'stdio' | 'http') {
    const installs = await Promise.all([
      roamMcp(homes.gemini, 'install', 'gemini-cli', '--transport', transport),
      roamMcp(homes.claude, 'install', 'claude-code', '--transport', transport),
      roamMcp(homes.codex, 'install', 'codex', '--transport', transport),
    ]);
    expect(installs.map((i) => i.code)).toEqual([0, 0, 0]);
    return installs;
  }

  it('over stdio: Gemini CLI and Claude Code start our server and connect; Codex reads the entry back', async () => {
    const { gemini, claude, codex } = homes;
    const [, command] = await installAll('stdio');
    const added = await paste(claude, command.stdout);
    expect(added.code, added.out).toBe(0);

    const [geminiList, claudeList, codexGet] = await Promise.all([
      client('gemini', gemini, ['mcp', 'list']),
      client('claude', claude, ['mcp', 'list']),
      client('codex', codex, ['mcp', 'get', 'roam-companion', '--json']),
    ]);
    expect(geminiList.out).toMatch(/✓ roam-companion: .*roam-mcp\.mjs \(stdio\) - Connected/);
    expect(claudeList.out).toMatch(/roam-companion: .*roam-mcp\.mjs - ✔ Connected/);
    const entry = JSON.parse(codexGet.out.slice(codexGet.out.indexOf('{'))) as {
      transport: { type: string; command: string; args: string[] };
    };
    expect(entry.transport).toMatchObject({ type: 'stdio', command: process.execPath });
    expect(entry.transport.args[0]).toMatch(/dist[\\/]roam-mcp\.mjs$/);

    // What the clients wrote or read, our status reads as installed.
    for (const [h, name] of [
      [gemini, 'Gemini CLI'],
      [claude, 'Claude Code'],
      [codex, 'Codex'],
    ] as const) {
      expect((await roamMcp(h, 'status')).stdout).toMatch(new RegExp(`^${name} +installed `, 'm'));
    }
  }, 60_000);

  it('over HTTP: each connects to `serve --http` with its key; Claude Code swaps its stdio entry by the printed pair', async () => {
    const { gemini, claude, codex } = homes;
    const [, command, codexInstalled] = await installAll('http');
    // The add command names the file its helper prints the key from: no key in the command line.
    expect(command.stdout).toMatch(
      /^claude mcp remove --scope user roam-companion\nclaude mcp add-json .*"headersHelper":"cat /,
    );
    expect(command.stdout).not.toContain('roam-mcp-key-');
    const swapped = await paste(claude, command.stdout);
    expect(swapped.code, swapped.out).toBe(0);
    // Codex's key is in its own config's http_headers (0600), never on stdout.
    expect(codexInstalled.stdout).not.toContain('roam-mcp-key-');

    const [geminiList, claudeList, codexGet] = await Promise.all([
      client('gemini', gemini, ['mcp', 'list']),
      client('claude', claude, ['mcp', 'list']),
      client('codex', codex, ['mcp', 'get', 'roam-companion', '--json']),
    ]);
    expect(geminiList.out).toContain(`✓ roam-companion: ${world.url} (http) - Connected`);
    expect(claudeList.out).toContain(`roam-companion: ${world.url} (HTTP) - ✔ Connected`);
    const codexTransport = JSON.parse(codexGet.out.slice(codexGet.out.indexOf('{'))).transport;
    expect(codexTransport).toMatchObject({ type: 'streamable_http', url: world.url });
    expect(codexTransport.http_headers.Authorization).toMatch(/^Bearer roam-mcp-key-/);
    expect((await roamMcp(codex, 'status')).stdout).toMatch(/^Codex +installed /m);

    // A revoked key: our status says the entry is stale and why.
    expect((await world.bin(['key', 'revoke', 'gemini-cli'])).code).toBe(0);
    expect((await roamMcp(gemini, 'status')).stdout).toMatch(/^Gemini CLI +stale .*\n.*Its key was revoked/m);
  }, 60_000);

  it('this clone as a Claude Code plugin (its own marketplace) and a Gemini CLI extension: each brings the server, connected, and the skill', async () => {
    const [claude, gemini] = await Promise.all([clientHome('claude-plugin'), clientHome('gemini-extension')]);
    // The README's commands, as written (test/package/readme-commands.test.ts keeps them the same).
    const added = await inClone('claude', claude, ['plugin', 'marketplace', 'add', './']);
    expect(added.code, added.out).toBe(0);
    const [plugin, linked] = await Promise.all([
      client('claude', claude, ['plugin', 'install', 'roam-companion@roam-companion']),
      inClone('gemini', gemini, ['extensions', 'link', '.', '--consent']),
    ]);
    expect(plugin.code, plugin.out).toBe(0);
    expect(linked.code, linked.out).toBe(0);

    const [claudeList, details, geminiList, skills] = await Promise.all([
      client('claude', claude, ['mcp', 'list']),
      client('claude', claude, ['plugin', 'details', 'roam-companion@roam-companion']),
      client('gemini', gemini, ['mcp', 'list']),
      client('gemini', gemini, ['skills', 'list']),
    ]);
    const bin = path.join(CLONE, 'dist', 'roam-mcp.mjs');
    expect(claudeList.out).toContain(
      `plugin:roam-companion:roam-companion: node ${path.join(CLONE, 'plugins', 'claude-code')}/../../dist/roam-mcp.mjs - ✔ Connected`,
    );
    expect(details.out).toMatch(/Skills \(1\) +roam-companion/);
    expect(geminiList.out).toContain(
      `✓ roam-companion (from roam-companion): node ${bin} (stdio) - Connected`,
    );
    expect(skills.out).toContain(path.join(CLONE, 'skills', 'roam-companion', 'SKILL.md'));

    // Our install beside the package the client's own CLI recorded: both say there are two.
    const [geminiBoth, claudeBoth] = await Promise.all([
      roamMcp(gemini, 'install', 'gemini-cli', '--transport', 'stdio'),
      roamMcp(claude, 'install', 'claude-code', '--transport', 'stdio'),
    ]);
    expect(geminiBoth.stderr).toContain('also has Roam Companion from the roam-companion extension');
    expect(claudeBoth.stderr).toContain(
      'also has Roam Companion from the roam-companion plugin (roam-companion@roam-companion)',
    );
  }, 90_000);
});
