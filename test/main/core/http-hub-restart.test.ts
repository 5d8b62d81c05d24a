// The tray keeps its HTTP server running through the real bin: a server that cannot start (its
// port taken by another program) is tried again, on that same port, until it serves; closing the
// tray in the middle of a crash and restart leaves no server process behind.
import type { ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startHttpHubChild, type HttpHubChild } from '../../../src-main/core/http-hub-child.ts';
import { createFileKeySecretBox } from '../../../src-main/core/file-key-secret-box.ts';
import { forkSpawner } from '../../../src-main/core/mcp-launcher.ts';
import { readUrlFile } from '../../../src-mcp/installers/index.ts';
import { mcpBundle, nextEvent, startCore, tempDirs } from '../helpers.ts';

let dirs: Awaited<ReturnType<typeof tempDirs>> | undefined;
afterAll(() => dirs?.cleanup());

function occupyPort(): Promise<Server> {
  const server = createServer();
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

it('a server whose port is taken is tried again on that port until it serves; closing mid-restart leaves nothing running', async () => {
  dirs = await tempDirs();
  const dataDir = path.join(dirs.home, 'data');
  const squatter = await occupyPort();
  const port = (squatter.address() as { port: number }).port;
  const children: ChildProcess[] = [];
  const fork = forkSpawner({ stdio: 'ignore' });
  const spawn = (script: string, env: NodeJS.ProcessEnv, args?: string[]) => {
    const child = fork(script, env, args) as ChildProcess;
    children.push(child);
    return child;
  };
  const { core } = startCore(dirs, { httpHub: { port, spawn }, dataDir, env: {} });
  const restarting = nextEvent(core, 'status:changed', (s) => s.http?.state === 'restarting', 20_000);
  // The store file the child waits for (its graph config); no graph is needed to serve.
  await core.handlers['settings:set']({ confirm: 'never' });

  await restarting;
  const serving = nextEvent(core, 'status:changed', (s) => s.http?.state === 'serving', 30_000);
  await new Promise((resolve) => squatter.close(resolve));
  expect((await serving).http).toEqual({ state: 'serving', url: `http://127.0.0.1:${port}/mcp` });
  expect(children.length).toBeGreaterThan(1);

  const served = (await readUrlFile({ env: { ROAM_COMPANION_DATA_DIR: dataDir } }))!;
  process.kill(served.pid, 'SIGKILL');
  await core.close();
  expect((await core.handlers['status:get'](undefined)).http).toEqual({ state: 'stopped' });
  for (const child of children) expect(child.exitCode !== null || child.signalCode !== null).toBe(true);
}, 60_000);

it('stopping the server just as it died (its IPC closed, its exit not yet seen) is no crash of the tray', async () => {
  const home = await tempDirs();
  let hub: HttpHubChild | undefined;
  const stopped = new Promise<void>((resolve, reject) => {
    const fork = forkSpawner({ stdio: 'ignore' });
    hub = startHttpHubChild({
      storeDir: home.storeDir,
      secretBox: createFileKeySecretBox(home.storeDir),
      mcpServerPath: mcpBundle,
      port: 0,
      home: home.home,
      dataDir: path.join(home.home, 'data'),
      env: {},
      spawn: (script, env, args) => {
        const child = fork(script, env, args) as ChildProcess;
        child.on('spawn', () => child.kill('SIGKILL'));
        child.on('disconnect', () => hub!.stop().then(resolve, reject));
        return child;
      },
    });
  });
  await stopped;
  expect(hub!.status()).toEqual({ state: 'stopped' });
  await home.cleanup();
});
