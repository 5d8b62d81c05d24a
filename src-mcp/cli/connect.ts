/**
 * `roam-mcp connect`: add Roam graphs to the config and get their tokens from Roam Desktop
 * (token exchange: the user approves in Roam), remove, disable or enable them. Interactive
 * prompts on stderr/stdin, or flags for scripts. A failed or rejected exchange never blocks a
 * retry: each attempt is a fresh request, and Ctrl-C cancels the one in flight.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import {
  LocalApiClient,
  LocalApiError,
  portFilePath,
  tokenRequestRefusal,
  type GraphRef,
} from '../../src-shared/local-api/index.ts';
import {
  ACCESS_LEVELS,
  DEFAULT_ACCESS_LEVEL,
  GRAPH_TYPES,
  isLowerAccess,
  narrowestAccess,
  tokenLevelFor,
  type AccessLevel,
  type GraphType,
  entryGraphId,
} from '../../src-shared/roam-config.ts';
import { DEFAULT_GRAPH_TYPE, graphId, sameGraph } from '../../src-shared/constants.ts';
import {
  findEntryIndex,
  readConfigDocument,
  removeGraph,
  setDisabled,
  upsertGraph,
  editConfigDocument,
} from '../config/config-edit.ts';
import { assertConfigWritable } from '../config/config-write.ts';
import { CONFIG_FILE_NAME, LEGACY_CONFIG_FILE_NAME, expandHome } from '../config/load-config.ts';

export const CONNECT_USAGE = `Usage: roam-mcp connect [--config PATH] [action]

Without an action, asks interactively. Actions:
  --list                          Show configured graphs and the graphs Roam Desktop offers
  --graph NAME [--type hosted|offline] [--nickname NICK]
               [--access-level read-only|read-append|read-edit-own|full (default read-append)]
               [--description TEXT] [--public]
                                  Ask Roam Desktop for a token for NAME and add it to the config
                                  (run again to retry after a rejected or timed-out request;
                                  a configured graph keeps its type, nickname and level);
                                  --public: a public graph you are not a member of (e.g. help),
                                  hosted and read-only
  --remove NICK                   Remove a graph from the config
  --disable NICK | --enable NICK  Keep a graph in the config but hide it from agents / show it again

The config is --config PATH, else ~/${CONFIG_FILE_NAME} (or the legacy ~/${LEGACY_CONFIG_FILE_NAME} when only it exists).
`;

interface ConnectOptions {
  env: NodeJS.ProcessEnv;
  home: string;
  configPath?: string;
  /** For tests: where prompts read from / write to. */
  input?: NodeJS.ReadableStream;
  output?: NodeJS.WritableStream;
}

interface Flags {
  list?: boolean;
  graph?: string;
  type?: string;
  nickname?: string;
  accessLevel?: string;
  description?: string;
  remove?: string;
  disable?: string;
  enable?: string;
  public?: boolean;
  help?: boolean;
}

const connectOptions = {
  list: { type: 'boolean' },
  public: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  graph: { type: 'string' },
  type: { type: 'string' },
  nickname: { type: 'string' },
  'access-level': { type: 'string' },
  description: { type: 'string' },
  remove: { type: 'string' },
  disable: { type: 'string' },
  enable: { type: 'string' },
} as const;

type OptionName = keyof typeof connectOptions;
const flagKey = (name: OptionName): keyof Flags => (name === 'access-level' ? 'accessLevel' : name);

