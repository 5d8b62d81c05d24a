/**
 * The tray's HTTP server (docs/clients.md, "Over HTTP"): the same `roam-mcp serve --http` every
 * HTTP client connects to, run by the tray as a child it supervises like an `--mcp` child
 * (src-main/core/clients/mcp-launcher.ts): graphs, tokens and toolsets from the tray store over IPC, live;
 * nothing secret in its argv or environment. "Roam Companion is running" then means every HTTP
 * client is served: a child that exits unasked is started again on the same port, with a backoff.
 * Its address is in `<data folder>/http-server.json`; while the tray opens at login it is also in
 * `http-server-at-login.json`, so a client installed while the tray is closed still gets http.
 */
import { DATA_DIR_ENV } from '../../../src-shared/node/data-dir.ts';
import type { HttpServerStatus } from '../../../src-shared/ipc-contract.ts';
import type { ParentMessage } from '../../../src-shared/child-ipc.ts';
import { readUrlFile, writeAtLoginFile } from '../../../src-mcp/data-folder/index.ts';
import {
  runMcpLauncher,
  type McpLauncher,
  type McpLauncherOptions,
  type McpSpawner,
} from './mcp-launcher.ts';
import type { SecretBox } from '../store/secret-box.ts';
import type { StoreBackend } from '../store/tray-store.ts';
import { trayLogger } from '../tray-log.ts';

export interface HttpHubChildOptions {
  storeDir: string;
  secretBox: SecretBox;
  mcpServerPath: string;
  spawn: McpSpawner;
  store?: StoreBackend;
  /** 0: any free port (tests); the app uses the fixed default so client configs stay valid. */
  port: number;
  /** The data folder the server and the tray share (keys, journal, URL file); default the machine's. */
  dataDir?: string;
  /** The user's home: where the server finds Roam's port file. */
  home: string;
  env?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
  /** The wait before restart number `attempt` (default `restartDelayMs`; tests wait far longer). */
  restartDelayMs?: (attempt: number) => number;
  /** How long a child must run for its crash to count as the first in a row (default a minute). */
  healthyRunMs?: number;
  /** Called on every change of the server's state (the status bar shows it). */
  onStatus?: (status: HttpServerStatus) => void;
  /** Whether the tray opens at login (its setting, read when the server starts serving). */
  opensAtLogin?: () => boolean;
  /** More arguments for each start (remote access's listener, src-main/core/remote/). */
  serveArgs?: () => Promise<string[]>;
  /** The tray shows waiting proposals: what each child says of them, and who now answers them. */
  proposals?: {
    heard: NonNullable<McpLauncherOptions['onProposal']>;
    serverIs(send: ((message: ParentMessage) => void) | undefined): void;
  };
}

export interface HttpHubChild {
  status(): HttpServerStatus;
  /** Starts the server now when it waits to restart (the tray menu's "Try now"); else nothing. */
  retryNow(): void;
  /** The server's URL once it listens (read from the URL file the current child writes). */
  url(): Promise<string | undefined>;
  /** The tray's "open at login" setting changed: the at-login file follows it. */
  opensAtLoginChanged(): Promise<void>;
  /** Starts the server again now (its arguments changed); a waiting restart happens now. */
  restart(): Promise<void>;
  /** Stops the child for good: no restart follows. */
  stop(): Promise<void>;
}

/** A child that ran this long was healthy: the next crash restarts it after the shortest delay. */
const HEALTHY_RUN_MS = 60_000;
/** How often the tray looks for the URL file while a child starts (it says nothing over IPC). */
const SERVING_POLL_MS = 100;

/** 0.5 s, 1 s, 2 s … up to 30 s before restart number `attempt` (0-based). */
export function restartDelayMs(attempt: number): number {
  return Math.min(500 * 2 ** attempt, 30_000);
}

/** One `roam-mcp serve --http` child on `port`, its config from the tray store. */
function runServer(
  options: HttpHubChildOptions,
  env: NodeJS.ProcessEnv,
  port: number,
  log: (line: string) => void,
  onCannotServe: (reason: string) => void,
): Promise<McpLauncher> {
  const started = (options.serveArgs?.() ?? Promise.resolve([])).then((extraArgs) =>
    runMcpLauncher({
      storeDir: options.storeDir,
      secretBox: options.secretBox,
      mcpServerPath: options.mcpServerPath,
      spawn: options.spawn,
      ...(options.store ? { store: options.store } : {}),
      env,
      args: ['serve', '--http', '--port', String(port), ...extraArgs],
      countAsSession: false,
      log,
      onCannotServe,
      ...(options.proposals ? { onProposal: options.proposals.heard } : {}),
    }),
  );
  const { proposals } = options;
  if (!proposals) return started;
  // Its proposals live in it: they are answered through it, and gone with it.
  return started.then((launcher) => {
    proposals.serverIs((message) => launcher.child.send(message));
    void launcher.exited.then(() => proposals.serverIs(undefined));
    return launcher;
  });
}

/** The child's environment, and where it writes its URL file. */
function serverEnv(options: HttpHubChildOptions) {
  const env: NodeJS.ProcessEnv = {
    ...(options.env ?? process.env),
    HOME: options.home,
    USERPROFILE: options.home,
  };
  if (options.dataDir) env[DATA_DIR_ENV] = options.dataDir;
  const where = options.dataDir ? { env: { [DATA_DIR_ENV]: options.dataDir } } : { env };
  return { env, where };
}

