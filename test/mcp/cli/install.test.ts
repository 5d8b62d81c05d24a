import { spawnSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runInstallerCli } from '../../../src-mcp/cli/install.ts';
import { writeAtLoginFile } from '../../../src-mcp/data-folder/url-file.ts';
import { BACKUP_SUFFIX } from '../../../src-mcp/installers/installer.ts';
import {
  CLAUDE_DESKTOP_CONFIG,
  readJson,
  readText,
  tempHomeForEachTest,
  windowsOptions,
  writeConfig,
} from '../installers/helpers.ts';

const bundle = realpathSync(path.resolve(fileURLToPath(import.meta.url), '../../../../dist/roam-mcp.mjs'));

const t = tempHomeForEachTest();

const cursorFile = () => path.join(t.home, '.cursor', 'mcp.json');

/** Runs the built `roam-mcp` as a user would, with a clean environment and the temp home. */
function roamMcp(...args: string[]) {
  const result = spawnSync(process.execPath, [bundle, ...args], {
    env: { PATH: process.env.PATH, HOME: t.home },
    encoding: 'utf8',
    timeout: 15_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Runs the CLI in-process, capturing its two streams. */
async function cli(argv: string[], overrides = {}) {
  let stdout = '';
  let stderr = '';
  const code = await runInstallerCli(argv, {
    home: t.home,
    launcher: t.launcher,
    platform: 'linux',
    env: {},
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    ...overrides,
  });
  return { code, stdout, stderr };
}

describe('roam-mcp install/uninstall (built bundle, child process)', () => {
  it('installs node + this bundle into Cursor, with the toolsets that fit its tool cap, reports on stderr, and uninstalls', async () => {
    await writeConfig(cursorFile(), '{\n  "mcpServers": {\n    "other": { "command": "other" }\n  }\n}\n');
    const installed = roamMcp('install', 'cursor');
    expect(installed).toMatchObject({ code: 0, stdout: '' });
    expect(installed.stderr).toContain(`Installed Roam Companion in Cursor: ${cursorFile()}`);
    expect(installed.stderr).toContain(`The previous file is saved as ${cursorFile()}${BACKUP_SUFFIX}`);
    expect(installed.stderr).toContain('Cursor works poorly past about 40 tools');
    expect((await readJson(cursorFile())).mcpServers).toEqual({
      other: { command: 'other' },
      'roam-companion': { command: process.execPath, args: [bundle, '--tools', 'core,navigation'] },
    });

    const again = roamMcp('install', 'cursor');
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('already installed');

    const removed = roamMcp('uninstall', 'cursor');
    expect(removed.code).toBe(0);
    expect((await readJson(cursorFile())).mcpServers).toEqual({ other: { command: 'other' } });
  });

  it('a tray that serves and opens at login makes http the default while it is closed; a later stdio install takes the key back and keeps its toolsets', async () => {
    await writeConfig(cursorFile(), '{ "mcpServers": {} }\n');
    const where = { home: t.home, env: {}, platform: 'linux' as const };
    const url = 'http://127.0.0.1:39017/mcp';
    await writeAtLoginFile(url, where);
    const installed = roamMcp('install', 'cursor', '--tools', 'core');
    expect(installed.code).toBe(0);
    expect(installed.stderr).toContain(`Roam Companion is not running now; it serves ${url}`);
    const { mcpServers } = (await readJson(cursorFile())) as {
      mcpServers: Record<string, { url?: string; headers?: Record<string, string> }>;
    };
    const key = /^Bearer (roam-mcp-key-\S+)$/.exec(
      mcpServers['roam-companion']?.headers?.Authorization ?? '',
    )?.[1];
    expect(mcpServers['roam-companion']?.url).toBe(url);
    expect(key).toBeDefined();
    expect(installed.stdout + installed.stderr).not.toContain(key);
    expect(roamMcp('key', 'list').stdout).toMatch(/^cursor\t.*\ttools core$/m);

    await writeAtLoginFile(undefined, where);
    const back = roamMcp('install', 'cursor');
    expect(back.code).toBe(0);
    expect(((await readJson(cursorFile())) as { mcpServers: object }).mcpServers).toEqual({
      'roam-companion': { command: process.execPath, args: [bundle, '--tools', 'core'] },
    });
    expect(roamMcp('key', 'list').stdout).not.toMatch(/^cursor\t/m);
  });

  it('--dry-run prints a diff on stdout and writes nothing', async () => {
    await writeConfig(cursorFile(), CLAUDE_DESKTOP_CONFIG);
    const mtime = (await stat(cursorFile())).mtimeMs;
    const run = roamMcp('install', 'cursor', '--dry-run');

    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`+++ ${cursorFile()} (after install)`);
    expect(run.stdout).toContain('+     "roam-companion": {');
    expect(run.stdout).not.toContain('roam-graph-local-token-');
    expect(run.stderr).toContain('Dry run: nothing was written');
    expect(await readText(cursorFile())).toBe(CLAUDE_DESKTOP_CONFIG);
    expect((await stat(cursorFile())).mtimeMs).toBe(mtime);
    await expect(stat(cursorFile() + BACKUP_SUFFIX)).rejects.toThrow();
  });

  it('exits 1 naming the file and position when the config is broken, leaving it untouched', async () => {
    await writeConfig(cursorFile(), '{"mcpServers": {,}}');
    const run = roamMcp('install', 'cursor');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      new RegExp(`${cursorFile().replace(/[.]/g, '\\.')} is not valid JSON: .* at line 1, column 17`),
    );
    expect(await readText(cursorFile())).toBe('{"mcpServers": {,}}');
  });

  it('exits 2 with usage on an unknown client', () => {
    const run = roamMcp('install', 'notepad');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'Unknown client "notepad". Clients: claude-desktop, claude-code, cursor, vscode, gemini-cli, codex.',
    );
    // The reason first, then only the synopsis: the reason stays on screen.
    expect(run.stderr).toMatch(/^roam-mcp: Unknown client/);
    expect(run.stderr).toContain('Usage:');
    expect(run.stderr.split('\n').length).toBeLessThanOrEqual(12);
  });

  it('a mistyped client gets a "did you mean"', () => {
    for (const [typed, meant] of [
      ['curser', 'cursor'],
      ['vs-code', 'vscode'],
      ['claude-destkop', 'claude-desktop'],
      ['Cursor', 'cursor'],
      ['claude', 'claude-desktop or claude-code'],
    ]) {
      const run = roamMcp('install', typed!);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`Unknown client "${typed}". Did you mean ${meant}?`);
    }
  });

  it('install without a client lists the clients on stdout and exits 0', async () => {
    await writeConfig(path.join(t.home, '.cursor', 'argv.json'), '{}');
    const run = roamMcp('install');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Claude Desktop +unavailable/m);
    expect(run.stdout).toMatch(/^Cursor +not-installed +\S*mcp\.json/m);
    expect(run.stderr).toContain(
      'To install, name a client: roam-mcp install <client>, one of claude-desktop',
    );
  });

  it('install --dry-run shows the new file even before the client folder exists, and writes nothing', async () => {
    const run = roamMcp('install', 'cursor', '--dry-run');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`+++ ${cursorFile()} (after install)`);
    expect(run.stdout).toContain('"roam-companion"');
    expect(run.stdout).toContain('"core,navigation"');
    expect(run.stderr).toContain(`${path.join(t.home, '.cursor')} doesn't exist yet`);
    expect(run.stderr).toContain('Dry run: nothing was written');
    await expect(stat(path.join(t.home, '.cursor'))).rejects.toThrow();
  });

  it('install --tools writes the chosen sets, a later install keeps them, and a bad set is refused', async () => {
    await writeConfig(cursorFile(), '{}');
    expect(roamMcp('install', 'cursor', '--tools', 'all').code).toBe(0);
    const entry = async () =>
      ((await readJson(cursorFile())).mcpServers as Record<string, { args: string[] }>)['roam-companion'];
    const all = 'core,navigation,ui,files,extensions,developer';
    expect((await entry())?.args).toEqual([bundle, '--tools', all]);
    const again = roamMcp('install', 'cursor');
    expect(again.stderr).toContain('already installed');
    expect((await entry())?.args).toEqual([bundle, '--tools', all]);
    expect(roamMcp('install', 'cursor', '--tools=core').code).toBe(0);
    expect((await entry())?.args).toEqual([bundle, '--tools', 'core']);
    const bad = roamMcp('install', 'cursor', '--tools', 'core,navigaton');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      "--tools names unknown toolset 'navigaton'. Valid toolsets: core, navigation",
    );
    expect((await entry())?.args).toEqual([bundle, '--tools', 'core']);
  });

  it('prints only the Claude Code command on stdout', () => {
    const run = roamMcp('install', 'claude-code');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`claude mcp add --scope user roam-companion -- ${process.execPath} ${bundle}\n`);
  });

  it('puts --tools into the Claude Code command too', () => {
    const run = roamMcp('install', 'claude-code', '--tools', 'navigation,core');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      `claude mcp add --scope user roam-companion -- ${process.execPath} ${bundle} --tools core,navigation\n`,
    );
  });
});

