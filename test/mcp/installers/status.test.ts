import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InstallerOptions } from '../../../src-mcp/installers/installer-options.ts';
import { getClient, install, listClients } from '../../../src-mcp/installers/installer.ts';
import { macOptions, makeTempHome, readJson, writeConfig, type TempHome } from './helpers.ts';

let t: TempHome;
beforeEach(async () => {
  t = await makeTempHome();
  await writeConfig(path.join(t.home, '.cursor', 'argv.json'), '{}');
});
afterEach(() => t.cleanup());

const cursorFile = () => path.join(t.home, '.cursor', 'mcp.json');

/** The tray's launcher: the app's executable with --mcp, at a real path. */
async function trayApp(folder: string): Promise<InstallerOptions> {
  const exe = path.join(t.home, folder, 'Roam Companion.app', 'Contents', 'MacOS', 'Roam Companion');
  await mkdir(path.dirname(exe), { recursive: true });
  await writeFile(exe, '');
  return { ...macOptions(t), launcher: { command: exe, args: ['--mcp'] } };
}

describe('listClients', () => {
  it('lists every client in order with its state and config path', async () => {
    const views = await listClients(macOptions(t));
    expect(views.map((v) => [v.id, v.name, v.state])).toEqual([
      ['claude-desktop', 'Claude Desktop', 'unavailable'],
      ['claude-code', 'Claude Code', 'unavailable'],
      ['cursor', 'Cursor', 'not-installed'],
      ['vscode', 'VS Code', 'unavailable'],
      ['gemini-cli', 'Gemini CLI', 'unavailable'],
      ['codex', 'Codex', 'unavailable'],
    ]);
    expect(views[2]!.configPath).toBe(cursorFile());
  });
});

describe('stale entries', () => {
  it('detects an app that was moved, then reinstall points the entry at the new place', async () => {
    const before = await trayApp('Downloads');
    await install('cursor', before);
    expect((await getClient('cursor', before)).state).toBe('installed');

    await rename(path.join(t.home, 'Downloads'), path.join(t.home, 'Applications'));
    const after = {
      ...before,
      launcher: { ...before.launcher, command: before.launcher.command.replace('Downloads', 'Applications') },
    };
    const view = await getClient('cursor', after);
    expect(view.state).toBe('stale');
    expect(view.message).toContain(`launches ${before.launcher.command}, which no longer exists`);
    expect(view.message).toMatch(/Reinstall to update it\.$/);

    const result = await install('cursor', after);
    expect(result.client.state).toBe('installed');
    expect(
      ((await readJson(cursorFile())).mcpServers as Record<string, { command: string }>)['roam-companion']!
        .command,
    ).toBe(after.launcher.command);
  });

  it('detects a removed roam-mcp script', async () => {
    await install('cursor', macOptions(t));
    await rm(t.launcher.args[0]!);
    const view = await getClient('cursor', macOptions(t));
    expect(view).toMatchObject({
      state: 'stale',
      message: expect.stringContaining(`${t.launcher.args[0]}, which no longer exists`),
    });
  });

  it('detects an entry that launches another copy that still exists', async () => {
    const app = await trayApp('Applications');
    await install('cursor', app);
    const view = await getClient('cursor', macOptions(t));
    expect(view.state).toBe('stale');
    expect(view.message).toContain(
      `not this copy of Roam Companion ("${t.launcher.command} ${t.launcher.args[0]}")`,
    );
  });

  it('treats a non-object entry as stale and an untyped VS Code entry as current', async () => {
    await writeConfig(cursorFile(), '{"mcpServers": {"roam-companion": "broken"}}');
    expect((await getClient('cursor', macOptions(t))).state).toBe('stale');

    const vscodeFile = path.join(t.home, 'Library', 'Application Support', 'Code', 'User', 'mcp.json');
    await writeConfig(
      vscodeFile,
      JSON.stringify({
        servers: { 'roam-companion': { command: t.launcher.command, args: t.launcher.args } },
      }),
    );
    expect((await getClient('vscode', macOptions(t))).state).toBe('installed');
  });

  it('does not call a relative command (found through PATH) missing', async () => {
    const opts = { ...macOptions(t), launcher: { command: 'npx', args: ['roam-mcp'] } };
    await install('cursor', opts);
    expect((await getClient('cursor', opts)).state).toBe('installed');
    expect((await stat(cursorFile())).isFile()).toBe(true);
  });
});