/** Where the tray serves whenever it runs, kept while it opens at login (and only then). */
async function noteAddressAtLogin(
  status: HttpServerStatus,
  options: HttpHubChildOptions,
  where: ReturnType<typeof serverEnv>['where'],
  log: (line: string) => void,
): Promise<void> {
  if (status.state !== 'serving') return;
  await writeAtLoginFile(options.opensAtLogin?.() ? status.url : undefined, where).catch((error: Error) =>
    log(`could not note the server's address for installs: ${error.message}`),
  );
}

/** The log's line for a restart; the exit code is for the log, a person reads only that it stopped. */
const restartNote = (why: string, delay: number, exitCode?: number) =>
  `the HTTP server ${why}${exitCode === undefined ? '' : ` (exit code ${exitCode})`}; starting it again in ${delay} ms.`;

/** Calls `serving` once the URL file says `current` serves (it says nothing over IPC). */
function whenServing(
  where: ReturnType<typeof serverEnv>['where'],
  current: McpLauncher,
  serving: (url: string) => void,
): NodeJS.Timeout {
  const poll = setInterval(() => {
    void readUrlFile(where).then((served) => {
      if (!served || served.pid !== current.child.pid) return;
      clearInterval(poll);
      serving(served.url);
    });
  }, SERVING_POLL_MS);
  return poll;
}

/** The server's state, told to `onStatus` only when it changes. */
function statusKeeper(onStatus: HttpHubChildOptions['onStatus']) {
  let status: HttpServerStatus = { state: 'starting' };
  return {
    status: () => status,
    setStatus(next: HttpServerStatus) {
      if (JSON.stringify(next) === JSON.stringify(status)) return;
      status = next;
      onStatus?.(status);
    },
  };
}

export function startHttpHubChild(options: HttpHubChildOptions): HttpHubChild {
  const log = options.log ?? trayLogger(' http', { dataDir: options.dataDir, env: options.env });
  const { env, where } = serverEnv(options);

  let port = options.port;
  /** The running child; undefined once it exited. */
  let launcher: McpLauncher | undefined;
  let stopping = false;
  let attempt = 0;
  let restartTimer: NodeJS.Timeout | undefined;
  let servingPoll: NodeJS.Timeout | undefined;
  /** The child being stopped to start again at once (restart), not a crash. */
  let replacing: McpLauncher | undefined;

  const { status, setStatus } = statusKeeper(options.onStatus);
  const servedByCurrent = async () => {
    const served = await readUrlFile(where);
    return served && launcher && served.pid === launcher.child.pid ? served.url : undefined;
  };
  const watchForServing = (current: McpLauncher) => {
    servingPoll = whenServing(where, current, (url) => {
      if (launcher !== current || stopping) return;
      // A restart must come back where every client config points.
      port = Number(new URL(url).port);
      setStatus({ state: 'serving', url });
      void noteAddressAtLogin(status(), options, where, log);
    });
  };

  const launch = async () => {
    const startedAt = Date.now();
    let cannotServe: string | undefined;
    const current = await runServer(options, env, port, log, (reason) => (cannotServe = reason));
    if (stopping) {
      await current.stop();
      return;
    }
    launcher = current;
    watchForServing(current);
    void current.exited.then((code) => {
      clearInterval(servingPoll);
      launcher = undefined;
      // Stopped to start again with new arguments (restart): no crash, no wait.
      if (replacing === current) return relaunch();
      if (Date.now() - startedAt >= (options.healthyRunMs ?? HEALTHY_RUN_MS)) attempt = 0;
      restartLater(cannotServe ? `could not start: ${cannotServe}` : 'stopped unexpectedly', code);
    });
  };
  const relaunch = () => {
    restartTimer = undefined;
    setStatus({ state: 'starting' });
    launching = launch().catch(failed);
  };
  const restartLater = (why: string, exitCode?: number) => {
    if (stopping) return;
    const delay = (options.restartDelayMs ?? restartDelayMs)(attempt++);
    log(restartNote(why, delay, exitCode));
    setStatus({ state: 'restarting', why, retryAt: Date.now() + delay });
    restartTimer = setTimeout(relaunch, delay);
  };
  // E.g. the store file no longer parses (a bad hand edit): it may be fixed meanwhile, so retry too.
  const failed = (error: Error) => restartLater(`could not start: ${error.message}`);
  let launching = launch().catch(failed);

  return {
    status,
    url: servedByCurrent,
    opensAtLoginChanged: () => noteAddressAtLogin(status(), options, where, log),
    async stop() {
      stopping = true;
      clearTimeout(restartTimer);
      clearInterval(servingPoll);
      await launching;
      await launcher?.stop();
      setStatus({ state: 'stopped' });
    },
    async restart() {
      await launching;
      if (restartTimer) return this.retryNow();
      replacing = stopping ? undefined : launcher;
      await replacing?.stop();
    },
    retryNow() {
      if (stopping || !restartTimer) return;
      clearTimeout(restartTimer);
      relaunch();
    },
  };
}
