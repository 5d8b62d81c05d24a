import { stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { InstallerError } from '../../../src-mcp/installers/installer-error.ts';
import { getClient, install, previewChange, uninstall } from '../../../src-mcp/installers/installer.ts';
import { BACKUP_SUFFIX } from '../../../src-mcp/installers/installer.ts';
import {
  linuxClaudeDesktopFile,
  linuxOptions,
  readText,
  tempHomeForEachTest,
  writeConfig,
} from './helpers.ts';

const t = tempHomeForEachTest();

const cursorFile = () => path.join(t.home, '.cursor', 'mcp.json');
const claudeFile = () => linuxClaudeDesktopFile(t);

async function expectRefusedAndUntouched(
  file: string,
  text: string,
  client: 'cursor' | 'claude-desktop' | 'vscode',
  message: RegExp,
): Promise<void> {
  await writeConfig(file, text);
  const before = await stat(file);
  for (const attempt of [
    () => install(client, linuxOptions(t)),
    () => uninstall(client, linuxOptions(t)),
    () => previewChange(client, 'install', linuxOptions(t)),
  ]) {
    const error = await attempt().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InstallerError);
    expect((error as InstallerError).code).toBe('CONFIG_INVALID');
    expect((error as InstallerError).message).toMatch(message);
    expect((error as InstallerError).message).toContain(file);
  }
  expect(await readText(file)).toBe(text);
  expect((await stat(file)).mtimeMs).toBe(before.mtimeMs);
  await expect(stat(file + BACKUP_SUFFIX)).rejects.toThrow();
  // The status explains the problem instead of offering an install that would fail.
  expect(await getClient(client, linuxOptions(t))).toMatchObject({
    state: 'unavailable',
    message: expect.stringMatching(message),
  });
}

describe('files we refuse to edit are left byte-for-byte untouched', () => {
  it('a syntax error, named by line and column', async () => {
    const text = '{\n  "mcpServers": {\n    "a": { "command": "a" }\n    "b": {}\n  }\n}\n';
    await expectRefusedAndUntouched(cursorFile(), text, 'cursor', /missing comma at line 4, column 5/);
  });

  it('a truncated file', async () => {
    await expectRefusedAndUntouched(
      claudeFile(),
      '{"mcpServers": {"a": {',
      'claude-desktop',
      /not valid JSON/,
    );
  });

  it('comments in a plain-JSON config (Claude Desktop would not load it either)', async () => {
    await expectRefusedAndUntouched(
      claudeFile(),
      '{\n  // mine\n  "mcpServers": {}\n}\n',
      'claude-desktop',
      /comment.*line 2, column 3/,
    );
  });

  it('a top level that is not an object', async () => {
    await expectRefusedAndUntouched(
      cursorFile(),
      '[{"command": "x"}]\n',
      'cursor',
      /holds an array at the top level/,
    );
  });

  it('a server map that is not an object', async () => {
    await expectRefusedAndUntouched(
      cursorFile(),
      '{"mcpServers": ["x"]}\n',
      'cursor',
      /"mcpServers" is an array/,
    );
    await expectRefusedAndUntouched(
      path.join(t.home, '.config', 'Code', 'User', 'mcp.json'),
      '{ "servers": null }',
      'vscode',
      /"servers" is null/,
    );
  });

  it('never echoes the file content (which may hold tokens) in the error', async () => {
    const token = 'roam-graph-local-token-R8KP2tPuxcUflAo_7tkc5lOPgo7ki';
    await writeConfig(cursorFile(), `{"mcpServers": {"roam": {"env": {"ROAM_API_TOKEN": "${token}" oops}}}}`);
    const error = (await install('cursor', linuxOptions(t)).catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(/line 1, column \d+/);
    expect(error.message).not.toContain(token);
  });
});

describe('missing clients', () => {
  it('reports a client whose folder is missing as unavailable and refuses to create it', async () => {
    const view = await getClient('claude-desktop', linuxOptions(t));
    expect(view.state).toBe('unavailable');
    expect(view.message).toMatch(
      /Claude Desktop doesn't seem to be installed: .*\.config\/Claude doesn't exist\. Install Claude Desktop/,
    );
    await expect(install('claude-desktop', linuxOptions(t))).rejects.toMatchObject({
      code: 'CLIENT_UNAVAILABLE',
    });
    await expect(stat(path.dirname(claudeFile()))).rejects.toThrow();
  });
});
