/**
 * `roam-mcp` without a subcommand: loads the graphs (from the tray over IPC, or from env vars
 * and config files), then serves MCP over stdio until the client goes away; `roam-mcp serve
 * --http` serves every local client over HTTP instead (src-mcp/http/), until stopped.
 */
import path from 'node:path';
import { dataDir } from '../../src-shared/node/data-dir.ts';
import { LocalApiClient } from '../../src-shared/local-api/index.ts';
import { validateGraphs } from '../../src-shared/roam-config.ts';
import { loadConfig, setupInstructions, type ConfigSource } from '../config/load-config.ts';
import { connectCommand } from '../installers/launcher.ts';
import { GraphSession, type ConfigProblem } from '../roam/graph-session.ts';
import { log } from '../contract/log.ts';
import { LinkIndexes } from '../navigation/index-cache.ts';
import { stalenessFrom } from '../navigation/index-staleness.ts';
import { openParentChannel, type ParentChannel } from '../contract/parent-channel.ts';
import { RoamConnection } from '../roam/roam-connection.ts';
import { platformOpener } from '../roam/roam-launcher.ts';
import { AiUsers, type AgentCreations } from '../access/own-content.ts';
import { agentOwnership } from '../changes/journal/created.ts';
import { journalOpener, type OpenJournal } from '../changes/journal/journal.ts';
import { DEFAULT_CONFIRM_POLICY, type ConfirmPolicy } from '../gate/confirm.ts';
import { ConsentGate } from '../gate/consent.ts';
import { Proposals } from '../gate/proposals.ts';
import { createRoamMcpServer, type RoamMcpServer } from '../server/server.ts';
import { GraphGateway } from '../roam/graph-gateway.ts';
import { LineTransport } from './line-transport.ts';
import { tokenStoreFor } from '../roam/token-store.ts';
import { UploadFolders } from '../uploads/upload-folders.ts';
import { DEFAULT_TOOLSETS, parseToolsets, TOOLSETS_ENV } from '../../src-shared/toolsets.ts';
import type { HubLimits } from '../http/limits.ts';
import type { RemoteSettings } from '../remote/remote-config.ts';
import { StartupError } from '../contract/startup-error.ts';

export interface RunServerOptions {
  configPath?: string;
  readOnly: boolean;
  /** `--confirm`; the config file's `confirm` when absent; else `destructive`. */
  confirm?: ConfirmPolicy;
  /** `--tools` as typed; ROAM_MCP_TOOLS when absent. */
  tools?: string;
  /** `--index-staleness-ms` (docs/navigation.md, Freshness); else the env var, else the default. */
  indexStalenessMs?: number;
  /** `--upload-folder`, as typed (src-mcp/uploads/upload-folders.ts). */
  uploadFolders?: string[];
  env: NodeJS.ProcessEnv;
  home: string;
  version: string;
  /** `serve --http`: where to listen, and the front's limits (src-mcp/http/http-hub.ts). */
  http?: { port: number; host: string; limits?: Partial<HubLimits>; remote?: RemoteSettings };
}

/** How long to wait for the tray's first `config` before serving with none. */
const FIRST_CONFIG_TIMEOUT_MS = 10_000;
const DEFAULT_ROAM_WAIT_MS = 20_000;

