/**
 * Options the user added to our entry (`--read-only`, `--config`, env) survive `install` and show
 * in `status`: through the built bin, on real config files.
 */
import { spawnSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readJson, readText, tempHomeForEachTest, writeConfig } from './helpers.ts';

const bundle = realpathSync(path.resolve(fileURLToPath(import.meta.url), '../../../../dist/roam-mcp.mjs'));
const TOKEN = 'roam-graph-local-token-R8KP2tPuxcUflAo_7tkc5lOPgo7ki';

const t = tempHomeForEachTest();

const cursorFile = () => path.join(t.home, '.cursor', 'mcp.json');

function roamMcp(...args: string[]) {
  const result = spawnSync(process.execPath, [bundle, ...args], {
    env: { PATH: process.env.PATH, HOME: t.home },
    encoding: 'utf8',
    timeout: 15_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const withEntry = (entry: unknown) =>
  `${JSON.stringify({ mcpServers: { other: { command: 'other' }, 'roam-companion': entry } }, null, 2)}\n`;

function cursorView(stdout: string) {
  const views = JSON.parse(stdout) as { id: string; state: string; customOptions?: unknown }[];
  return views.find((view) => view.id === 'cursor');
}

describe('user-added options in our entry', () => {
  it('an installed entry with --read-only and env is "installed" with custom options, and install keeps it byte for byte', async () => {
    const text = withEntry({
      command: process.execPath,
      args: [bundle, '--read-only'],
      env: { ROAM_GRAPH: 'work', ROAM_API_TOKEN: TOKEN },
    });
    await writeConfig(cursorFile(), text);

    const json = roamMcp('status', '--json');
    expect(cursorView(json.stdout)).toMatchObject({
      state: 'installed',
      customOptions: { args: ['--read-only'], env: ['ROAM_GRAPH', 'ROAM_API_TOKEN'] },
    });
    expect(json.stdout).not.toContain(TOKEN);
    const human = roamMcp('status');
    expect(human.stdout).toMatch(
      /Cursor +installed +\S*mcp\.json\n +With your options .*: --read-only; env ROAM_GRAPH, ROAM_API_TOKEN/,
    );
    expect(human.stdout).not.toContain(TOKEN);

    const again = roamMcp('install', 'cursor');
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('already installed');
    expect(await readText(cursorFile())).toBe(text);
  });

  it('updating a stale entry replaces our part and keeps the user args, env and fields', async () => {
    const old = path.join(t.home, 'old-place', 'roam-mcp.mjs');
    await writeConfig(
      cursorFile(),
      withEntry({
        command: '/usr/old/node',
        args: [old, '--read-only', '--config', '~/work-graphs.json'],
        env: { ROAM_MCP_NO_LAUNCH: '1' },
        description: 'my Roam',
      }),
    );
    expect(cursorView(roamMcp('status', '--json').stdout)).toMatchObject({ state: 'stale' });

    const preview = roamMcp('install', 'cursor', '--dry-run');
    const lines = preview.stdout.split('\n');
    expect(lines.filter((line) => line.startsWith('+')).map((line) => line.slice(1).trim())).toContain(
      `"${bundle}",`,
    );
    expect(lines.some((line) => line.trim() === '"--read-only",')).toBe(true);
    expect(preview.stdout).not.toMatch(/^- .*--read-only/m);
    const run = roamMcp('install', 'cursor');
    expect(run.code).toBe(0);
    expect((await readJson(cursorFile())).mcpServers).toEqual({
      other: { command: 'other' },
      'roam-companion': {
        command: process.execPath,
        args: [bundle, '--read-only', '--config', '~/work-graphs.json'],
        env: { ROAM_MCP_NO_LAUNCH: '1' },
        description: 'my Roam',
      },
    });
    expect(cursorView(roamMcp('status', '--json').stdout)).toMatchObject({
      state: 'installed',
      customOptions: { args: ['--read-only', '--config', '~/work-graphs.json'], env: ['ROAM_MCP_NO_LAUNCH'] },
    });
  });

  it('a user path in the options that does not exist does not make our entry stale', async () => {
    await writeConfig(
      cursorFile(),
      withEntry({ command: process.execPath, args: [bundle, '--config', path.join(t.home, 'missing.json')] }),
    );
    expect(cursorView(roamMcp('status', '--json').stdout)).toMatchObject({ state: 'installed' });
  });

  it('an entry without user additions reports no custom options', async () => {
    await writeConfig(cursorFile(), '{}');
    roamMcp('install', 'cursor');
    const view = cursorView(roamMcp('status', '--json').stdout);
    expect(view).toMatchObject({ state: 'installed' });
    expect(view).not.toHaveProperty('customOptions');
  });
});
