/**
 * Roam Desktop not running: the server opens it with its deep link (through the injectable
 * opener), follows the port file when Roam comes up, and otherwise gives up with
 * ROAM_NOT_RUNNING after its bounded wait.
 */
import { chmod, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/index.ts';
import {
  errorOf,
  newToken,
  removeHome,
  startMcp,
  tempHome,
  textOf,
  type McpHandle,
} from '../harness/mcp-bin.ts';

const TOKEN = newToken();
const BACKUP_TOKEN = newToken();
let home: string;
let opened: string;
let openerEnv: string;
let emulator: Emulator;
let mcp: McpHandle;

const openedLinks = () => readFile(opened, 'utf8').catch(() => '');

beforeAll(async () => {
  home = await tempHome();
  opened = path.join(home, 'opened.log');
  openerEnv = path.join(home, 'opener-env.log');
  // Stands in for `open`/`xdg-open`: records its environment, then its argv (the link the tests
  // wait for), instead of starting an app.
  const opener = path.join(home, 'fake-opener.sh');
  await writeFile(opener, `#!/bin/sh\nenv > "${openerEnv}"\necho "$@" >> "${opened}"\n`);
  await chmod(opener, 0o755);
  emulator = await startEmulator({
    home,
    graphs: [{ name: 'my graph', content: 'demo', tokens: [{ token: TOKEN, accessLevel: 'full' }] }],
  });
  mcp = await startMcp({
    home,
    env: {
      ROAM_GRAPH: 'my graph',
      ROAM_API_TOKEN: TOKEN,
      ROAM_MCP_NO_LAUNCH: '0',
      ROAM_MCP_OPENER: opener,
      ROAM_MCP_ROAM_WAIT_MS: '1500',
      // Other secrets the user's shell may hold: by name, and a Roam token under any name.
      DEPLOY_SECRET: 'hunter2-deploy',
      NOTES_BACKUP: `token=${BACKUP_TOKEN}`,
    },
  });
});

afterAll(async () => {
  await mcp?.close();
  await emulator?.close();
  await removeHome(home);
});

it('opens Roam with its deep link and retries once Roam has started (on a new port)', async () => {
  await emulator.stop();
  const progress: string[] = [];
  const pending = mcp.call('get_page', { title: 'Project Apollo' }, { progress });
  await expect.poll(openedLinks).toContain('roam://#/app/my%20graph');
  await emulator.start();
  expect(textOf(await pending)).toMatch(/^# Project Apollo/);
  expect(progress.join(' ')).toMatch(/not running: opening it/);
});

it('the opener gets the deep link only, and no token or secret in its environment', async () => {
  const env = await readFile(openerEnv, 'utf8');
  expect(env).toMatch(/^PATH=/m); // the dump is real
  expect(env).not.toContain(TOKEN);
  expect(env).not.toContain(BACKUP_TOKEN);
  expect(env).not.toMatch(/ROAM_API_TOKEN|DEPLOY_SECRET|hunter2|roam-graph-(local-)?token-/);
  expect((await openedLinks()).trim().split('\n')).toEqual(['roam://#/app/my%20graph']);
});

it('gives up after the bounded wait with ROAM_NOT_RUNNING naming the link', async () => {
  await emulator.stop();
  const error = errorOf(await mcp.call('get_page', { title: 'Project Apollo' }));
  expect(error.code).toBe('ROAM_NOT_RUNNING');
  expect(error.message).toMatch(/roam:\/\/#\/app\/my%20graph/);
  expect(error.message).toMatch(/Start Roam Desktop/);
  await emulator.start();
});
