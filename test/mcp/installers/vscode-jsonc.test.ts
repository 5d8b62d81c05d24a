import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { install, uninstall } from '../../../src-mcp/installers/installer.ts';
import {
  linuxOptions,
  macOptions,
  readText,
  tempHomeForEachTest,
  VSCODE_CONFIG,
  writeConfig,
} from './helpers.ts';
import { parse } from 'jsonc-parser/lib/esm/main.js';

const t = tempHomeForEachTest();

const linuxFile = () => path.join(t.home, '.config', 'Code', 'User', 'mcp.json');

describe("VS Code's JSONC mcp.json", () => {
  it('adds a stdio entry under "servers" and keeps comments, inputs and trailing commas', async () => {
    await writeConfig(linuxFile(), VSCODE_CONFIG);
    await install('vscode', linuxOptions(t));
    const text = await readText(linuxFile());

    for (const line of VSCODE_CONFIG.split('\n')) expect(text).toContain(line);
    const config = parse(text, [], { allowTrailingComma: true });
    expect(config.servers['roam-companion']).toEqual({
      type: 'stdio',
      command: t.launcher.command,
      args: t.launcher.args,
    });
    expect(Object.keys(config.servers)).toEqual(['perplexity', 'roam', 'roam-companion']);
  });

  it('uninstall gives back the original text exactly', async () => {
    await writeConfig(linuxFile(), VSCODE_CONFIG);
    await install('vscode', linuxOptions(t));
    await uninstall('vscode', linuxOptions(t));
    expect(await readText(linuxFile())).toBe(VSCODE_CONFIG);
  });

  it("follows the file's tabs and CRLF line endings", async () => {
    const text = '{\r\n\t"servers": {\r\n\t\t"a": { "command": "a" }\r\n\t}\r\n}\r\n';
    await writeConfig(linuxFile(), text);
    await install('vscode', linuxOptions(t));
    const after = await readText(linuxFile());
    expect(after.replace(/\r\n/g, '')).not.toContain('\n');
    expect(after).toContain('\t\t"roam-companion": {\r\n\t\t\t"type": "stdio"');
  });

  it('keeps a UTF-8 byte order mark', async () => {
    await writeConfig(linuxFile(), '\uFEFF{ "servers": {} }\n');
    await install('vscode', linuxOptions(t));
    expect((await readText(linuxFile())).startsWith('\uFEFF{')).toBe(true);
  });

  it('uses ~/Library/Application Support/Code/User on macOS and honours XDG_CONFIG_HOME on Linux', async () => {
    const macFile = path.join(t.home, 'Library', 'Application Support', 'Code', 'User', 'mcp.json');
    await writeConfig(macFile, '{}');
    expect((await install('vscode', macOptions(t))).client.configPath).toBe(macFile);

    const xdg = path.join(t.home, 'xdg');
    await writeConfig(path.join(xdg, 'Code', 'User', 'settings.json'), '{}');
    const result = await install('vscode', linuxOptions(t, { XDG_CONFIG_HOME: xdg }));
    expect(result.client.configPath).toBe(path.join(xdg, 'Code', 'User', 'mcp.json'));
  });

  it('honours VSCODE_APPDATA before the platform folder, as VS Code does, and leaves the usual file alone', async () => {
    const usual = linuxFile();
    await writeConfig(usual, '{ "servers": {} }\n');
    const appData = path.join(t.home, 'vscode-data');
    const moved = path.join(appData, 'Code', 'User', 'mcp.json');
    await writeConfig(moved, '{ "servers": {} }\n');

    const result = await install('vscode', linuxOptions(t, { VSCODE_APPDATA: appData }));

    expect(result.client.configPath).toBe(moved);
    expect(Object.keys(parse(await readText(moved)).servers)).toEqual(['roam-companion']);
    expect(await readText(usual)).toBe('{ "servers": {} }\n');
  });
});
