import { stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLAUDE_CODE_REMOVE_COMMAND, claudeCodeAddCommand } from '../../../src-mcp/installers/claude-code.ts';
import { getClient, install, uninstall } from '../../../src-mcp/installers/installer.ts';
import { KeyStore } from '../../../src-mcp/data-folder/key-store.ts';
import { linuxOptions, readText, tempHomeForEachTest, writeConfig } from './helpers.ts';

const t = tempHomeForEachTest();

describe('Claude Code command', () => {
  it('quotes paths with spaces for POSIX shells and for Windows', () => {
    const launcher = {
      command: '/Applications/Roam Companion.app/Contents/MacOS/Roam Companion',
      args: ['--mcp'],
    };
    expect(claudeCodeAddCommand({ launcher, platform: 'darwin' })).toBe(
      "claude mcp add --scope user roam-companion -- '/Applications/Roam Companion.app/Contents/MacOS/Roam Companion' --mcp",
    );
    expect(
      claudeCodeAddCommand({ launcher: { command: "/it's/node", args: ['/a/b.mjs'] }, platform: 'linux' }),
    ).toBe(`claude mcp add --scope user roam-companion -- '/it'\\''s/node' /a/b.mjs`);
    expect(
      claudeCodeAddCommand({
        launcher: { command: 'C:\\Program Files\\Roam Companion\\Roam Companion.exe', args: ['--mcp'] },
        platform: 'win32',
      }),
    ).toBe(
      'claude mcp add --scope user roam-companion -- "C:\\Program Files\\Roam Companion\\Roam Companion.exe" --mcp',
    );
  });
});

describe('Claude Code status, read from ~/.claude.json', () => {
  const stateFile = () => path.join(t.home, '.claude.json');
  const written = (entry: object) =>
    JSON.stringify({ numStartups: 3, mcpServers: { 'roam-companion': entry } });

  it('is unavailable without Claude Code, but still offers the command', async () => {
    expect(await getClient('claude-code', linuxOptions(t))).toMatchObject({
      state: 'unavailable',
      command: claudeCodeAddCommand({ launcher: t.launcher, platform: 'linux' }),
    });
  });

  it('is installed when `claude mcp add` wrote our entry, and stale when it launches something else', async () => {
    await writeConfig(
      stateFile(),
      written({ type: 'stdio', command: t.launcher.command, args: t.launcher.args, env: {} }),
    );
    expect(await getClient('claude-code', linuxOptions(t))).toMatchObject({
      state: 'installed',
      message: expect.stringContaining(CLAUDE_CODE_REMOVE_COMMAND),
    });

    await writeConfig(stateFile(), written({ type: 'stdio', command: '/gone/node', args: [] }));
    expect(await getClient('claude-code', linuxOptions(t))).toMatchObject({
      state: 'stale',
      message: expect.stringContaining(`First run: ${CLAUDE_CODE_REMOVE_COMMAND}`),
    });
  });

  it('honours CLAUDE_CONFIG_DIR', async () => {
    const dir = path.join(t.home, 'claude-config');
    await writeConfig(
      path.join(dir, '.claude.json'),
      written({ command: t.launcher.command, args: t.launcher.args }),
    );
    expect((await getClient('claude-code', linuxOptions(t, { CLAUDE_CONFIG_DIR: dir }))).state).toBe(
      'installed',
    );
  });

  it("install and uninstall never write Claude Code's file: they hand back the command", async () => {
    await writeConfig(stateFile(), '{"numStartups": 3}');
    const mtime = (await stat(stateFile())).mtimeMs;
    const added = await install('claude-code', linuxOptions(t));
    expect(added).toMatchObject({
      changed: false,
      client: {
        state: 'not-installed',
        command: claudeCodeAddCommand({ launcher: t.launcher, platform: 'linux' }),
      },
    });
    const removed = await uninstall('claude-code', linuxOptions(t));
    expect(removed.client.command).toBe(CLAUDE_CODE_REMOVE_COMMAND);
    expect(await readText(stateFile())).toBe('{"numStartups": 3}');
    expect((await stat(stateFile())).mtimeMs).toBe(mtime);
  });
});

describe('Claude Code over HTTP', () => {
  const url = 'http://127.0.0.1:39017/mcp';
  const stateFile = () => path.join(t.home, '.claude.json');

  it('without a key (the tray: the key is only in the copy) shows `<key>` and says to copy the command', async () => {
    await writeConfig(stateFile(), '{"numStartups": 3}');
    expect(await getClient('claude-code', { ...linuxOptions(t), http: { url } })).toMatchObject({
      state: 'not-installed',
      command: `claude mcp add --scope user --transport http roam-companion ${url} --header 'Authorization: Bearer <key>'`,
      message: 'Copy this command and run it in a terminal to connect Claude Code.',
    });
    const key = 'roam-mcp-key-ABCDEFGHIJKLMNOPQRSTUVWXYZ012345';
    expect(await getClient('claude-code', { ...linuxOptions(t), http: { url, key } })).toMatchObject({
      command: `claude mcp add --scope user --transport http roam-companion ${url} --header 'Authorization: Bearer ${key}'`,
      message: 'Run this command in a terminal to connect Claude Code.',
    });
  });

  it('an http entry at that URL is installed while its key works, stale once it is revoked; the key is never shown', async () => {
    const keys = new KeyStore({ home: t.home, env: {}, platform: 'linux' });
    const { key } = await keys.create('claude-code', undefined, 'core,navigation');
    await writeConfig(
      stateFile(),
      JSON.stringify({
        mcpServers: { 'roam-companion': { type: 'http', url, headers: { Authorization: `Bearer ${key}` } } },
      }),
    );
    const view = await getClient('claude-code', { ...linuxOptions(t), http: { url } });
    expect(view).toMatchObject({ state: 'installed', transport: 'http', toolsets: ['core', 'navigation'] });
    expect(view.message).toContain('over HTTP');
    expect(JSON.stringify(view)).not.toContain(key);

    await keys.revoke('claude-code');
    const revoked = await getClient('claude-code', { ...linuxOptions(t), http: { url } });
    expect(revoked).toMatchObject({ state: 'stale', transport: 'http' });
    expect(revoked.message).toContain('Its key was revoked or replaced');
    expect(revoked.message).toContain(`First run: ${CLAUDE_CODE_REMOVE_COMMAND}, then this command.`);
    expect(JSON.stringify(revoked)).not.toContain(key);
  });
});
