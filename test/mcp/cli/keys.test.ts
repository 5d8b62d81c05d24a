/**
 * `roam-mcp key` through the built bin: a new key is printed once (stdout only) and stored only as
 * a hash in a 0600 file of our data folder; `list` shows names and levels, never a key; `revoke`
 * removes it; every bad input says what to do and changes nothing.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { binEnv, runBin } from '../../harness/mcp-bin.ts';
import { removeDir, tempDir } from '../../harness/temp-dir.ts';

let home: string;
let env: Record<string, string>;
const keysFile = () => path.join(home, 'data', 'keys.json');

beforeAll(async () => {
  home = await tempDir('roam-keys-');
  env = binEnv(home, { ROAM_COMPANION_DATA_DIR: path.join(home, 'data') });
});
afterAll(() => removeDir(home));

const key = (...args: string[]) => runBin(['key', ...args], { env, cwd: home });

it('create prints the key once on stdout and stores only its hash, 0600', async () => {
  const made = await key('create', 'claude-code', '--access', 'read-append');
  expect(made.code).toBe(0);
  const printed = made.stdout.trim();
  expect(printed).toMatch(/^roam-mcp-key-[A-Za-z0-9_-]{43}$/);
  expect(made.stderr).not.toContain(printed);
  const stored = await readFile(keysFile(), 'utf8');
  expect(stored).not.toContain(printed);
  expect(stored).not.toContain(printed.slice('roam-mcp-key-'.length, 30));
  expect(JSON.parse(stored)).toMatchObject({ keys: [{ name: 'claude-code', access: 'read-append' }] });
  expect((await stat(keysFile())).mode & 0o777).toBe(0o600);
  const other = await key('create', 'cursor');
  expect(other.stdout.trim()).not.toBe(printed);
});

it('list shows names and levels, never a key', async () => {
  const listed = await key('list');
  expect(listed.code).toBe(0);
  expect(listed.stdout).toMatch(/claude-code\tread-append\tcreated /);
  expect(listed.stdout).toMatch(/cursor\tgraph settings\tcreated /);
  expect(listed.stdout).not.toContain('roam-mcp-key-');
});

it('bad input says what to do and changes nothing', async () => {
  const before = await readFile(keysFile(), 'utf8');
  const cases: Array<[string[], RegExp]> = [
    [['create', 'claude-code'], /exists\. Revoke it first/],
    [['create', 'x', '--access', 'admin'], /not an access level\. Use one of: read-only/],
    [['create', 'bad name!'], /not a usable key name/],
    [['create'], /needs a NAME/],
    [['revoke', 'nobody'], /no key named 'nobody'/],
    [['rotate'], /Unknown key command 'rotate'/],
  ];
  for (const [args, message] of cases) {
    const run = await key(...args);
    expect(run.code, args.join(' ')).not.toBe(0);
    expect(run.stderr).toMatch(message);
    expect(run.stdout).toBe('');
  }
  expect(await readFile(keysFile(), 'utf8')).toBe(before);
});

it('revoke removes the key', async () => {
  const revoked = await key('revoke', 'cursor');
  expect(revoked.code).toBe(0);
  expect((await key('list')).stdout).not.toContain('cursor');
});
