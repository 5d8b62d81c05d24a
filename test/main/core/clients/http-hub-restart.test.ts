// The tray keeps its HTTP server running through the real bin: a server that cannot start (its
// port taken by another program) is tried again, on that same port, until it serves; closing the
// tray in the middle of a crash and restart leaves no server process behind.
// Each test has a home, a port and a hub of its own: they run side by side, so the restart delays
// (500 ms and up, by design) are waited for at once rather than one after another.
import { fork as forkProcess, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startHttpHubChild, type HttpHubChild } from '../../../../src-main/core/clients/http-hub-child.ts';
import { createFileKeySecretBox } from '../../../../src-main/core/store/file-key-secret-box.ts';
import { forkSpawner } from '../../../../src-main/core/clients/mcp-launcher.ts';
import { openTrayStore } from '../../../../src-main/core/store/tray-store.ts';
import { STORE_NAME } from '../../../../src-main/core/store/store-file.ts';
import { readUrlFile } from '../../../../src-mcp/data-folder/index.ts';
import { mcpBundle, nextEvent, startCore, tempDirs, waitFor } from '../../helpers.ts';

let dirs: Awaited<ReturnType<typeof tempDirs>> | undefined;
afterAll(() => dirs?.cleanup());

function occupyPort(): Promise<Server> {
  const server = createServer();
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

it.concurrent(
  'a server whose port is taken is tried again on that port until it serves; closing mid-restart leaves nothing running',
  async () => {
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
  },
  60_000,
);

it.concurrent(
  'a server waiting to restart says why and when it tries next, and starts at once when the tray asks',
  async () => {
    const home = await tempDirs();
    const squatter = await occupyPort();
    const port = (squatter.address() as { port: number }).port;
    const hour = 3_600_000;
    // Only a retry can start it again within the test: the wait is an hour.
    const { core } = startCore(home, {
      httpHub: { port, spawn: forkSpawner({ stdio: 'ignore' }), restartDelayMs: () => hour },
      dataDir: path.join(home.home, 'data'),
      env: {},
    });
    const restarting = nextEvent(core, 'status:changed', (s) => s.http?.state === 'restarting', 20_000);
    const askedAt = Date.now();
    await core.handlers['settings:set']({ confirm: 'never' });
    const waiting = (await restarting).http as { why: string; retryAt: number };
    // The child's own words, over IPC, before it exited.
    expect(waiting.why).toBe(
      `could not start: port ${port} on 127.0.0.1 is in use by another program (another roam-mcp serve --http, or Roam Companion, which serves there)`,
    );
    expect(waiting.retryAt).toBeGreaterThanOrEqual(askedAt + hour);

    await new Promise((resolve) => squatter.close(resolve));
    const serving = nextEvent(core, 'status:changed', (s) => s.http?.state === 'serving', 20_000);
    await core.handlers['http:retry'](undefined); // The status bar's Try now.
    expect((await core.handlers['status:get'](undefined)).http?.state).not.toBe('restarting');
    expect((await serving).http).toEqual({ state: 'serving', url: `http://127.0.0.1:${port}/mcp` });
    core.retryHttpServer(); // Serving: nothing to retry, and nothing breaks.
    expect((await core.handlers['status:get'](undefined)).http?.state).toBe('serving');
    await core.close();
    await home.cleanup();
  },
  30_000,
);

/** What every hub here shares: the built bin, any free port, the temp home's data folder. */
function hubIn(
  home: Awaited<ReturnType<typeof tempDirs>>,
  secretBox = createFileKeySecretBox(home.storeDir),
) {
  return {
    storeDir: home.storeDir,
    secretBox,
    mcpServerPath: mcpBundle,
    port: 0,
    home: home.home,
    dataDir: path.join(home.home, 'data'),
    env: {},
    spawn: forkSpawner({ stdio: 'ignore' }),
  };
}

it.concurrent(
  'stopping the server just as it died (its IPC closed, its exit not yet seen) is no crash of the tray',
  async () => {
    const home = await tempDirs();
    let hub: HttpHubChild | undefined;
    const stopped = new Promise<void>((resolve, reject) => {
      const fork = forkSpawner({ stdio: 'ignore' });
      hub = startHttpHubChild({
        ...hubIn(home),
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
  },
);

/** A hub on a store the child gets its (empty) config from, and the delays it says it waits. */
async function hubWithDelays(healthyRunMs?: number) {
  const home = await tempDirs();
  const secretBox = createFileKeySecretBox(home.storeDir);
  await openTrayStore({ storeDir: home.storeDir, secretBox }).update(() => {});
  const delays: number[] = [];
  const statuses: string[] = [];
  const hub = startHttpHubChild({
    ...hubIn(home, secretBox),
    log: (line) => {
      const delay = /starting it again in (\d+) ms/.exec(line);
      if (delay) delays.push(Number(delay[1]));
    },
    onStatus: (s) => statuses.push(s.state),
    ...(healthyRunMs === undefined ? {} : { healthyRunMs }),
  });
  const dataDir = path.join(home.home, 'data');
  /** Kills the serving child and waits until its successor serves. */
  const crash = async () => {
    const { pid } = await waitFor(
      async () =>
        hub.status().state === 'serving'
          ? readUrlFile({ env: { ROAM_COMPANION_DATA_DIR: dataDir } })
          : undefined,
      20_000,
    );
    const count = statuses.length;
    process.kill(pid, 'SIGKILL');
    await waitFor(() => (statuses.slice(count).includes('serving') ? true : undefined), 20_000);
  };
  const close = async () => {
    await hub.stop();
    await home.cleanup();
  };
  return { delays, crash, close };
}

it.concurrent(
  'waits longer after each crash in a row, and starts over once a server ran long enough',
  async () => {
    // Two hubs of their own, side by side: their restart delays are waited for at the same time.
    const [crashing, healthy] = await Promise.all([hubWithDelays(), hubWithDelays(0)]);
    const twoCrashes = async (hub: typeof crashing) => {
      await hub.crash();
      await hub.crash();
      await hub.close();
    };
    await Promise.all([twoCrashes(crashing), twoCrashes(healthy)]);
    expect(crashing.delays).toEqual([500, 1000]);
    expect(healthy.delays).toEqual([500, 500]);
  },
  60_000,
);

it.concurrent(
  'a server process that cannot even be started is tried again, and the tray still closes',
  async () => {
    const home = await tempDirs();
    const attempts: ChildProcess[] = [];
    const statuses: string[] = [];
    const hub = startHttpHubChild({
      ...hubIn(home),
      // The runtime is gone (an app update moved it): fork reports ENOENT, and no 'exit' follows.
      spawn: (script, env, args) => {
        const child = forkProcess(script, args, {
          execPath: path.join(home.home, 'no-such-node'),
          stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
          env,
        });
        attempts.push(child);
        return child;
      },
      log: () => {},
      onStatus: (s) => statuses.push(s.state),
    });
    await waitFor(() => (attempts.length >= 2 ? true : undefined), 20_000);
    expect(statuses).toContain('restarting');
    await hub.stop();
    expect(hub.status()).toEqual({ state: 'stopped' });
    await home.cleanup();
  },
  30_000,
);

it.concurrent(
  'a store the server cannot be started from (a bad hand edit) is tried again until it is fixed',
  async () => {
    const home = await tempDirs();
    const storeFile = path.join(home.storeDir, `${STORE_NAME}.json`);
    await writeFile(storeFile, '{ "graphs": [ oops');
    const secretBox = createFileKeySecretBox(home.storeDir);
    const errors: string[] = [];
    const hub = startHttpHubChild({
      ...hubIn(home, secretBox),
      log: (line) => errors.push(line),
    });
    await waitFor(() => (hub.status().state === 'restarting' ? true : undefined));
    expect(errors.join('\n')).toMatch(/the HTTP server could not start: .*JSON/);
    expect(hub.status()).toMatchObject({
      state: 'restarting',
      why: expect.stringMatching(/^could not start: .*JSON/),
    });
    await writeFile(storeFile, '{}');
    await waitFor(() => (hub.status().state === 'serving' ? true : undefined), 20_000);
    await hub.stop();
    await home.cleanup();
  },
  30_000,
);
