/**
 * `roam-mcp changes [--graph NICK] [--chat ID] [--since TIME] [--json]` and
 * `roam-mcp undo ID… | --chat ID [--since TIME] [--graph NICK] [--dry-run] [--json]`: a person's
 * view of every agent change on this machine, and undo, working after the chat ended. Graphs and
 * tokens come from the same config as the server (env vars, --config, ~/.roam-tools.json).
 * What was asked for goes to stdout; problems go to stderr. Exit codes: 0 done, 1 failed or
 * conflicts left, 2 bad command line.
 */
import { parseArgs } from 'node:util';
import { LocalApiClient } from '../../src-shared/local-api/index.ts';
import { findGraph, type ConfiguredGraph } from '../../src-shared/roam-config.ts';
import { loadConfig } from '../config/load-config.ts';
import { personChat } from '../contract/chat.ts';
import { parseSince, SINCE_HINT } from '../changes/journal/since.ts';
import { changesJson, formatChanges, formatReport } from './changes-format.ts';
import {
  journalOpener,
  listChanges,
  undoCaller,
  undoChanges,
  type Caller,
  type Journal,
  type OpenJournal,
} from '../changes/index.ts';

export interface ChangesCliOptions {
  env: NodeJS.ProcessEnv;
  home: string;
  configPath?: string;
  version: string;
  stdout?: (text: string) => void;
  stderr?: (text: string) => void;
}

export const CHANGES_USAGE = `Usage:
  roam-mcp changes [--graph NICK] [--chat ID] [--since TIME] [--json]
                                   Agent changes on this machine, newest first
  roam-mcp undo ID... [--dry-run] [--json]
  roam-mcp undo --chat ID [--graph NICK] [--since TIME] [--dry-run] [--json]
                                   Take changes back; --dry-run shows what would change
TIME: an ISO time (2026-07-23T14:00:00Z), today, or a duration back from now (30m, 2h, 1d).
`;

const options = {
  graph: { type: 'string' },
  chat: { type: 'string' },
  since: { type: 'string' },
  json: { type: 'boolean' },
  'dry-run': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

class UsageError extends Error {}

/** --since as a time, or a usage error naming the forms it takes. */
function sinceOf(value: string): number {
  const ms = parseSince(value);
  if (ms === undefined) throw new UsageError(`--since '${value}' is not a time: use ${SINCE_HINT}.`);
  return ms;
}

function parse(argv: string[]) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/**
 * NICK (or a graph name) → the graph name the journal records: the config's nicknames, then the
 * nicknames the journal recorded (Roam Companion's, for graphs only the tray knows).
 */
async function graphName(
  journal: OpenJournal,
  graphs: readonly ConfiguredGraph[],
  ref: string | undefined,
): Promise<string | undefined> {
  if (ref === undefined) return undefined;
  const configured = findGraph(graphs, ref);
  if (configured) return configured.name;
  const recorded = new Map<string, { name: string; nickname: string }>();
  for (const c of await listChanges({}, { journal: await journal() }))
    recorded.set(`${c.graph}\n${c.nickname ?? c.graph}`, { name: c.graph, nickname: c.nickname ?? c.graph });
  const found = findGraph([...recorded.values()], ref);
  if (found) return found.name;
  const known = [
    ...new Set([...graphs.map((g) => g.nickname), ...[...recorded.values()].map((g) => g.nickname)]),
  ];
  throw new UsageError(
    `No graph '${ref}': it is neither a nickname or name in the Roam MCP config nor a graph with recorded changes.${known.length ? ` Known: ${known.join(', ')}.` : ''}`,
  );
}

async function configured(options: ChangesCliOptions) {
  const loaded = await loadConfig({ configPath: options.configPath, env: options.env, home: options.home });
  if (loaded.errors.length > 0)
    throw new Error(`The Roam MCP config has a problem: ${loaded.errors.join(' ')}`);
  return loaded.graphs;
}

/** The undo's calls, on the config's graphs that have a token. */
function caller(graphs: readonly ConfiguredGraph[], home: string): Caller {
  const client = new LocalApiClient({ home });
  return undoCaller({
    graphs: () => graphs.filter((g) => g.token !== undefined),
    call: (graph, action, args) =>
      client.call({ name: graph.name, type: graph.type, token: graph.token! }, action, args),
    missing: (name) =>
      new Error(
        `No token for graph '${name}' in the config: run 'roam-mcp connect' for it, then undo again.`,
      ),
  });
}

/** Says on stderr how many journal lines could not be read (the rest was read as usual). */
function noteSkipped(journal: Journal, command: string, err: (text: string) => void): void {
  const skipped = journal.reader.skipped;
  if (skipped > 0)
    err(
      `roam-mcp ${command}: ${skipped} journal line(s) in ${journal.store.dir} could not be read (cut off, or not a record's shape) and were skipped; everything else was read.\n`,
    );
}

export async function runChangesCli(
  command: 'changes' | 'undo',
  argv: string[],
  cli: ChangesCliOptions,
): Promise<number> {
  const out = cli.stdout ?? ((text: string) => void process.stdout.write(text));
  const err = cli.stderr ?? ((text: string) => void process.stderr.write(text));
  try {
    const { values, positionals } = parse(argv);
    if (values.help) return (out(CHANGES_USAGE), 0);
    // Listing needs no token: a config that cannot be read only loses the nickname lookup.
    const graphs = command === 'changes' ? await configured(cli).catch(() => []) : await configured(cli);
    // This machine's journal, or the data folder's that ROAM_COMPANION_DATA_DIR names.
    const journal = journalOpener({ env: cli.env, home: cli.home });
    const graph = await graphName(journal, graphs, values.graph);
    const since = values.since === undefined ? undefined : sinceOf(values.since);
    if (command === 'changes') {
      if (positionals.length) throw new UsageError(`Unknown argument '${positionals[0]}'.`);
      const opened = await journal();
      const changes = await listChanges({ graph, chat: values.chat, since }, { journal: opened });
      // Where it looked: a demo's or the tray's journal lives in another data folder.
      out(values.json ? changesJson(changes) : formatChanges(changes, opened.store.dir));
      noteSkipped(opened, command, err);
      return 0;
    }
    if (positionals.length === 0 && values.chat === undefined && since === undefined)
      throw new UsageError('Say what to undo: change ids, --chat ID or --since TIME.');
    const report = await undoChanges(
      {
        ...(positionals.length ? { ids: positionals } : {}),
        chat: values.chat,
        since,
        graph,
        dryRun: values['dry-run'] === true,
      },
      caller(graphs, cli.home),
      {
        journal: await journal(),
        actor: { chat: personChat('roam-mcp undo', cli.version), tool: 'roam-mcp undo' },
      },
    );
    out(values.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report));
    noteSkipped(await journal(), command, err);
    return report.changes.some(
      (c) => c.result !== 'undone' && c.result !== 'would-undo' && c.result !== 'already-undone',
    )
      ? 1
      : 0;
  } catch (error) {
    if (error instanceof UsageError) {
      err(`roam-mcp ${command}: ${error.message}\n\n${CHANGES_USAGE}`);
      return 2;
    }
    err(`roam-mcp ${command}: ${(error as Error).message}\n`);
    return 1;
  }
}
