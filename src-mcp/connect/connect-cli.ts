/**
 * `roam-mcp connect`: add Roam graphs to the config and get their tokens from Roam Desktop
 * (token exchange: the user approves in Roam), remove, disable or enable them. Interactive
 * prompts on stderr/stdin, or flags for scripts. A failed or rejected exchange never blocks a
 * retry: each attempt is a fresh request, and Ctrl-C cancels the one in flight.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline/promises';
import {
  LocalApiClient,
  LocalApiError,
  portFilePath,
  type GraphRef,
} from '../../src-shared/local-api/index.ts';
import {
  ACCESS_LEVELS,
  DEFAULT_ACCESS_LEVEL,
  GRAPH_TYPES,
  isLowerAccess,
  type AccessLevel,
  type GraphType,
} from '../../src-shared/roam-config.ts';
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
  --graph NAME [--type hosted|offline] [--nickname NICK] [--access-level read-only|read-append|full (default read-append)]
               [--description TEXT]
                                  Ask Roam Desktop for a token for NAME and add it to the config
                                  (run again to retry after a rejected or timed-out request)
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
  help?: boolean;
}

const VALUE_FLAGS: Record<string, keyof Flags> = {
  '--graph': 'graph',
  '--type': 'type',
  '--nickname': 'nickname',
  '--access-level': 'accessLevel',
  '--description': 'description',
  '--remove': 'remove',
  '--disable': 'disable',
  '--enable': 'enable',
};

function parseFlags(args: string[]): Flags | string {
  const flags: Flags = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--list') flags.list = true;
    else if (arg === '--help' || arg === '-h') flags.help = true;
    else if (arg in VALUE_FLAGS) {
      const value = args[++i];
      if (value === undefined || value.startsWith('--')) return `${arg} needs a value.`;
      (flags as Record<string, unknown>)[VALUE_FLAGS[arg] as string] = value;
    } else return `Unknown option '${arg}'.`;
  }
  if (flags.type !== undefined && !GRAPH_TYPES.includes(flags.type as GraphType)) {
    return `--type must be hosted or offline, not '${flags.type}'.`;
  }
  if (flags.accessLevel !== undefined && !ACCESS_LEVELS.includes(flags.accessLevel as AccessLevel)) {
    return `--access-level must be one of ${ACCESS_LEVELS.join(', ')}, not '${flags.accessLevel}'.`;
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
    say(CONNECT_USAGE);
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
      return await connectGraph(say, options.home, file, client, controller.signal, {
        name: flags.graph,
        type: (flags.type as GraphType | undefined) ?? 'hosted',
        nickname: flags.nickname,
        accessLevel: (flags.accessLevel as AccessLevel | undefined) ?? DEFAULT_ACCESS_LEVEL,
        description: flags.description,
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

async function printGraphs(
  say: (line?: string) => void,
  file: string,
  client: LocalApiClient,
  signal: AbortSignal,
): Promise<GraphRef[]> {
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
    available.forEach((g, i) => say(`  ${i + 1}. ${g.name}${g.type === 'offline' ? ' (offline)' : ''}`));
    if (available.length === 0) say('  (none: sign in to Roam Desktop first)');
    return available;
  } catch (error) {
    say(`Could not list Roam's graphs: ${error instanceof Error ? error.message : String(error)}`);
    return [];
  }
}

interface ConnectRequest {
  name: string;
  type: GraphType;
  nickname?: string;
  accessLevel: AccessLevel;
  description?: string;
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
  say(`Asking Roam Desktop for ${request.accessLevel} access to '${request.name}'.`);
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
        accessLevel: grant.grantedAccessLevel,
        token: grant.token,
      }),
    );
    const lower = isLowerAccess(grant.grantedAccessLevel, request.accessLevel)
      ? ` (less than the ${request.accessLevel} requested)`
      : '';
    say(
      `Connected '${request.nickname ?? request.name}' with ${grant.grantedAccessLevel} access${lower}. Saved to ${file}.`,
    );
    say('Restart your MCP client (or start a new chat) to use it.');
    return 0;
  } catch (error) {
    if (error instanceof LocalApiError) {
      say(`Not connected: ${error.message}`);
      if (error.kind === 'not-running' && !existsSync(portFilePath(home))) say(noPortFileHint(home));
      if (
        error.kind === 'exchange' &&
        ['TIMEOUT', 'CANCELLED', 'REQUEST_IN_PROGRESS', 'USER_REJECTED'].includes(error.code)
      ) {
        say(
          `To try again: roam-mcp connect --graph ${request.name}${request.type === 'offline' ? ' --type offline' : ''}`,
        );
      }
      return 1;
    }
    throw error;
  }
}

async function interactive(
  say: (line?: string) => void,
  file: string,
  client: LocalApiClient,
  signal: AbortSignal,
  options: ConnectOptions,
): Promise<number> {
  const rl = createInterface({
    input: options.input ?? process.stdin,
    output: options.output ?? process.stderr,
  });
  const ask = (question: string) => rl.question(question, { signal }).then((a) => a.trim());
  try {
    for (;;) {
      const available = await printGraphs(say, file, client, signal);
      say();
      const choice = await ask(
        'Number or name of a graph to connect, r NICK to remove, d/e NICK to disable/enable, q to quit: ',
      );
      if (choice === '' || choice === 'q') return 0;
      const [verb, ...rest] = choice.split(/\s+/);
      const ref = rest.join(' ');
      if ((verb === 'r' || verb === 'd' || verb === 'e') && ref) {
        try {
          await editConfigDocument(file, (doc) =>
            verb === 'r' ? removeGraph(doc, ref) : setDisabled(doc, ref, verb === 'd'),
          );
          say(`Done. Restart your MCP client to apply.`);
        } catch (error) {
          say((error as Error).message);
        }
        continue;
      }
      const picked = /^\d+$/.test(choice) ? available[Number(choice) - 1] : undefined;
      const name = picked?.name ?? choice;
      const type: GraphType = picked?.type ?? available.find((g) => g.name === name)?.type ?? 'hosted';
      const doc = await readConfigDocument(file);
      const existing = doc.graphs[findEntryIndex(doc, name)];
      const nickname =
        (await ask(`Nickname for '${name}' [${String(existing?.nickname ?? name)}]: `)) || undefined;
      let level =
        (await ask(`Access level: read-only, read-append or full [${DEFAULT_ACCESS_LEVEL}]: `)) ||
        DEFAULT_ACCESS_LEVEL;
      if (!ACCESS_LEVELS.includes(level as AccessLevel)) {
        say(
          `'${level}' is not an access level; using ${DEFAULT_ACCESS_LEVEL} (you can change it in Roam's dialog).`,
        );
        level = DEFAULT_ACCESS_LEVEL;
      }
      for (;;) {
        let code: number;
        try {
          code = await connectGraph(say, options.home, file, client, signal, {
            name,
            type,
            nickname,
            accessLevel: level as AccessLevel,
          });
        } catch (error) {
          say((error as Error).message);
          code = 1;
        }
        if (code === 0) break;
        const again = await ask('Try again? [y/N]: ');
        if (again.toLowerCase() !== 'y') break;
      }
    }
  } catch (error) {
    if (signal.aborted || (error as Error).name === 'AbortError') return 130;
    throw error;
  } finally {
    rl.close();
  }
}
