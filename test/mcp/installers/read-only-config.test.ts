/**
 * A read-only client config (0444: the user's choice, or a file managed by another tool) is
 * refused and left as it is, mode included; an atomic rename would otherwise override it.
 */
import { chmod } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { InstallerError } from '../../../src-mcp/installers/installer-error.ts';
import { install, uninstall } from '../../../src-mcp/installers/installer.ts';
import {
  CLAUDE_DESKTOP_CONFIG,
  linuxClaudeDesktopFile,
  linuxOptions,
  modeOf,
  readText,
  tempHomeForEachTest,
  writeConfig,
} from './helpers.ts';

const t = tempHomeForEachTest();

const claudeFile = () => linuxClaudeDesktopFile(t);

describe('a read-only client config', () => {
  it('is refused with the reason and the fix, and left byte for byte with its mode', async () => {
    await writeConfig(claudeFile(), CLAUDE_DESKTOP_CONFIG);
    await chmod(claudeFile(), 0o444);
    const error = await install('claude-desktop', linuxOptions(t)).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InstallerError);
    expect((error as InstallerError).message).toMatch(/is read-only \(mode 444\).*chmod u\+w/);
    expect(await readText(claudeFile())).toBe(CLAUDE_DESKTOP_CONFIG);
    expect(await modeOf(claudeFile())).toBe(0o444);
  });

  it('nothing to remove from a read-only config is not an error', async () => {
    await writeConfig(claudeFile(), CLAUDE_DESKTOP_CONFIG);
    await chmod(claudeFile(), 0o444);
    await expect(uninstall('claude-desktop', linuxOptions(t))).resolves.toMatchObject({ changed: false });
  });
});