describe('runInstallerCli (in-process)', () => {
  it('prints help on stdout with exit 0', async () => {
    for (const argv of [['--help'], ['install', '--help'], []]) {
      const run = await cli(argv);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(
        'roam-mcp install <client> [--transport http|stdio] [--tools SETS] [--dry-run]',
      );
    }
  });

  it('exits 2 with a reason and the usage on bad command lines', async () => {
    for (const [argv, reason] of [
      [['reinstall', 'cursor'], 'Unknown command "reinstall"'],
      [['install', 'cursor', '--force'], 'Unknown option "--force" for install'],
      [['install', 'cursor', 'vscode'], 'install takes one client'],
      [['status', 'cursor'], 'status takes no client'],
      [['status', '--dry-run'], 'Unknown option "--dry-run" for status'],
      [['install', 'cursor', '--dry-run=no'], 'Unknown option "--dry-run=no" for install'],
      [['install', 'cursor', '--tools'], '--tools needs toolset names'],
      [['uninstall', 'cursor', '--tools', 'core'], 'Unknown option "--tools" for uninstall'],
    ] as const) {
      const run = await cli([...argv]);
      expect(run).toMatchObject({ code: 2, stdout: '' });
      expect(run.stderr).toContain(reason);
      expect(run.stderr).toContain('Usage:');
    }
  });

  it('without a client, shows the clients to choose from: install exits 0, uninstall (which removed nothing) 2', async () => {
    await writeConfig(path.join(t.home, '.cursor', 'argv.json'), '{}');
    for (const command of ['install', 'uninstall']) {
      const run = await cli([command]);
      expect(run.code).toBe(command === 'install' ? 0 : 2);
      expect(run.stdout).toMatch(/^Claude Desktop +unavailable/);
      expect(run.stdout).toMatch(/Cursor +not-installed +\S*mcp\.json/);
      expect(run.stderr).toContain(`To ${command}, name a client: roam-mcp ${command} <client>`);
    }
  });

  it('status lists every client, as text or JSON', async () => {
    await writeConfig(cursorFile(), '{}');
    await cli(['install', 'cursor']);
    const text = await cli(['status']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(new RegExp(`Cursor +installed +${cursorFile().replace(/[.]/g, '\\.')}`));
    expect(text.stdout).toContain('claude mcp add --scope user roam-companion');

    const json = await cli(['status', '--json']);
    const views = JSON.parse(json.stdout) as { id: string; name: string; state: string }[];
    // The text says the same word as the JSON for every client.
    for (const view of views) expect(text.stdout).toMatch(new RegExp(`^${view.name} +${view.state} `, 'm'));
    expect(views.map((v) => `${v.id}:${v.state}`)).toEqual([
      'claude-desktop:unavailable',
      'claude-code:unavailable',
      'cursor:installed',
      'vscode:unavailable',
      'gemini-cli:unavailable',
      'codex:unavailable',
    ]);
  });

  it('uses the Windows layout it is given, and reports an unavailable client with exit 1', async () => {
    const claude = path.join(t.home, 'AppData', 'Roaming', 'Claude', 'claude_desktop_config.json');
    await writeConfig(claude, CLAUDE_DESKTOP_CONFIG);
    const opts = windowsOptions(t);
    expect((await cli(['install', 'claude-desktop'], opts)).code).toBe(0);
    expect((await readJson(claude)).mcpServers).toHaveProperty('roam-companion');

    const vscode = await cli(['install', 'vscode'], opts);
    expect(vscode.code).toBe(1);
    expect(vscode.stderr).toMatch(/VS Code doesn't seem to be installed: .*Code.User doesn't exist/);
  });

  it('uninstall --dry-run shows the removal without writing', async () => {
    await writeConfig(cursorFile(), '{}');
    await cli(['install', 'cursor']);
    const installed = await readText(cursorFile());
    const run = await cli(['uninstall', 'cursor', '--dry-run']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('-     "roam-companion": {');
    expect(await readText(cursorFile())).toBe(installed);
  });
});