function parseFlags(args: string[]): Flags | string {
  const flags: Flags = {};
  // Not strict: every argument comes back as typed, so an unknown one is named in our words.
  const { tokens } = parseArgs({
    args,
    options: connectOptions,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  for (const token of tokens) {
    if (token.kind === 'positional') return `Unknown option '${token.value}'.`;
    if (token.kind === 'option-terminator') return `Unknown option '--'.`;
    const typed = token.inlineValue ? `${token.rawName}=${token.value}` : token.rawName;
    if (!(token.name in connectOptions)) return `Unknown option '${typed}'.`;
    const name = token.name as OptionName;
    if (connectOptions[name].type === 'boolean') {
      if (token.value !== undefined) return `Unknown option '${typed}'.`;
      (flags as Record<string, unknown>)[flagKey(name)] = true;
    } else {
      // `--graph --list` is a forgotten value, not a graph named "--list".
      if (token.value === undefined || token.value.startsWith('--')) return `${token.rawName} needs a value.`;
      (flags as Record<string, unknown>)[flagKey(name)] = token.value;
    }
  }
  return checkChoices(flags);
}

function checkChoices(flags: Flags): Flags | string {
  if (flags.type !== undefined && !GRAPH_TYPES.includes(flags.type as GraphType)) {
    return `--type must be hosted or offline, not '${flags.type}'.`;
  }
  if (flags.accessLevel !== undefined && !ACCESS_LEVELS.includes(flags.accessLevel as AccessLevel)) {
    return `--access-level must be one of ${ACCESS_LEVELS.join(', ')}, not '${flags.accessLevel}'.`;
  }
  if (flags.public && !flags.graph) return '--public needs --graph NAME (e.g. --graph help --public).';
  if (flags.public && flags.type !== undefined && flags.type !== 'hosted') {
    return 'Public graphs are hosted: leave out --type or give --type hosted.';
  }
  if (flags.public && flags.accessLevel !== undefined && flags.accessLevel !== 'read-only') {
    return 'Public graphs are read-only: leave out --access-level or give --access-level read-only.';
  }
  return flags;
}

export function configFileFor(home: string, configPath?: string): string {
  if (configPath) return expandHome(configPath, home);
  const current = path.join(home, CONFIG_FILE_NAME);
  const legacy = path.join(home, LEGACY_CONFIG_FILE_NAME);
  return !existsSync(current) && existsSync(legacy) ? legacy : current;
}

/** Runs the connect command; returns the exit code. */
export async function runConnectCli(args: string[], options: ConnectOptions): Promise<number> {
  const out = options.output ?? process.stderr;
  const say = (line = '') => out.write(`${line}\n`);
  const flags = parseFlags(args);
  if (typeof flags === 'string') {
    say(`roam-mcp connect: ${flags}\n`);
    say(CONNECT_USAGE);
    return 2;
  }
  if (flags.help) {
    // Asked-for help is the command's output (stdout); prompts and errors stay on stderr.
    (options.output ?? process.stdout).write(`${CONNECT_USAGE}\n`);
    return 0;
  }
  const file = configFileFor(options.home, options.configPath);
  const client = new LocalApiClient({ home: options.home });
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.once('SIGINT', onSigint);
  try {
    if (flags.remove ?? flags.disable ?? flags.enable) {
      await editConfigDocument(file, (doc) =>
        flags.remove
          ? removeGraph(doc, flags.remove)
          : setDisabled(doc, (flags.disable ?? flags.enable) as string, flags.disable !== undefined),
      );
      const verb = flags.remove ? 'Removed' : flags.disable ? 'Disabled' : 'Enabled';
      say(
        `${verb} '${flags.remove ?? flags.disable ?? flags.enable}' in ${file}. Restart your MCP client to apply.`,
      );
      return 0;
    }
    if (flags.list) {
      await printGraphs(say, file, client, controller.signal);
      return 0;
    }
    if (flags.graph) {
      const graphs = (await readConfigDocument(file).catch(() => undefined))?.graphs ?? [];
      const type =
        (flags.type as GraphType | undefined) ?? (flags.public ? 'hosted' : typeOf(flags.graph, graphs));
      // Connecting a configured graph again (a new token) keeps its name and level unless asked.
      const entry = graphs.find(
        (g) =>
          typeof g.name === 'string' &&
          sameGraph({ name: g.name, type: g.type as GraphType }, { name: flags.graph as string, type }),
      );
      const previous = (ACCESS_LEVELS as readonly unknown[]).includes(entry?.accessLevel)
        ? (entry?.accessLevel as AccessLevel)
        : undefined;
      const nickname = flags.nickname ?? (typeof entry?.nickname === 'string' ? entry.nickname : undefined);
      return await connectGraph(say, options.home, file, client, controller.signal, {
        name: flags.graph,
        type,
        nickname,
        accessLevel: flags.public
          ? 'read-only'
          : ((flags.accessLevel as AccessLevel | undefined) ?? previous ?? DEFAULT_ACCESS_LEVEL),
        description: flags.description,
        ...(previous ? { previous } : {}),
        ...(flags.public ? { public: true } : {}),
      });
    }
    return await interactive(say, file, client, controller.signal, options);
  } catch (error) {
    say(`roam-mcp connect: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    process.removeListener('SIGINT', onSigint);
  }
}

/**
 * Without --type: the type the config already gives the graph (a new token for an offline graph
 * needs no --type); hosted when it is not there, or there as both.
 */
function typeOf(name: string, graphs: ReadonlyArray<{ name?: unknown; type?: unknown }>): GraphType {
  const types = new Set(
    graphs
      .filter((g) => g.name === name)
      .map((g) => (GRAPH_TYPES.includes(g.type as GraphType) ? (g.type as GraphType) : DEFAULT_GRAPH_TYPE)),
  );
  return types.size === 1 ? [...types][0]! : DEFAULT_GRAPH_TYPE;
}

async function printGraphs(
  say: (line?: string) => void,
  file: string,
  client: LocalApiClient,
  signal: AbortSignal,
): Promise<GraphRef[] | undefined> {
  const doc = await readConfigDocument(file);
  say(`Configured in ${file}:`);
  if (doc.graphs.length === 0) say('  (none)');
  for (const g of doc.graphs) {
    const token = typeof g.token === 'string' ? 'token set' : 'no token';
    const extra = [
      g.type === 'offline' ? 'offline' : '',
      g.accessLevel ?? '',
      token,
      g.disabled ? 'disabled' : '',
    ]
      .filter(Boolean)
      .join(', ');
    say(`  ${String(g.nickname ?? g.name)} (${String(g.name)}; ${extra})`);
  }
  try {
    const available = await client.graphsAvailable({ signal });
    say('Graphs Roam Desktop offers:');
    available.forEach((g, i) => {
      const known = doc.graphs.find((c) => entryGraphId(c) === graphId(g));
      const mark = known ? ` [connected as '${String(known.nickname ?? known.name)}']` : '';
      say(`  ${i + 1}. ${g.name}${g.type === 'offline' ? ' (offline)' : ''}${mark}`);
    });
    if (available.length === 0) say('  (none: sign in to Roam Desktop first)');
    return available;
  } catch (error) {
    say(`Could not list Roam's graphs: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

interface ConnectRequest {
  name: string;
  type: GraphType;
  nickname?: string;
  accessLevel: AccessLevel;
  description?: string | undefined;
  /** A public graph (not the user's): hosted, read-only, not in Roam's list. */
  public?: boolean;
  /** The level it had in the config, when it was there already. */
  previous?: AccessLevel;
}

/** Without Roam's port file we tried the default port: say where the file comes from. */
function noPortFileHint(home: string): string {
  return (
    `There is no ${portFilePath(home)}: Roam Desktop writes it when it runs with its Local API enabled ` +
    `(Roam Desktop > Settings; if Roam is running, check that the Local API is on). ` +
    `To try the demo instead, run 'npm run demo' in a clone of roam-companion: its emulator writes the file ` +
    `in a temporary HOME that it prints; run connect with HOME set to that folder.`
  );
}

async function connectGraph(
  say: (line?: string) => void,
  home: string,
  file: string,
  client: LocalApiClient,
  signal: AbortSignal,
  request: ConnectRequest,
): Promise<number> {
  // Check the nickname, and that the token can be stored, before a dialog in Roam.
  await assertConfigWritable(file);
  const doc = await readConfigDocument(file);
  upsertGraph(doc, { name: request.name, type: request.type, nickname: request.nickname });
  const own = request.accessLevel === 'read-edit-own';
  say(
    `Asking Roam Desktop for ${tokenLevelFor(request.accessLevel)} access to ${request.public ? 'public graph ' : ''}'${request.name}'.` +
      (own
        ? ' roam-mcp keeps agents to read-edit-own: they edit, move and delete only what agents created.'
        : ''),
  );
  say('Approve the request in Roam Desktop (it waits up to 5 minutes; Ctrl-C cancels).');
  try {
    const grant = await client.requestToken(
      {
        graph: request.name,
        graphType: request.type,
        description: 'roam-mcp (connect)',
        accessLevel: request.accessLevel,
      },
      { signal },
    );
    await editConfigDocument(file, (latest) =>
      upsertGraph(latest, {
        name: request.name,
        type: request.type,
        nickname: request.nickname,
        description: request.description,
        // read-edit-own is asked as full and stays read-edit-own (roam-mcp enforces it).
        accessLevel: narrowestAccess([request.accessLevel, grant.grantedAccessLevel]),
        token: grant.token,
      }),
    );
    const lower = isLowerAccess(grant.grantedAccessLevel, tokenLevelFor(request.accessLevel))
      ? ` (less than the ${request.accessLevel} requested)`
      : '';
    const saved = narrowestAccess([request.accessLevel, grant.grantedAccessLevel]);
    const changed =
      request.previous && request.previous !== saved
        ? ` Its access level was ${request.previous}, now ${saved}.`
        : '';
    say(
      `Connected '${request.nickname ?? request.name}' with ${grant.grantedAccessLevel} access${lower}${own && !lower ? ' (agents: read-edit-own)' : ''}. Saved to ${file}.${changed}`,
    );
    say('Restart your MCP client (or start a new chat) to use it.');
    return 0;
  } catch (error) {
    if (error instanceof LocalApiError) {
      // Roam answers a graph it cannot open with a bare 500: said for a person, with the names it can open.
      const missing =
        error.kind === 'internal' &&
        /exist|no access|could not open|not found/i.test(error.serverMessage ?? '');
      say(`Not connected: ${missing ? cannotOpen(request) : error.message}`);
      if (error.kind === 'not-running' && !existsSync(portFilePath(home))) say(noPortFileHint(home));
      if (missing) await listAvailable(say, client, signal, request);
      // The person running connect may ask again, unless Roam blocks the graph ("Never Allow").
      if (error.kind === 'exchange' && tokenRequestRefusal(error.code)?.askAgain !== 'after-unblock') {
        say(
          `To try again: roam-mcp connect --graph ${request.name}${request.type === 'offline' ? ' --type offline' : ''}${request.public ? ' --public' : ''}`,
        );
      }
      return 1;
    }
    throw error;
  }
}

function cannotOpen(request: ConnectRequest): string {
  return `Roam Desktop could not open ${request.public ? 'public' : request.type} graph '${request.name}': it has no such graph, or this account has no access to it. Check the name (and --type hosted or offline) against the list below.`;
}

/** After a graph Roam could not open: the graphs it can, and the command that connects the same name as Roam has it. */
async function listAvailable(
  say: Say,
  client: LocalApiClient,
  signal: AbortSignal,
  asked: ConnectRequest,
): Promise<void> {
  const available = await client.graphsAvailable({ signal }).catch(() => undefined);
  if (!available) return;
  if (available.length === 0) {
    say(`Roam Desktop offers no graphs: sign in to Roam Desktop, then try again.`);
    return;
  }
  say(`Roam Desktop has no ${asked.type} graph '${asked.name}' you can open. It offers:`);
  for (const g of available) say(`  ${g.name}${g.type === 'offline' ? ' (offline)' : ''}`);
  const other = available.find((g) => g.name === asked.name && g.type !== asked.type);
  if (other)
    say(
      `It has '${asked.name}' as ${other.type}: roam-mcp connect --graph ${asked.name} --type ${other.type}`,
    );
}

type Say = (line?: string) => void;
type Ask = (question: string) => Promise<string>;

async function interactive(
  say: Say,
  file: string,
  client: LocalApiClient,
  signal: AbortSignal,
  options: ConnectOptions,
): Promise<number> {
  const rl = createInterface({
    input: options.input ?? process.stdin,
    output: options.output ?? process.stderr,
  });
  // Input that ends (stdin closed, `< /dev/null`) answers no question: say so instead of Node's
  // "readline was closed".
  const closed = new Promise<never>((_, reject) => rl.once('close', () => reject(new InputClosedError())));
  closed.catch(() => {}); // answered by the question it interrupts
  const ask: Ask = async (question) =>
    (await Promise.race([closed, rl.question(question, { signal })])).trim();
  try {
    for (let first = true; ; first = false) {
      const listed = await printGraphs(say, file, client, signal);
      // Roam not answering: nothing could be connected, so nothing is asked.
      if (first && listed === undefined) {
        say(
          existsSync(portFilePath(options.home))
            ? 'Open Roam Desktop (with its Local API on in Settings), then run roam-mcp connect again.'
            : noPortFileHint(options.home),
        );
        return 1;
      }
      const available = listed ?? [];
      say();
      const choice = await ask(
        'Number or name of a graph to connect, r NICK to remove, d/e NICK to disable/enable, q to quit: ',
      );
      if (choice === '' || choice === 'q') return 0;
      if (await editFromPrompt(say, file, choice)) continue;
      const request = await askConnectRequest(say, ask, file, choice, available);
      await connectWithRetries(say, ask, async (retry) => {
        // Asking again: a new nickname may be what the retry needs (the same one is the default).
        if (retry) request.nickname = await askNickname(say, ask, file, request, request.nickname);
        return connectGraph(say, options.home, file, client, signal, request);
      });
    }
  } catch (error) {
    if (signal.aborted || (error as Error).name === 'AbortError') return 130;
    if (error instanceof InputClosedError) {
      say();
      say(error.message);
      return 1;
    }
    throw error;
  } finally {
    rl.close();
  }
}

class InputClosedError extends Error {
  constructor() {
    super(
      'No answer: the input is closed, so connect cannot ask. Run it in a terminal, or say everything at once: roam-mcp connect --graph NAME [--nickname NICK] [--access-level LEVEL].',
    );
  }
}

/** `r NICK`, `d NICK`, `e NICK`: remove, disable or enable; false when the choice is not one of them. */
async function editFromPrompt(say: Say, file: string, choice: string): Promise<boolean> {
  const [verb, ...rest] = choice.split(/\s+/);
  const ref = rest.join(' ');
  if (!((verb === 'r' || verb === 'd' || verb === 'e') && ref)) return false;
  try {
    await editConfigDocument(file, (doc) =>
      verb === 'r' ? removeGraph(doc, ref) : setDisabled(doc, ref, verb === 'd'),
    );
    say(`Done. Restart your MCP client to apply.`);
  } catch (error) {
    say((error as Error).message);
  }
  return true;
}

async function askConnectRequest(
  say: Say,
  ask: Ask,
  file: string,
  choice: string,
  available: GraphRef[],
): Promise<ConnectRequest> {
  const picked = /^\d+$/.test(choice) ? available[Number(choice) - 1] : undefined;
  const name = picked?.name ?? choice;
  const listed = picked ?? available.find((g) => g.name === name);
  const doc = await readConfigDocument(file);
  const existing = doc.graphs[findEntryIndex(doc, name)];
  const type: GraphType = listed?.type ?? (existing?.type === 'offline' ? 'offline' : 'hosted');
  // Not among the user's graphs nor configured: a public graph, which Roam opens read-only.
  const isPublic = !listed && !existing;
  if (isPublic)
    say(`'${name}' is not one of your graphs in Roam Desktop: connecting it as a public graph (read-only).`);
  const request: ConnectRequest = {
    name,
    type,
    accessLevel: 'read-only',
    ...(isPublic ? { public: true } : {}),
  };
  request.nickname = await askNickname(say, ask, file, request, existing?.nickname as string | undefined);
  if (!isPublic) request.accessLevel = await askAccessLevel(say, ask);
  request.description = (await ask('Description for agents (optional) []: ')) || undefined;
  return request;
}

/** Asks until the nickname is free (or the graph's own): a clash is said before anything else is asked. */
async function askNickname(
  say: Say,
  ask: Ask,
  file: string,
  graph: { name: string; type: GraphType },
  current: string | undefined,
): Promise<string | undefined> {
  for (;;) {
    const suggested = current ?? graph.name;
    const nickname = (await ask(`Nickname for '${graph.name}' [${suggested}]: `)) || current;
    try {
      upsertGraph(await readConfigDocument(file), { ...graph, nickname });
      return nickname;
    } catch (error) {
      say(`${(error as Error).message} Choose another nickname.`);
      current = undefined;
    }
  }
}

async function askAccessLevel(say: Say, ask: Ask): Promise<AccessLevel> {
  const level =
    (await ask(
      `Access level: read-only, read-append, read-edit-own (edit only what agents created) or full [${DEFAULT_ACCESS_LEVEL}]: `,
    )) || DEFAULT_ACCESS_LEVEL;
  if (ACCESS_LEVELS.includes(level as AccessLevel)) return level as AccessLevel;
  say(
    `'${level}' is not an access level; using ${DEFAULT_ACCESS_LEVEL} (you can change it in Roam's dialog).`,
  );
  return DEFAULT_ACCESS_LEVEL;
}

/** Each attempt is a fresh request in Roam; the user decides whether to ask again. */
async function connectWithRetries(
  say: Say,
  ask: Ask,
  attempt: (retry: boolean) => Promise<number>,
): Promise<void> {
  for (let retry = false; ; retry = true) {
    let code: number;
    try {
      code = await attempt(retry);
    } catch (error) {
      say((error as Error).message);
      code = 1;
    }
    if (code === 0) return;
    const again = await ask('Try again? [y/N]: ');
    if (again.toLowerCase() !== 'y') return;
  }
}
