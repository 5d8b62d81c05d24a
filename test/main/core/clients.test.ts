import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toIpcError } from '../../../src-main/core/core-error.ts';
import type { TrayCore } from '../../../src-main/core/tray-core.ts';
import { nextEvent, startCore, tempDirs } from '../helpers.ts';

let dirs: Awaited<ReturnType<typeof tempDirs>>;
let core: TrayCore;
// An existing binary, as the app's own path would be (a missing one shows as stale).
const launcher = { command: process.execPath, args: ['--mcp'] };

beforeAll(async () => {
  dirs = await tempDirs();
  // Only Cursor is "installed" in this home; no env var points anywhere else.
  await mkdir(path.join(dirs.home, '.cursor'));
  ({ core } = startCore(dirs, { launcher, platform: 'linux', env: {} }));
});
afterAll(async () => {
  await core?.close();
  await dirs?.cleanup();
});

describe('clients:* through the installers', () => {
  it('lists every client, Claude Code with the command to copy', async () => {
    const clients = await core.handlers['clients:list'](undefined);
    expect(clients.map((c) => c.id).sort()).toEqual([
      'claude-code',
      'claude-desktop',
      'codex',
      'cursor',
      'gemini-cli',
      'vscode',
    ]);
    expect(clients.find((c) => c.id === 'cursor')?.state).toBe('not-installed');
    expect(clients.find((c) => c.id === 'claude-code')?.command).toContain('--mcp');
  });

  it('previews, then installs the app launcher into Cursor and announces the change', async () => {
    const preview = await core.handlers['clients:preview']({ id: 'cursor', action: 'install' });
    expect(preview.after).toContain('--mcp');
    const changed = nextEvent(core, 'clients:changed', (list) =>
      list.some((c) => c.id === 'cursor' && c.state === 'installed'),
    );
    const { client: installed, changed: fileChanged } = await core.handlers['clients:install']({
      id: 'cursor',
    });
    expect(installed, installed.message).toMatchObject({ state: 'installed' });
    expect(fileChanged).toBe(true);
    await changed;
    const written = JSON.parse(await readFile(path.join(dirs.home, '.cursor/mcp.json'), 'utf8')) as {
      mcpServers: Record<string, { command: string; args: string[] }>;
    };
    expect(Object.values(written.mcpServers)).toEqual([{ command: launcher.command, args: ['--mcp'] }]);
    // The uninstall says where the file as it was before is kept.
    const uninstalled = await core.handlers['clients:uninstall']({ id: 'cursor' });
    expect(uninstalled).toMatchObject({
      client: { state: 'not-installed' },
      changed: true,
      backupPath: path.join(dirs.home, '.cursor/mcp.json.roam-companion-backup'),
    });
  });

  it('writes the chosen toolsets as --tools after --mcp, replacing the old choice and keeping the user’s options', async () => {
    const file = path.join(dirs.home, '.cursor/mcp.json');
    const args = async () =>
      (JSON.parse(await readFile(file, 'utf8')) as { mcpServers: Record<string, { args: string[] }> })
        .mcpServers['roam-companion']?.args;
    const preview = await core.handlers['clients:preview']({
      id: 'cursor',
      action: 'install',
      toolsets: ['core', 'navigation'],
    });
    expect(preview.after).toContain('"--tools"');
    await core.handlers['clients:install']({ id: 'cursor', toolsets: ['core', 'navigation'] });
    expect(await args()).toEqual(['--mcp', '--client', 'cursor', '--tools', 'core,navigation']);
    // The user adds an option by hand; a new choice replaces --tools and keeps it.
    const text = (await readFile(file, 'utf8')).replace(
      '"core,navigation"',
      '"core,navigation", "--read-only"',
    );
    await writeFile(file, text);
    const { client: updated } = await core.handlers['clients:install']({ id: 'cursor', toolsets: ['ui'] });
    expect(await args()).toEqual(['--mcp', '--client', 'cursor', '--tools', 'ui', '--read-only']);
    expect(updated).toMatchObject({
      state: 'installed',
      toolsets: ['ui'],
      customOptions: { args: ['--read-only'], env: [] },
    });
    // Installing without a choice (the CLI's way) leaves the entry's choice alone.
    await core.handlers['clients:install']({ id: 'cursor' });
    expect(await args()).toEqual(['--mcp', '--client', 'cursor', '--tools', 'ui', '--read-only']);
    await core.handlers['clients:uninstall']({ id: 'cursor' });
  });

  it('a launcher with options of its own (the demo’s --home) keeps them once when the toolsets change', async () => {
    const demo = await tempDirs();
    const script = path.join(demo.home, 'demo-mcp.mjs');
    await writeFile(script, '');
    const demoLauncher = { command: process.execPath, args: [script, '--home', demo.home] };
    const { core: demoCore } = startCore(demo, { launcher: demoLauncher, platform: 'linux', env: {} });
    try {
      await mkdir(path.join(demo.home, '.cursor'));
      const file = path.join(demo.home, '.cursor/mcp.json');
      const args = async () =>
        (JSON.parse(await readFile(file, 'utf8')) as { mcpServers: Record<string, { args: string[] }> })
          .mcpServers['roam-companion']?.args;
      await demoCore.handlers['clients:install']({ id: 'cursor' });
      const preview = await demoCore.handlers['clients:preview']({
        id: 'cursor',
        action: 'install',
        toolsets: ['ui'],
      });
      expect(preview.after!.match(/--home/g)).toHaveLength(1);
      await demoCore.handlers['clients:install']({ id: 'cursor', toolsets: ['ui'] });
      expect(await args()).toEqual([script, '--home', demo.home, '--client', 'cursor', '--tools', 'ui']);
      await demoCore.handlers['clients:install']({ id: 'cursor', toolsets: ['core'] });
      expect(await args()).toEqual([script, '--home', demo.home, '--client', 'cursor', '--tools', 'core']);
    } finally {
      await demoCore.close();
      await demo.cleanup();
    }
  });

  it('a client whose config cannot be parsed says "config error", with the reason, not "not available"', async () => {
    const file = path.join(dirs.home, '.cursor/mcp.json');
    await writeFile(file, '{ "mcpServers": { oops');
    const cursor = (await core.handlers['clients:list'](undefined)).find((c) => c.id === 'cursor')!;
    expect(cursor).toMatchObject({ state: 'config-error', message: expect.stringContaining(file) });
    // Not installed at all stays "unavailable".
    const claude = (await core.handlers['clients:list'](undefined)).find((c) => c.id === 'claude-desktop')!;
    expect(claude.state).toBe('unavailable');
    await writeFile(file, '{}\n');
  });

  it('a client that is not installed gives the installer’s code and advice', async () => {
    const error = await core.handlers['clients:install']({ id: 'claude-desktop' }).catch((e: unknown) => e);
    expect(toIpcError(error)).toMatchObject({
      code: 'CLIENT_UNAVAILABLE',
      message: expect.stringMatching(/Claude Desktop/),
    });
  });
});