export async function runServer(options: RunServerOptions): Promise<void> {
  const staleness = stalenessFrom(options.indexStalenessMs, options.env);
  if (staleness.warning) log('warn', staleness.warning);
  const linkIndexes = new LinkIndexes({
    stalenessMs: staleness.ms,
    dir: path.join(dataDir({ env: options.env, home: options.home }), 'index'),
  });
  // The change journal, opened at the first write or read that needs it (not at startup).
  const journal = journalOpener({ env: options.env, home: options.home });
  const session = new GraphSession({ readOnly: options.readOnly });
  const uploadFolders = new UploadFolders();
  uploadFolders.set('cli', { folders: cliFolders(options) }, '--upload-folder', options.home);
  // Changes waiting for the person; the consent gate keeps each graph's ledger in the data folder.
  const proposals = new Proposals();
  const parent = openParentChannel(options.env);
  let source: ConfigSource = { kind: 'ipc' };
  let confirmInFile: ConfirmPolicy | undefined;
  session.source = source;
  let firstConfig: Promise<void> = Promise.resolve();
  if (parent)
    firstConfig = graphsFromTray(
      session,
      { uploadFolders, proposals },
      parent,
      () => mcp,
      options.confirm !== undefined,
    );
  else ({ source, confirm: confirmInFile } = await graphsFromFiles(session, uploadFolders, options));

  const connection = roamConnection(options);
  const tokenStore = tokenStoreFor(() => source, parent);
  const mcp = createRoamMcpServer({
    name: 'roam-mcp',
    version: options.version,
    session,
    readOnly: options.readOnly,
    confirm: options.confirm ?? confirmInFile ?? DEFAULT_CONFIRM_POLICY,
    toolsets: toolsetSelection(options),
    gateway: (hooks) => new GraphGateway(session, connection, tokenStore, hooks),
    services: {
      linkIndexes,
      uploadFolders,
      journal,
      agentCreations: agentCreationsIn(journal),
      aiUsers: new AiUsers(),
      proposals,
      consent: new ConsentGate(
        proposals,
        path.join(dataDir({ env: options.env, home: options.home }), 'consent'),
      ),
    },
  });

  await firstConfig;
  if (options.http)
    return serveHttp(mcp, options.http, options).catch(async (error: unknown) => {
      // The tray shows why its server is down (its stderr is nobody's).
      if (parent && error instanceof StartupError)
        await parent.sendBeforeExit({ type: 'cannot-serve', reason: error.problem });
      throw error;
    });
  process.stdin.on('end', () => process.exit(0));
  mcp.serve(new ExitingStdioTransport());
}

/** read-edit-own asks the change journal whose blocks are whose (what agents on this machine created). */
function agentCreationsIn(journal: OpenJournal): AgentCreations {
  return async (graph, ids, aiUser) =>
    agentOwnership(graph.name, ids, { journal: await journal(), graphType: graph.type, aiUser });
}

