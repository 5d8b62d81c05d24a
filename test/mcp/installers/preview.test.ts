import { stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BACKUP_SUFFIX, install, previewChange } from '../../../src-mcp/installers/installer.ts';
import {
  CLAUDE_DESKTOP_CONFIG,
  linuxClaudeDesktopFile,
  linuxOptions,
  readText,
  tempHomeForEachTest,
  writeConfig,
} from './helpers.ts';

const t = tempHomeForEachTest();

const claudeFile = () => linuxClaudeDesktopFile(t);

describe('previewChange', () => {
  it('shows the full text before and after, writing nothing', async () => {
    await writeConfig(claudeFile(), CLAUDE_DESKTOP_CONFIG);
    const mtime = (await stat(claudeFile())).mtimeMs;
    const preview = await previewChange('claude-desktop', 'install', linuxOptions(t));

    expect(preview).toMatchObject({ id: 'claude-desktop', action: 'install', configPath: claudeFile() });
    expect(preview.before).toContain('"filesystem"');
    expect(preview.after).toContain(
      `"roam-companion": {\n      "command": ${JSON.stringify(t.launcher.command)}`,
    );
    expect(await readText(claudeFile())).toBe(CLAUDE_DESKTOP_CONFIG);
    expect((await stat(claudeFile())).mtimeMs).toBe(mtime);
    await expect(stat(claudeFile() + BACKUP_SUFFIX)).rejects.toThrow();
  });

  it('hides tokens and keys of other servers in both texts', async () => {
    await writeConfig(claudeFile(), CLAUDE_DESKTOP_CONFIG);
    const preview = await previewChange('claude-desktop', 'install', linuxOptions(t));
    for (const text of [preview.before!, preview.after!]) {
      expect(text).not.toContain('roam-graph-local-token-');
      expect(text).not.toContain('ghp_');
      expect(text).toContain('"ROAM_API_TOKEN": "<hidden>"');
      expect(text).toContain('"ROAM_GRAPH": "my-graph"');
    }
  });

  it('matches what install then writes, and after equals before once installed', async () => {
    await writeConfig(claudeFile(), '{\n  "mcpServers": {}\n}\n');
    const preview = await previewChange('claude-desktop', 'install', linuxOptions(t));
    await install('claude-desktop', linuxOptions(t));
    expect(await readText(claudeFile())).toBe(preview.after);

    const again = await previewChange('claude-desktop', 'install', linuxOptions(t));
    expect(again.after).toBe(again.before);
    const removal = await previewChange('claude-desktop', 'uninstall', linuxOptions(t));
    expect(removal.after).toBe('{\n  "mcpServers": {}\n}\n');
  });

  it('previews a new file as before: null, and an uninstall without a file as no change', async () => {
    await writeConfig(path.join(t.home, '.cursor', 'argv.json'), '{}');
    const creation = await previewChange('cursor', 'install', linuxOptions(t));
    expect(creation.before).toBeNull();
    expect(JSON.parse(creation.after!)).toEqual({
      mcpServers: { 'roam-companion': { command: t.launcher.command, args: t.launcher.args } },
    });
    expect(await previewChange('cursor', 'uninstall', linuxOptions(t))).toMatchObject({
      before: null,
      after: null,
    });
    await expect(stat(path.join(t.home, '.cursor', 'mcp.json'))).rejects.toThrow();
  });

  it('refuses Claude Code with the command to run instead', async () => {
    await expect(previewChange('claude-code', 'install', linuxOptions(t))).rejects.toMatchObject({
      code: 'MANUAL_SETUP',
      message: expect.stringContaining('claude mcp add --scope user roam-companion -- '),
    });
  });
});
