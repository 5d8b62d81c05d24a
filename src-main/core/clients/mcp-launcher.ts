/**
 * The `--mcp` supervisor, in plain Node: an AI client launched the app to speak MCP over stdio.
 * It spawns the roam-mcp bundle as a child that inherits the client's stdio, hands it the
 * decrypted config over IPC (never argv, env or a file), re-sends the config whenever the store
 * file changes (tray edits reach running children live), and stores tokens the child obtained by
 * exchange, encrypted, under the store lock. The shell supplies Electron's spawner; tests use fork.
 * When its shell shows the child's waiting proposals, it keeps them and carries the person's answers
 * back over the same IPC pipe: nothing another process (an agent with a shell) could write to.
 */
import { existsSync } from 'node:fs';
import { fork, type ChildProcess } from 'node:child_process';
import {
  CHILD_IPC_ENV,
  childMessageSchema,
  type ChildMessage,
  type ParentMessage,
} from '../../../src-shared/child-ipc.ts';
import { withoutSecrets } from '../../../src-shared/secret-free-env.ts';
import { openTrayStore, type StoreBackend, type TrayStore } from '../store/tray-store.ts';
import { registerSession } from './mcp-sessions.ts';
import { watchStoreFile } from '../store/store-watch.ts';
import { trayLogger } from '../tray-log.ts';
import type { SecretBox } from '../store/secret-box.ts';
import { TOOLSETS_ENV } from '../../../src-shared/toolsets.ts';
import { nicknameOf } from '../../../src-shared/graph-identity.ts';
import type { ProposalView } from '../../../src-shared/ipc-contract.ts';
import { createCoreEvents } from '../core-events.ts';
import { pendingProposals, type PendingProposals } from '../approvals/pending-proposals.ts';

