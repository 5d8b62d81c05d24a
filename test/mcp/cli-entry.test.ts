/** The bin's own commands: help, version, mistakes, and routing to the installers. */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { binCommand, ROOT, removeHome, binEnv, tempHome } from '../harness/mcp-bin.ts';

let home: string;
beforeAll(async () => {
  home = await tempHome();
});
afterAll(() => removeHome(home));

const run = (...args: string[]) =>
  spawnSync(...binCommand([...args]), { env: binEnv(home), encoding: 'utf8', input: '' });

it('--help and --version answer on stderr and exit 0, leaving stdout to JSON-RPC', () => {
  const help = run('--help');
  expect(help.status).toBe(0);
  expect(help.stdout).toBe('');
  expect(help.stderr).toMatch(/roam-mcp connect/);
  const version = run('--version');
  const { version: expected } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    version: string;
  };
  expect(version.stderr.trim()).toBe(`roam-mcp ${expected}`);
});

it('an unknown argument exits 2 with the usage', () => {
  const bad = run('--frobnicate');
  expect(bad.status).toBe(2);
  expect(bad.stderr).toMatch(/Unknown argument '--frobnicate'/);
  expect(bad.stderr).toMatch(/Usage:/);
});

it('install, uninstall and status go to the client installers', () => {
  const status = run('status');
  expect(`${status.stdout}${status.stderr}`).toMatch(/Claude Desktop/);
  const install = run('install', 'no-such-client');
  expect(install.status).not.toBe(0);
  expect(install.stderr).toMatch(/no-such-client/);
});
