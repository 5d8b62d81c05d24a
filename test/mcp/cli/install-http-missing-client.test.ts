/**
 * `roam-mcp install <client> --transport http` for a client that is not installed makes nothing:
 * no key is created and an earlier key of that client is not revoked, because the install cannot
 * succeed. Through the built bin, in a temp HOME.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import path from 'node:path';
import { binEnv, runBin } from '../../harness/mcp-bin.ts';
import { removeDir, tempDir } from '../../harness/temp-dir.ts';

let home: string;
const roamMcp = (...args: string[]) =>
  runBin(args, { env: binEnv(home, { ROAM_COMPANION_DATA_DIR: path.join(home, 'data') }), cwd: home });

beforeAll(async () => {
  home = await tempDir('roam-install-missing-');
});

afterAll(() => removeDir(home));

it('Cursor missing: the install fails saying so, and no key was made', async () => {
  const failed = await roamMcp('install', 'cursor', '--transport', 'http');
  expect(failed.code).toBe(1);
  expect(failed.stderr).toContain("Cursor doesn't seem to be installed");
  expect(failed.stderr).not.toContain('Made a key');
  const keys = await roamMcp('key', 'list');
  expect(keys.stdout).not.toContain('cursor');
});

it("Cursor missing: an earlier key of Cursor's keeps working (it is not revoked)", async () => {
  expect((await roamMcp('key', 'create', 'cursor')).code).toBe(0);
  const failed = await roamMcp('install', 'cursor', '--transport', 'http');
  expect(failed.code).toBe(1);
  expect((await roamMcp('key', 'list')).stdout).toContain('cursor');
});