/** The child as the launcher needs it: Node's ChildProcess satisfies this. */
export interface McpChild {
  readonly pid?: number | undefined;
  send(message: ParentMessage): unknown;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  on(event: 'exit', listener: (code: number | null, signal: NodeJS.Signals | null) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  kill(signal?: NodeJS.Signals): unknown;
}

export type McpSpawner = (scriptPath: string, env: NodeJS.ProcessEnv, args?: string[]) => McpChild;

/** Legacy single-graph variables the child must not pick up instead of the IPC config. */
const STRIPPED_ENV = ['ROAM_API_TOKEN', 'ROAM_GRAPH', 'ROAM_GRAPH_TYPE', 'NODE_OPTIONS'];

/** The child's environment: the parent's minus anything token-like, plus the non-secret IPC flag. */
export function childEnv(base: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env = withoutSecrets(base);
  for (const key of STRIPPED_ENV) delete env[key];
  env[CHILD_IPC_ENV] = '1';
  return env;
}

/**
 * child_process.fork with the client's stdio inherited and an IPC channel. In Electron, fork
 * runs process.execPath (the app binary) with ELECTRON_RUN_AS_NODE=1, which needs the runAsNode
 * fuse (docs/tray.md explains why utilityProcess cannot carry stdin).
 */
export function forkSpawner(
  options: { stdio?: 'inherit' | 'pipe' | 'ignore'; extraEnv?: NodeJS.ProcessEnv } = {},
): McpSpawner {
  const io = options.stdio ?? 'inherit';
  return (scriptPath, env, args = []): ChildProcess =>
    fork(scriptPath, args, {
      stdio: [io, io, 'inherit', 'ipc'],
      env: { ...env, ...options.extraEnv },
      // A 1 MB young generation: 5-25 MB less RSS when navigation builds an index (docs/navigation.md).
      execArgv: ['--max-semi-space-size=1'],
    });
}

export interface McpLauncherOptions {
  storeDir: string;
  secretBox: SecretBox;
  mcpServerPath: string;
  spawn: McpSpawner;
  /** electron-store in the app; conf by default. */
  store?: StoreBackend;
  /** Diagnostics go to stderr and the tray's log file: stdout belongs to the client's JSON-RPC. */
  log?: (line: string) => void;
  env?: NodeJS.ProcessEnv;
  /** The toolsets the client's entry chose (`--tools` after `--mcp`), for the child. */
  tools?: string;
  /** The entry's `--client` id: the launcher forwards that client's stored toolsets live. */
  client?: string;
  /** The child's arguments (the tray's HTTP server: `serve --http …`); none for stdio. */
  args?: string[];
  /** Counted in the status bar's sessions (default); the tray's HTTP server is not one. */
  countAsSession?: boolean;
  /**
   * The store file was there and is gone (the demo stopped and deleted its HOME). Nothing is sent
   * then: reading would recreate the folder and tell the agent it has no graph.
   */
  onStoreGone?: () => void;
  /** `serve --http` says why it cannot start, just before it exits (a port in use, say). */
  onCannotServe?: (reason: string) => void;
  /**
   * The `--mcp` shell shows the child's waiting proposals to the person: the child is told, and
   * `launcher.proposals` keeps them and answers them.
   */
  showsProposals?: boolean;
  /** The tray shows the child's waiting proposals (its HTTP server): the child is told, and tells it. */
  onProposal?: (
    message: Extract<ChildMessage, { type: 'proposal' | 'proposal-closed' | 'proposal-answered' }>,
  ) => void;
}

/**
 * `--tools SETS` or `--client ID` (also with `=`) from the app's argv: the installer writes them
 * after `--mcp` (docs/mcp.md, Toolsets); the child validates the toolsets.
 */
export function argvOption(argv: readonly string[], option: 'tools' | 'client'): string | undefined {
  const at = argv.findIndex((arg) => arg === `--${option}` || arg.startsWith(`--${option}=`));
  if (at < 0) return undefined;
  const arg = argv[at] as string;
  return arg === `--${option}` ? (argv[at + 1] ?? '') : arg.slice(`--${option}=`.length);
}

/** The changes the child's chats wait on the person for, for the shell that shows them. */
export interface WaitingProposals extends Pick<PendingProposals, 'list' | 'answer'> {
  on(event: 'proposals:changed', listener: (waiting: ProposalView[]) => void): () => void;
}

export interface McpLauncher {
  readonly child: McpChild;
  /** Empty, and every answer refused, unless the launcher was told `showsProposals`. */
  readonly proposals: WaitingProposals;
  /** Resolves with the child's exit code once it exited and the session was unregistered. */
  readonly exited: Promise<number>;
  stop(): Promise<number>;
}

export async function runMcpLauncher(options: McpLauncherOptions): Promise<McpLauncher> {
  const log = options.log ?? trayLogger(' --mcp', { env: options.env });
  const store = openTrayStore(options);
  const unregister =
    options.countAsSession === false ? async () => {} : await registerSession(options.storeDir);
  const env = childEnv(options.env ?? process.env);
  // Not secret: the child reads it like `--tools` (an invalid value is its config error).
  if (options.tools !== undefined) env[TOOLSETS_ENV] = options.tools;
  const child = options.spawn(options.mcpServerPath, env, options.args);

  const proposals = keptProposals(child, !!options.showsProposals);
  const tellsProposals = !!options.onProposal || !!options.showsProposals;
  const config = configSender(store, child, log, options.client, options.onStoreGone, tellsProposals);
  const handle = async (message: ChildMessage) => {
    switch (message.type) {
      case 'ready':
        return config.childReady();
      case 'token-obtained':
        await store.saveToken(message.graph, message.token, message.grantedAccessLevel);
        return config.send();
      case 'token-rejected':
        await store.markRevoked(message.graph);
        return;
      case 'cannot-serve':
        options.onCannotServe?.(message.reason);
        return;
      case 'proposal':
      case 'proposal-closed':
      case 'proposal-answered':
        options.onProposal?.(message);
        if (options.showsProposals) proposals.heard(message);
        return;
    }
  };

  child.on('message', (raw) => {
    const parsed = childMessageSchema.safeParse(raw);
    if (!parsed.success) {
      log('ignored a malformed message from the MCP server.');
      return;
    }
    handle(parsed.data).catch((error: Error) =>
      log(`could not handle '${parsed.data.type}': ${error.message}`),
    );
  });

  const unwatch = watchStoreFile(store.path, () => void config.send());
  let finished = false;
  const exited = new Promise<number>((resolve) => {
    const finish = (code: number) => {
      if (finished) return;
      finished = true;
      unwatch();
      // Its proposals lived in it: none waits any more, and an answer on its way is told so.
      proposals.serverIs(undefined);
      void config
        .send()
        .then(unregister)
        .then(() => resolve(code));
    };
    child.on('exit', (code, signal) => finish(code ?? (signal ? 1 : 0)));
    // A child that never started (its runtime missing) reports only this; one that died just before
    // a message reports the failed send here too: unheard, either would end the tray.
    child.on('error', (error) => {
      log(`could not reach the MCP server: ${error.message}`);
      if (child.pid === undefined) finish(1);
    });
  });

  return {
    child,
    proposals: proposals.shown,
    exited,
    async stop() {
      try {
        child.send({ type: 'shutdown' });
      } catch {
        child.kill('SIGTERM');
      }
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/** The child's waiting proposals, kept (and answered through the child) when the shell shows them. */
function keptProposals(child: McpChild, shown: boolean) {
  const events = createCoreEvents();
  const pending = pendingProposals((waiting) => events.emit('proposals:changed', waiting));
  if (shown) pending.serverIs((message) => child.send(message));
  return {
    heard: pending.heard,
    serverIs: pending.serverIs,
    shown: { list: pending.list, answer: pending.answer, on: events.on } satisfies WaitingProposals,
  };
}

/** Sends the child its graph config once it is ready and whenever it changed, in order. */
function configSender(
  store: TrayStore,
  child: McpChild,
  log: (line: string) => void,
  client?: string,
  onStoreGone?: () => void,
  showsProposals = false,
) {
  let ready = false;
  let lastSent = '';
  let storeSeen = false;
  let sending = Promise.resolve();
  // Serialized so an older config never overtakes a newer one.
  const send = () => {
    sending = sending.then(async () => {
      if (!ready) return;
      const stored = existsSync(store.path);
      if (!stored && storeSeen) {
        storeSeen = false;
        log(`the store ${store.path} is gone: no graph config is sent.`);
        onStoreGone?.();
        return;
      }
      storeSeen = stored;
      try {
        // Not written yet (nothing saved so far): the child is told it has no graph at once, rather
        // than waiting out its first-config timeout; reading would make the file's folder.
        const data = stored ? store.read() : store.empty();
        const toolsets = client ? data.clientToolsets[client] : undefined;
        // Names only (no token): an agent naming a switched-off graph learns how to switch it on.
        const switchedOff = data.graphs
          .filter((g) => g.disabled)
          .map((g) => ({ name: g.name, nickname: nicknameOf(g) }));
        const message: ParentMessage = {
          type: 'config',
          graphs: await store.childConfig(data),
          ...(toolsets ? { toolsets } : {}),
          ...(switchedOff.length ? { switchedOff } : {}),
          // The child never uploads the store folder (tokens, key), wherever it is.
          uploadFolders: data.settings.uploadFolders,
          protectedPaths: [store.storeDir],
          confirm: data.settings.confirm,
          ...(showsProposals ? { showsProposals } : {}),
        };
        const serialized = JSON.stringify(message);
        if (serialized === lastSent) return;
        lastSent = serialized;
        child.send(message);
      } catch (error) {
        log(`could not send the graph config to the MCP server: ${(error as Error).message}`);
      }
    });
    return sending;
  };
  return {
    send,
    childReady() {
      ready = true;
      lastSent = '';
      return send();
    },
  };
}
