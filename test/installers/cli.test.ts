import { spawnSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runInstallerCli } from '../../src-mcp/installers/cli.ts';
import { BACKUP_SUFFIX } from '../../src-mcp/installers/installer.ts';
import {
  CLAUDE_DESKTOP_CONFIG,
  makeTempHome,
  readJson,
  readText,
  windowsOptions,
  writeConfig,
  type TempHome,
} from './helpers.ts';

const bundle = realpathSync(path.resolve(fileURLToPath(import.meta.url), '../../../dist/roam-mcp.mjs'));

let t: TempHome;
beforeEach(async () => {
  t = await makeTempHome();
});
afterEach(() => t.cleanup());

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
  it('installs node + this bundle into Cursor, reports on stderr, and uninstalls', async () => {
    await writeConfig(cursorFile(), '{\n  "mcpServers": {\n    "other": { "command": "other" }\n  }\n}\n');
    const installed = roamMcp('install', 'cursor');
    expect(installed).toMatchObject({ code: 0, stdout: '' });
    expect(installed.stderr).toContain(`Installed Roam Companion in Cursor: ${cursorFile()}`);
    expect(installed.stderr).toContain(`The previous file is saved as ${cursorFile()}${BACKUP_SUFFIX}`);
    expect((await readJson(cursorFile())).mcpServers).toEqual({
      other: { command: 'other' },
      'roam-companion': { command: process.execPath, args: [bundle] },
    });

    const again = roamMcp('install', 'cursor');
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('already installed');

    const removed = roamMcp('uninstall', 'cursor');
    expect(removed.code).toBe(0);
    expect((await readJson(cursorFile())).mcpServers).toEqual({ other: { command: 'other' } });
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
    expect(run.stderr).toContain('Unknown client "notepad"');
    expect(run.stderr).toContain('Clients: claude-desktop, claude-code, cursor, vscode');
  });

  it('prints only the Claude Code command on stdout', () => {
    const run = roamMcp('install', 'claude-code');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`claude mcp add --scope user roam-companion -- ${process.execPath} ${bundle}\n`);
  });
});

describe('runInstallerCli (in-process)', () => {
  it('prints help on stdout with exit 0', async () => {
    for (const argv of [['--help'], ['install', '--help'], []]) {
      const run = await cli(argv);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('roam-mcp install <client> [--dry-run]');
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
    ] as const) {
      const run = await cli([...argv]);
      expect(run).toMatchObject({ code: 2, stdout: '' });
      expect(run.stderr).toContain(reason);
      expect(run.stderr).toContain('Usage:');
    }
  });

  it('without a client, shows the clients to choose from and exits 2', async () => {
    await writeConfig(path.join(t.home, '.cursor', 'argv.json'), '{}');
    const run = await cli(['install']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/install needs a client:\n\nClaude Desktop +unavailable/);
    expect(run.stderr).toMatch(/Cursor +not-installed +\S*mcp\.json/);
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
