/**
 * The published package as a user gets it: `npm pack` from this repo (its `prepack` builds the
 * bin), `npm install --offline` of the tarball into an empty project (only possible with zero
 * runtime dependencies), then a real MCP `tools/list` through the installed `.bin/roam-mcp`.
 */
import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binCommand, ROOT, removeHome, binEnv, tempHome } from '../harness/mcp-bin.ts';

const run = promisify(execFile);

/** npm as a user runs it: no inherited npm_config_* from `npm test`, a private cache. */
function npm(args: string[], cwd: string, cache: string) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
  return run('npm', [...args, '--cache', cache], { cwd, env, maxBuffer: 16 * 1024 * 1024 });
}

async function toolNames(
  command: string,
  args: string[],
  home: string,
  extra: { cwd?: string; env?: Record<string, string> } = {},
): Promise<string[]> {
  const client = new Client({ name: 'package-test', version: '1.0.0' });
  const env = binEnv(home, extra.env);
  await client.connect(new StdioClientTransport({ command, args, env, cwd: extra.cwd, stderr: 'pipe' }));
  try {
    return (await client.listTools()).tools.map((tool) => tool.name);
  } finally {
    await client.close();
  }
}

let work: string;
let tarball: string;
let packedFiles: string[];

beforeAll(async () => {
  work = await tempHome('roam-package-');
  const cache = path.join(work, 'npm-cache');
  const { stdout } = await npm(['pack', '--json', '--pack-destination', work], ROOT, cache);
  const [packed] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
  tarball = path.join(work, packed!.filename);
  packedFiles = packed!.files.map((file) => file.path).sort();
}, 120_000);
afterAll(() => removeHome(work));

describe('npm package', () => {
  it('ships the bin, its docs and the agent skill only', () => {
    // The bin's entry imports its chunks (scripts/build.mjs); their names carry a content hash.
    const chunks = packedFiles.filter((file) => file.startsWith('dist/roam-mcp-chunks/'));
    expect(chunks.length).toBeGreaterThan(0);
    // And the change-review app's page, read from there when a host asks for it.
    expect(chunks.filter((file) => !/^dist\/roam-mcp-chunks\/[\w-]+\.mjs$/.test(file))).toEqual([
      'dist/roam-mcp-chunks/change-review.html',
    ]);
    expect(packedFiles.filter((file) => !chunks.includes(file))).toEqual([
      'LICENSE',
      'README.md',
      'dist/roam-mcp.mjs',
      'docs/clients.md',
      'docs/guide.md',
      'docs/mcp.md',
      'docs/remote.md',
      'package.json',
      'skills/roam-companion/SKILL.md',
    ]);
  });

  it('declares no runtime dependencies and no "main" (which npm would always publish)', async () => {
    const manifest = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8'));
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(manifest.optionalDependencies ?? {}).toEqual({});
    expect(manifest.peerDependencies ?? {}).toEqual({});
    expect(manifest.main).toBeUndefined();
  });

  it('installs offline into an empty project and answers tools/list through .bin/roam-mcp', async () => {
    const project = path.join(work, 'project');
    await mkdir(project);
    await writeFile(
      path.join(project, 'package.json'),
      JSON.stringify({ name: 'probe', version: '1.0.0', private: true }),
    );
    await npm(['install', '--offline', '--no-audit', '--no-fund', tarball], project, path.join(work, 'c2'));

    const installed = (await readdir(path.join(project, 'node_modules'))).filter((n) => !n.startsWith('.'));
    expect(installed).toEqual(['roam-companion']);
    const home = path.join(work, 'home');
    await mkdir(home);
    const viaPackage = await toolNames(path.join(project, 'node_modules', '.bin', 'roam-mcp'), [], home);
    const viaRepoBuild = await toolNames(...binCommand(), home);
    expect(viaPackage.length).toBeGreaterThan(0);
    expect(viaPackage).toEqual(viaRepoBuild);

    // The entry `install` writes when run from npx's cache (launcher.ts) starts the same server;
    // offline, npx finds the package installed in the project instead of fetching it.
    const npxEnv = { npm_config_offline: 'true', npm_config_cache: path.join(work, 'c2') };
    const viaNpx = await toolNames('npx', ['-y', '-p', 'roam-companion', 'roam-mcp'], home, {
      cwd: project,
      env: npxEnv,
    });
    expect(viaNpx).toEqual(viaRepoBuild);
  }, 120_000);
});
