import { lstat, readdir, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BACKUP_SUFFIX, install, listClients, uninstall } from '../../../src-mcp/installers/installer.ts';
import {
  CLAUDE_DESKTOP_CONFIG,
  linuxOptions,
  macOptions,
  modeOf,
  readJson,
  readText,
  tempHomeForEachTest,
  windowsOptions,
  writeConfig,
} from './helpers.ts';

const t = tempHomeForEachTest();

const macClaudeFile = () =>
  path.join(t.home, 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json');

describe('install into an existing Claude Desktop config (macOS layout)', () => {
  it('adds only our entry and keeps every other server, the official roam entry and settings', async () => {
    await writeConfig(macClaudeFile(), CLAUDE_DESKTOP_CONFIG);
    const result = await install('claude-desktop', macOptions(t));

    expect(result.changed).toBe(true);
    expect(result.client).toMatchObject({
      id: 'claude-desktop',
      state: 'installed',
      configPath: macClaudeFile(),
    });
    const before = JSON.parse(CLAUDE_DESKTOP_CONFIG);
    const after = await readJson(macClaudeFile());
    const { 'roam-companion': ours, ...others } = after.mcpServers as Record<string, unknown>;
    expect(ours).toEqual({ command: t.launcher.command, args: t.launcher.args });
    expect(others).toEqual(before.mcpServers);
    expect({ ...after, mcpServers: undefined }).toEqual({ ...before, mcpServers: undefined });
  });

  it('keeps the original text around our insertion (no reformatting of other entries)', async () => {
    await writeConfig(macClaudeFile(), CLAUDE_DESKTOP_CONFIG);
    await install('claude-desktop', macOptions(t));
    const text = await readText(macClaudeFile());
    // The filesystem entry's compact args array would be expanded by a reformat.
    expect(text).toContain(
      '"args": ["-y", "@modelcontextprotocol/server-filesystem", "/Users/me/Documents"]',
    );
    expect(text).toContain('"globalShortcut": "Ctrl+Space"');
  });

  it('backs up the previous file once per change, and a second install changes nothing', async () => {
    await writeConfig(macClaudeFile(), CLAUDE_DESKTOP_CONFIG, 0o640);
    const first = await install('claude-desktop', macOptions(t));
    expect(first.backupPath).toBe(macClaudeFile() + BACKUP_SUFFIX);
    expect(await readText(first.backupPath!)).toBe(CLAUDE_DESKTOP_CONFIG);
    expect(await modeOf(first.backupPath!)).toBe(0o600);

    const installed = await readText(macClaudeFile());
    const backupMtime = (await stat(first.backupPath!)).mtimeMs;
    const second = await install('claude-desktop', macOptions(t));
    expect(second.changed).toBe(false);
    expect(second.backupPath).toBeUndefined();
    expect(await readText(macClaudeFile())).toBe(installed);
    expect((await stat(first.backupPath!)).mtimeMs).toBe(backupMtime);
  });

  it("keeps the file's mode", async () => {
    await writeConfig(macClaudeFile(), CLAUDE_DESKTOP_CONFIG, 0o640);
    await install('claude-desktop', macOptions(t));
    expect(await modeOf(macClaudeFile())).toBe(0o640);
  });

  it('leaves no temp files behind', async () => {
    await writeConfig(macClaudeFile(), CLAUDE_DESKTOP_CONFIG);
    await install('claude-desktop', macOptions(t));
    await uninstall('claude-desktop', macOptions(t));
    const names = await readdir(path.dirname(macClaudeFile()));
    expect(names.sort()).toEqual([
      'claude_desktop_config.json',
      'claude_desktop_config.json' + BACKUP_SUFFIX,
    ]);
  });

  it('updates a stale entry in place and keeps fields the user added to it', async () => {
    const moved = {
      mcpServers: {
        'roam-companion': {
          command: '/Applications/Old.app/Contents/MacOS/Old',
          args: ['--mcp'],
          env: { DEBUG: '1' },
        },
        other: { command: 'other' },
      },
    };
    await writeConfig(macClaudeFile(), JSON.stringify(moved, null, 2));
    expect((await listClients(macOptions(t))).find((c) => c.id === 'claude-desktop')?.state).toBe('stale');

    const result = await install('claude-desktop', macOptions(t));
    expect(result.client.state).toBe('installed');
    const servers = (await readJson(macClaudeFile())).mcpServers as Record<string, unknown>;
    expect(servers['roam-companion']).toEqual({
      command: t.launcher.command,
      args: t.launcher.args,
      env: { DEBUG: '1' },
    });
    expect(servers.other).toEqual({ command: 'other' });
  });
});

describe('new files', () => {
  it('creates a missing config with mode 0600 and no backup, when the client is installed', async () => {
    const cursorDir = path.join(t.home, '.cursor');
    await writeConfig(path.join(cursorDir, 'argv.json'), '{}');
    const result = await install('cursor', linuxOptions(t));

    const file = path.join(cursorDir, 'mcp.json');
    expect(result).toMatchObject({ changed: true, client: { state: 'installed', configPath: file } });
    expect(result.backupPath).toBeUndefined();
    expect(await readJson(file)).toEqual({
      mcpServers: { 'roam-companion': { command: t.launcher.command, args: t.launcher.args } },
    });
    expect(await modeOf(file)).toBe(0o600);
  });

  it('treats an empty file as an empty config', async () => {
    const file = path.join(t.home, '.cursor', 'mcp.json');
    await writeConfig(file, '');
    await install('cursor', linuxOptions(t));
    expect(Object.keys((await readJson(file)).mcpServers as object)).toEqual(['roam-companion']);
  });
});

describe('uninstall', () => {
  it('removes only our entry and restores the other servers and settings', async () => {
    await writeConfig(macClaudeFile(), CLAUDE_DESKTOP_CONFIG);
    await install('claude-desktop', macOptions(t));
    const result = await uninstall('claude-desktop', macOptions(t));

    expect(result.changed).toBe(true);
    expect(result.client.state).toBe('not-installed');
    expect(await readJson(macClaudeFile())).toEqual(JSON.parse(CLAUDE_DESKTOP_CONFIG));
    expect(await readText(result.backupPath!)).toContain('"roam-companion"');
  });

  it('keeps the file with an empty server map when ours was the only entry', async () => {
    const file = path.join(t.home, '.cursor', 'mcp.json');
    await writeConfig(path.join(t.home, '.cursor', 'keep'), '');
    await install('cursor', linuxOptions(t));
    await uninstall('cursor', linuxOptions(t));
    expect(await readJson(file)).toEqual({ mcpServers: {} });
  });

  it('changes nothing when our entry is absent or the file is missing', async () => {
    const file = path.join(t.home, '.cursor', 'mcp.json');
    await writeConfig(path.join(t.home, '.cursor', 'keep'), '');
    expect((await uninstall('cursor', linuxOptions(t))).changed).toBe(false);
    await expect(stat(file)).rejects.toThrow();

    const text = '{"mcpServers":{"x":{"command":"x"}}}';
    await writeFile(file, text);
    const mtime = (await stat(file)).mtimeMs;
    expect((await uninstall('cursor', linuxOptions(t))).changed).toBe(false);
    expect(await readText(file)).toBe(text);
    expect((await stat(file)).mtimeMs).toBe(mtime);
    await expect(stat(file + BACKUP_SUFFIX)).rejects.toThrow();
  });
});

describe('Windows layouts', () => {
  const classicFile = () => path.join(t.home, 'AppData', 'Roaming', 'Claude', 'claude_desktop_config.json');
  const msixFile = () =>
    path.join(
      t.home,
      ...['AppData', 'Local', 'Packages', 'Claude_pzs8sxrjxfjjc', 'LocalCache', 'Roaming', 'Claude'],
      'claude_desktop_config.json',
    );

  it("writes the Store (MSIX) build's file when it exists, leaving %APPDATA%'s alone", async () => {
    await writeConfig(classicFile(), '{"mcpServers":{}}');
    await writeConfig(msixFile(), CLAUDE_DESKTOP_CONFIG);
    const result = await install('claude-desktop', windowsOptions(t));

    expect(result.client.configPath).toBe(msixFile());
    expect((await readJson(msixFile())).mcpServers).toHaveProperty('roam-companion');
    expect(await readText(classicFile())).toBe('{"mcpServers":{}}');
  });

  it('uses %APPDATA%\\Claude for the classic installer', async () => {
    await writeConfig(classicFile(), CLAUDE_DESKTOP_CONFIG);
    const result = await install('claude-desktop', windowsOptions(t));
    expect(result.client.configPath).toBe(classicFile());
    expect((await readJson(classicFile())).mcpServers).toHaveProperty('roam-companion');
  });

  it("puts VS Code's file under %APPDATA%\\Code\\User and Cursor's under the home", async () => {
    await writeConfig(path.join(t.home, 'AppData', 'Roaming', 'Code', 'User', 'settings.json'), '{}');
    await writeConfig(path.join(t.home, '.cursor', 'argv.json'), '{}');
    const views = await listClients(windowsOptions(t));
    expect(views.find((v) => v.id === 'vscode')).toMatchObject({
      state: 'not-installed',
      configPath: path.join(t.home, 'AppData', 'Roaming', 'Code', 'User', 'mcp.json'),
    });
    expect(views.find((v) => v.id === 'cursor')?.configPath).toBe(path.join(t.home, '.cursor', 'mcp.json'));
    expect(views.find((v) => v.id === 'claude-desktop')?.state).toBe('unavailable');
  });
});

describe('symlinked configs (dotfile managers)', () => {
  it('writes through the link and keeps it a link', async () => {
    const real = path.join(t.home, 'dotfiles', 'mcp.json');
    await writeConfig(real, '{"mcpServers":{"x":{"command":"x"}}}');
    const link = path.join(t.home, '.cursor', 'mcp.json');
    await writeConfig(path.join(t.home, '.cursor', 'keep'), '');
    await symlink(real, link);

    await install('cursor', linuxOptions(t));
    expect((await stat(link)).isFile()).toBe(true);
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(Object.keys((await readJson(real)).mcpServers as object)).toEqual(['x', 'roam-companion']);
  });
});
