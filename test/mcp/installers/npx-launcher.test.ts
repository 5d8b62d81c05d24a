/**
 * `npx -p roam-companion roam-mcp install <client>` runs a copy in npx's cache, which npm may
 * clear: the entry must ask npx for the package instead of pointing into the cache. The cache is
 * laid out as npm does it (`<cache>/_npx/<hash>/node_modules/<pkg>`, bin linked in `.bin`), with a
 * real copy of the built bin, run through its `.bin` link as npx runs it.
 */
import { spawnSync } from 'node:child_process';
import { copyFile, cp, mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempHome, readJson, readText, writeConfig, type TempHome } from './helpers.ts';

const bundle = path.resolve(fileURLToPath(import.meta.url), '../../../../dist/roam-mcp.mjs');
const NPX_ENTRY = { command: 'npx', args: ['-y', '-p', 'roam-companion', 'roam-mcp'] };

let t: TempHome;
let binLink: string;
let cachedScript: string;
beforeEach(async () => {
  t = await makeTempHome();
  const modules = path.join(t.home, '.npm', '_npx', '6a1c9b2e4f0d7a35', 'node_modules');
  cachedScript = path.join(modules, 'roam-companion', 'dist', 'roam-mcp.mjs');
  await mkdir(path.dirname(cachedScript), { recursive: true });
  await copyFile(bundle, cachedScript);
  const chunks = path.join(path.dirname(bundle), 'roam-mcp-chunks');
  await cp(chunks, path.join(path.dirname(cachedScript), 'roam-mcp-chunks'), { recursive: true });
  await writeFile(path.join(modules, 'roam-companion', 'package.json'), '{"name": "roam-companion"}\n');
  binLink = path.join(modules, '.bin', 'roam-mcp');
  await mkdir(path.dirname(binLink));
  await symlink('../roam-companion/dist/roam-mcp.mjs', binLink);
});
afterEach(() => t.cleanup());

const cursorFile = () => path.join(t.home, '.cursor', 'mcp.json');

/** Runs the cached bin through its `.bin` link, with the environment npx gives it. */
function cachedRoamMcp(...args: string[]) {
  const result = spawnSync(binLink, args, {
    env: {
      PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH}`,
      HOME: t.home,
      npm_command: 'exec',
      npm_lifecycle_event: 'npx',
    },
    encoding: 'utf8',
    timeout: 15_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('roam-mcp run from npx cache', () => {
  it('--dry-run shows an npx entry, says why, and writes nothing', async () => {
    await writeConfig(cursorFile(), '{}\n');
    const run = cachedRoamMcp('install', 'cursor', '--dry-run');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('"command": "npx"');
    expect(run.stdout).not.toContain('_npx');
    expect(run.stderr).toContain(`runs from npx's cache (${cachedScript})`);
    // Cursor's new entry gets the toolsets that fit its tool cap.
    expect(run.stderr).toContain('`npx -y -p roam-companion roam-mcp --tools core,navigation`');
    expect(await readText(cursorFile())).toBe('{}\n');
  });

  it('install writes `npx -y -p roam-companion roam-mcp`, and status sees it installed', async () => {
    await writeConfig(cursorFile(), '{}\n');
    const run = cachedRoamMcp('install', 'cursor');
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("runs from npx's cache");
    expect((await readJson(cursorFile())).mcpServers).toEqual({
      'roam-companion': { ...NPX_ENTRY, args: [...NPX_ENTRY.args, '--tools', 'core,navigation'] },
    });

    const status = JSON.parse(cachedRoamMcp('status', '--json').stdout) as { id: string; state: string }[];
    expect(status.find((view) => view.id === 'cursor')?.state).toBe('installed');
    const again = cachedRoamMcp('install', 'cursor');
    expect(again.stderr).toContain('already installed');
  });

  it('without a config, the setup advice names npx for the package, not a path in its cache', () => {
    const run = cachedRoamMcp(); // stdio server: stdin closes at once, after the startup warning
    expect(run.stderr).toContain("run 'npx -y -p roam-companion roam-mcp connect' in a terminal");
    expect(run.stderr).not.toContain('_npx');
  });

  it('the Claude Code command uses npx too', () => {
    const run = cachedRoamMcp('install', 'claude-code');
    expect(run.stdout).toBe(
      'claude mcp add --scope user roam-companion -- npx -y -p roam-companion roam-mcp\n',
    );
  });
});
