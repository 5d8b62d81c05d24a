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

it('--help (also of each command) and --version answer on stdout and exit 0, as CLIs do (no server runs then)', () => {
  for (const flag of ['--help', '-h', 'help']) {
    const help = run(flag);
    expect(help.status).toBe(0);
    expect(help.stderr).toBe('');
    expect(help.stdout).toMatch(/^Usage:/);
    expect(help.stdout).toMatch(/roam-mcp connect/);
  }
  const { version: expected } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    version: string;
  };
  for (const flag of ['--version', '-v']) {
    const version = run(flag);
    expect(version.status).toBe(0);
    expect(version.stderr).toBe('');
    expect(version.stdout).toBe(`roam-mcp ${expected}\n`);
  }
  for (const command of ['connect', 'install', 'changes', 'undo', 'serve', 'key']) {
    const help = run(command, '--help');
    expect(help.status, command).toBe(0);
    expect(help.stderr, command).toBe('');
    expect(help.stdout, command).toMatch(new RegExp(`roam-mcp ${command}`));
  }
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
