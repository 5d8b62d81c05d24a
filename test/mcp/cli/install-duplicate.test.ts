/**
 * The clone as Claude Code's plugin or Gemini CLI's extension brings a server named
 * roam-companion, and so does `roam-mcp install`: through the built bin, with each package laid
 * out where its client's CLI records it (Claude Code 2.1's `enabledPlugins`, Gemini CLI 0.61's
 * extension folder), install says the client now has two and how to keep one, and doctor warns;
 * without the package neither says a word about it.
 */
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { DoctorReport } from '../../../src-mcp/doctor/index.ts';
import { binEnv, runBin } from '../../harness/mcp-bin.ts';
import { removeDir, tempDir } from '../../harness/temp-dir.ts';

let home: string;

beforeEach(async () => {
  home = await tempDir('roam-duplicate-');
  await mkdir(path.join(home, 'bin'));
  for (const program of ['claude', 'gemini']) {
    const file = path.join(home, 'bin', program);
    await writeFile(file, '#!/bin/sh\nexit 0\n');
    await chmod(file, 0o755);
  }
});
afterEach(() => removeDir(home));

const roamMcp = (...args: string[]) =>
  runBin(args, {
    env: binEnv(home, { ROAM_COMPANION_DATA_DIR: path.join(home, 'data'), PATH: path.join(home, 'bin') }),
    cwd: home,
  });

const clientCheck = async (name: string) => {
  const run = await roamMcp('doctor', '--json');
  return (JSON.parse(run.stdout) as DoctorReport).checks.find((check) => check.name === name)!;
};

it('Gemini CLI with the extension linked: install and doctor say there are two roam-companion servers', async () => {
  const alone = await roamMcp('install', 'gemini-cli', '--transport', 'stdio');
  expect(alone.code, alone.stderr).toBe(0);
  expect(alone.stderr).not.toContain('two servers');
  expect((await clientCheck('Gemini CLI')).status).toBe('ok');

  // What `gemini extensions link .` leaves in ~/.gemini/extensions.
  const extension = path.join(home, '.gemini', 'extensions', 'roam-companion');
  await mkdir(extension, { recursive: true });
  await writeFile(
    path.join(extension, '.gemini-extension-install.json'),
    JSON.stringify({ source: '/clone', type: 'link' }),
  );
  const again = await roamMcp('install', 'gemini-cli', '--transport', 'stdio');
  expect(again.code).toBe(0);
  expect(again.stderr).toContain(
    'Note: Gemini CLI also has Roam Companion from the roam-companion extension: two servers named roam-companion',
  );
  expect(again.stderr).toContain(
    '`gemini extensions uninstall roam-companion`, or `roam-mcp uninstall gemini-cli`',
  );
  expect(await clientCheck('Gemini CLI')).toMatchObject({
    status: 'warn',
    detail: expect.stringContaining(
      'from the roam-companion extension too: two servers named roam-companion',
    ),
    fix: expect.stringContaining('gemini extensions uninstall roam-companion'),
  });
});

it('Claude Code with the plugin enabled: install and doctor say there are two roam-companion servers', async () => {
  const entry = { type: 'stdio', command: 'node', args: ['/x/roam-mcp.mjs'] };
  await writeFile(
    path.join(home, '.claude.json'),
    JSON.stringify({ mcpServers: { 'roam-companion': entry } }),
  );
  expect((await roamMcp('install', 'claude-code', '--transport', 'stdio')).stderr).not.toContain(
    'two servers',
  );
  expect((await clientCheck('Claude Code')).status).not.toBe('ok');
  expect((await clientCheck('Claude Code')).detail).not.toContain('two servers');

  // What `claude plugin install roam-companion@roam-companion` writes into ~/.claude/settings.json.
  await mkdir(path.join(home, '.claude'));
  await writeFile(
    path.join(home, '.claude', 'settings.json'),
    JSON.stringify({ enabledPlugins: { 'roam-companion@roam-companion': true } }),
  );
  const run = await roamMcp('install', 'claude-code', '--transport', 'stdio');
  expect(run.code).toBe(0);
  expect(run.stderr).toContain(
    'Note: Claude Code also has Roam Companion from the roam-companion plugin (roam-companion@roam-companion): two servers named roam-companion (Claude Code runs both',
  );
  expect(run.stderr).toContain('`claude plugin uninstall roam-companion@roam-companion`');
  expect(await clientCheck('Claude Code')).toMatchObject({
    status: 'warn',
    fix: expect.stringContaining('roam-mcp uninstall claude-code'),
  });
  // A plugin switched off brings no server.
  await writeFile(
    path.join(home, '.claude', 'settings.json'),
    JSON.stringify({ enabledPlugins: { 'roam-companion@roam-companion': false } }),
  );
  expect((await clientCheck('Claude Code')).detail).not.toContain('two servers');
});