/** Every local client over HTTP, until SIGINT/SIGTERM (or the tray's shutdown) stops the process. */
async function serveHttp(
  mcp: RoamMcpServer,
  http: NonNullable<RunServerOptions['http']>,
  options: RunServerOptions,
): Promise<void> {
  // Loaded only here: a stdio server never pays for the HTTP pieces.
  const [{ startHttpHub }, { KeyVerifier, keysFile }, urls] = await Promise.all([
    import('../http/http-hub.ts'),
    import('../data-folder/key-store.ts'),
    import('../data-folder/url-file.ts'),
  ]);
  const where = { env: options.env, home: options.home };
  // The URL file says how many chats are served; its writes go one after another, the last count last.
  let written: Promise<unknown> = Promise.resolve();
  let url: string | undefined;
  const noteChats = (count: number) => {
    if (url === undefined) return;
    const at = url;
    written = written.then(() => urls.writeUrlFile(at, where, count)).catch(() => {});
  };
  const hub = await startHttpHub({
    mcp,
    keys: new KeyVerifier(keysFile(where)),
    port: http.port,
    host: http.host,
    ...(http.limits ? { limits: http.limits } : {}),
    onChats: noteChats,
  });
  // Before the URL file: a remote port in use stops the start with nothing left behind.
  const remote = http.remote ? await startRemote(mcp, http.remote, where, http.limits) : undefined;
  const file = await urls.writeUrlFile(hub.url, where, hub.chats());
  url = hub.url;
  log(
    'info',
    `serving MCP at ${hub.url} (written to ${file}); clients need a key (roam-mcp key create NAME)`,
  );
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    url = undefined; // the chats' ends are not written over the file's removal
    void Promise.all([hub.close(), remote?.close(), written.then(() => urls.removeUrlFile(where))]).finally(
      () => process.exit(0),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/** The tunnel's listener (src-mcp/remote/), beside the local one. */
async function startRemote(
  mcp: RoamMcpServer,
  settings: RemoteSettings,
  where: { env: NodeJS.ProcessEnv; home: string },
  limits: Partial<HubLimits> | undefined,
) {
  const { startRemoteListener } = await import('../remote/remote-listener.ts');
  const remote = await startRemoteListener({ mcp, settings, where, ...(limits ? { limits } : {}) });
  if (settings.admitLoopbackDocuments)
    log('warn', 'remote: client metadata documents on loopback addresses are admitted (a test setting)');
  log('info', `remote: ${remote.publicUrl} via ${remote.local}`);
  return remote;
}

/** The client went away (stdin closed, stdout broken): so does the process. */
class ExitingStdioTransport extends LineTransport {
  override async close(): Promise<void> {
    await super.close();
    process.exit(0);
  }
}

/**
 * Graphs from the tray over IPC, live: resolves on the first `config` (or after
 * FIRST_CONFIG_TIMEOUT_MS, serving with none); later configs update the session and the client.
 */
function graphsFromTray(
  session: GraphSession,
  { uploadFolders, proposals }: { uploadFolders: UploadFolders; proposals: Proposals },
  parent: ParentChannel,
  mcp: () => RoamMcpServer,
  confirmFromCli: boolean,
): Promise<void> {
  session.setGraphs([], {
    code: 'CONFIG_NOT_FOUND',
    message: 'Roam Companion has not sent any graph yet. Add a graph in Roam Companion, then try again.',
  });
  const firstConfig = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, FIRST_CONFIG_TIMEOUT_MS);
    parent.onMessage((message) => {
      if (message.type === 'shutdown') {
        void mcp()
          .close()
          .finally(() => process.exit(0));
        return;
      }
      if (message.type === 'proposal-answer')
        return answerFromTray(proposals, parent, message.id, message.answer);
      showProposalsIn(proposals, message.showsProposals ? parent : undefined);
      applyGraphs(session, message.graphs, 'Roam Companion');
      session.setSwitchedOff(message.switchedOff ?? []);
      uploadFolders.set(
        'tray',
        { folders: message.uploadFolders, protectedPaths: message.protectedPaths },
        'Roam Companion',
      );
      clearTimeout(timer);
      resolve();
      mcp().graphsChanged();
      if (message.toolsets) applyToolsets(mcp(), message.toolsets);
      // `--confirm` on the command line is the client config's own choice: it wins.
      if (message.confirm && !confirmFromCli) mcp().setConfirm(message.confirm);
    });
  });
  parent.onDisconnect(() => process.exit(0));
  parent.send({ type: 'ready' });
  return firstConfig;
}

/** Waiting proposals are shown by the app too while it says it shows them (its HTTP server, or `--mcp`). */
function showProposalsIn(proposals: Proposals, parent: ParentChannel | undefined): void {
  proposals.watch(
    parent && {
      proposed: (proposal) => parent.send({ type: 'proposal', proposal }),
      closed: (id) => parent.send({ type: 'proposal-closed', id }),
    },
  );
}

function answerFromTray(
  proposals: Proposals,
  parent: ParentChannel,
  id: string,
  answer: 'approve' | 'keep',
): void {
  void proposals
    .answerInTray(id, answer)
    .catch((error: Error) => ({ done: false, outcome: `The answer could not be applied: ${error.message}` }))
    .then((answered) => parent.send({ type: 'proposal-answered', id, ...answered }));
}

function applyGraphs(session: GraphSession, graphs: Parameters<typeof validateGraphs>[0], origin: string) {
  const result = validateGraphs(graphs);
  for (const warning of result.warnings) log('warn', warning);
  for (const error of result.errors) log('error', error);
  if (result.errors.length > 0) {
    session.setGraphs([], { code: 'CONFIG_INVALID', message: configInvalid(result.errors, origin) });
  } else if (result.graphs.length === 0) {
    session.setGraphs([], {
      code: 'CONFIG_NOT_FOUND',
      message: `${origin} has no enabled graph. Add or enable a graph in ${origin}, then try again.`,
    });
  } else {
    session.setGraphs(result.graphs);
  }
}

