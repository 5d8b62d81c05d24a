/**
 * The tray's log file: the core's HTTP server that cannot start (its port taken) is logged by the
 * tray to `<data>/logs/roam-companion.log` and by the real bin to `roam-mcp.log`, beside each other;
 * the tray's lines are scrubbed of tokens and keys and the file is 0600.
 */
import { readFile, stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { forkSpawner } from '../../../src-main/core/clients/mcp-launcher.ts';
import { trayLogger } from '../../../src-main/core/tray-log.ts';
import { nextEvent, startCore, tempDirs } from '../helpers.ts';

let dirs: Awaited<ReturnType<typeof tempDirs>> | undefined;
afterAll(() => dirs?.cleanup());

it('the tray logs its HTTP server’s failure to its own file, and the server to its', async () => {
  dirs = await tempDirs();
  const dataDir = path.join(dirs.home, 'data');
  const squatter = createServer();
  await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
  const port = (squatter.address() as { port: number }).port;
  const { core } = startCore(dirs, {
    httpHub: { port, spawn: forkSpawner({ stdio: 'ignore' }), restartDelayMs: () => 3_600_000 },
    dataDir,
    env: {},
  });
  try {
    const restarting = nextEvent(core, 'status:changed', (s) => s.http?.state === 'restarting', 20_000);
    await core.handlers['settings:set']({ confirm: 'never' });
    await restarting;
    const trayFile = path.join(dataDir, 'logs', 'roam-companion.log');
    expect(await readFile(trayFile, 'utf8')).toMatch(
      new RegExp(`\\[${process.pid}\\] roam-companion http: the HTTP server could not start: port ${port} `),
    );
    expect((await stat(trayFile)).mode & 0o777).toBe(0o600);
    expect(await readFile(path.join(dataDir, 'logs', 'roam-mcp.log'), 'utf8')).toContain(`port ${port}`);
  } finally {
    await core.close();
    await new Promise((resolve) => squatter.close(resolve));
  }
}, 60_000);

it('a tray line is scrubbed of a token and a key, in the file as on stderr', async () => {
  const home = await tempDirs();
  const dataDir = path.join(home.home, 'data');
  const token = 'roam-graph-local-token-abcdefghijklmnopqrstuvwxyz0';
  const key = 'roam-mcp-key-Zm9vYmFyYmF6cXV4cXV1eHF1dXhxdXV4cXV1eA';
  trayLogger(' --mcp', { dataDir })(`the child said ${token} and ${key}`);
  const text = await readFile(path.join(dataDir, 'logs', 'roam-companion.log'), 'utf8');
  expect(text).toContain('roam-companion --mcp: the child said roam-graph-local-token-… and roam-mcp-key-…');
  expect(text).not.toContain(token);
  expect(text).not.toContain(key);
  await home.cleanup();
});