/** The tray's live toolset choice for this client; a bad one keeps the current selection. */
function applyToolsets(mcp: RoamMcpServer, toolsets: string[]) {
  const selection = parseToolsets(toolsets.join(','), 'Roam Companion');
  if ('sets' in selection) mcp.setToolsets(selection.sets);
  else log('error', `${selection.error} Kept the current toolsets.`);
}

/** Graphs from env vars or a config file, read once at startup. */
async function graphsFromFiles(
  session: GraphSession,
  uploadFolders: UploadFolders,
  options: RunServerOptions,
): Promise<{ source: ConfigSource; confirm?: ConfirmPolicy }> {
  const loaded = await loadConfig({ configPath: options.configPath, env: options.env, home: options.home });
  for (const warning of loaded.warnings) log('warn', warning);
  for (const error of loaded.errors) log('error', error);
  let problem: ConfigProblem | undefined;
  if (loaded.errors.length > 0) {
    problem = {
      code: 'CONFIG_INVALID',
      message: configInvalid(loaded.errors, describeSource(loaded.source)),
    };
  } else if (loaded.source.kind === 'none') {
    problem = {
      code: 'CONFIG_NOT_FOUND',
      message: setupInstructions(loaded.source.searched, connectCommand()),
    };
    log('warn', problem.message);
  }
  session.setGraphs(problem ? [] : loaded.graphs, problem);
  session.source = loaded.source;
  session.setSwitchedOff(loaded.switchedOff ?? []);
  const file = loaded.source.kind === 'file' ? [loaded.source.path] : [];
  uploadFolders.set(
    'config',
    { folders: loaded.uploadFolders, protectedPaths: file },
    describeSource(loaded.source),
    options.home,
  );
  if (!problem) log('info', `${loaded.graphs.length} graph(s) from ${describeSource(loaded.source)}`);
  return { source: loaded.source, ...(loaded.confirm ? { confirm: loaded.confirm } : {}) };
}

/** `--upload-folder` paths: relative ones against the working directory, as a shell user expects. */
function cliFolders(options: RunServerOptions): string[] {
  return (options.uploadFolders ?? []).map((folder) =>
    folder === '~' || folder.startsWith('~/') || folder.startsWith('~\\') ? folder : path.resolve(folder),
  );
}

/** The selected toolsets; an invalid selection serves the default and answers every call with why. */
function toolsetSelection(options: RunServerOptions) {
  const fromCli = options.tools !== undefined;
  const selection = parseToolsets(
    fromCli ? options.tools : options.env[TOOLSETS_ENV],
    fromCli ? '--tools' : TOOLSETS_ENV,
  );
  if ('sets' in selection) {
    log('info', `toolsets: ${selection.sets.join(', ')}`);
    return { toolsets: selection.sets };
  }
  const problem = `The Roam MCP config has a problem: ${selection.error} Fix it in the MCP client's config and restart the MCP client.`;
  log('error', problem);
  return { toolsets: [...DEFAULT_TOOLSETS], toolsetsProblem: problem };
}

function roamConnection(options: RunServerOptions): RoamConnection {
  const waitMs = Number(options.env.ROAM_MCP_ROAM_WAIT_MS ?? DEFAULT_ROAM_WAIT_MS);
  return new RoamConnection(new LocalApiClient({ home: options.home }), {
    open: platformOpener(options.env),
    waitMs: Number.isFinite(waitMs) && waitMs >= 0 ? waitMs : DEFAULT_ROAM_WAIT_MS,
  });
}

function describeSource(source: ConfigSource): string {
  switch (source.kind) {
    case 'env':
      return 'environment variables (ROAM_GRAPH, ROAM_API_TOKEN)';
    case 'file':
      return source.path;
    case 'ipc':
      return 'Roam Companion';
    case 'none':
      return 'no config';
  }
}

function configInvalid(errors: string[], origin: string): string {
  // A file that could not be read at all leaves no source to name: its error names it.
  const from = origin === describeSource({ kind: 'none', searched: [] }) ? '' : ` (${origin})`;
  return `The Roam MCP config${from} has ${errors.length === 1 ? 'a problem' : `${errors.length} problems`}: ${errors.join(' ')} Fix it and restart the MCP client.`;
}
