/**
 * `roam-mcp install <client> [--tools SETS] [--dry-run]`, `roam-mcp uninstall <client> [--dry-run]`
 * and `status [--json]`: the same installers the tray's "Connect AI clients" screen uses.
 * Messages go to stderr; stdout carries only what was asked for (a dry-run diff, the status, a
 * command to paste), so it can be piped. Never used in stdio server mode.
 */
import { stat } from 'node:fs/promises';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { CLIENT_IDS, isClientId, type ClientId, type ClientView } from '../../src-shared/clients.ts';
import {
  installDefaultToolsets,
  parseToolsets,
  TOOL_CAPPED_CLIENTS,
  toolCount,
  TOOLSET_NAMES,
  type ToolsetName,
} from '../../src-shared/toolsets.ts';
import type { ClientChangeOutcome } from '../../src-shared/clients.ts';
import { claudeCodeAddCommand, CLAUDE_CODE_REMOVE_COMMAND } from '../installers/claude-code.ts';
import { clientSpec } from '../installers/client-catalogue.ts';
import { clientPackage, duplicateNote } from '../installers/client-packages.ts';
import { closestNames } from '../installers/did-you-mean.ts';
import { InstallerError } from '../installers/installer-error.ts';
import type { InstallerOptions } from '../installers/installer-options.ts';
import {
  getClient,
  install,
  keyBehind,
  listClients,
  previewChange,
  uninstall,
  type ClientAction,
} from '../installers/installer.ts';
import { npxLauncherNote, standaloneLauncher } from '../installers/launcher.ts';
import { lineDiff } from '../installers/line-diff.ts';
import { KeyError } from '../data-folder/key-store.ts';
import {
  claudeCodeEntryReadsHeaders,
  clientHttpTarget,
  takeBackKey,
  type Transport,
} from './install-http.ts';

/** Exit codes: success (including "nothing to do"), the change failed, the command line was wrong. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** Test seams: where to look and what to launch, and where output goes. */
export interface InstallerCliOverrides extends Partial<InstallerOptions> {
  stdout?: (text: string) => void;
  stderr?: (text: string) => void;
}

const SYNOPSIS = `Usage:
  roam-mcp install <client> [--transport http|stdio] [--tools SETS] [--dry-run]
                                            add Roam Companion to the client's MCP config
  roam-mcp uninstall <client> [--dry-run]   remove it again (other servers are never touched)
  roam-mcp install                          list the clients and whether each is installed
  roam-mcp status [--json]                  the same list (--json: as JSON)
`;

/** After a usage error: the synopsis only, so the error stays on screen. */
const SHORT_USAGE = `${SYNOPSIS}Run 'roam-mcp install --help' for the clients and options.
`;

const USAGE = `Connect AI clients to Roam Companion.

${SYNOPSIS}
Clients: ${CLIENT_IDS.join(', ')}
--tools SETS: the toolsets the client gets (${TOOLSET_NAMES.join(', ')}, or all); without it the
  server's default (every set but developer), except for clients that work poorly with many tools
  (${Object.entries(TOOL_CAPPED_CLIENTS)
    .map(([id, { toolsets }]) => `${id}: ${toolsets.join(',')}`)
    .join('; ')}), and an entry's earlier choice is kept.
--transport http: the client connects to the running server (roam-mcp serve --http, or Roam
  Companion) with a key of its own, written only into its config (--tools: that key's toolsets);
  stdio: the client starts its own roam-mcp. Default: http when a server is running and the client
  speaks it (not claude-desktop).
--dry-run shows the change without writing anything.
Each change keeps a copy of the previous file as <config>.roam-companion-backup.
`;

/** The same words as `status --json`'s `state`, so both read alike. */
const STATES: ClientView['state'][] = ['installed', 'not-installed', 'stale', 'unavailable'];

function customOptionsLine(view: ClientView): string | undefined {
  if (!view.customOptions) return undefined;
  const { args, env } = view.customOptions;
  const parts = [...(args.length ? [args.join(' ')] : []), ...(env.length ? [`env ${env.join(', ')}`] : [])];
  return `With your options (kept when the entry is updated): ${parts.join('; ')}`;
}

function formatStatus(views: ClientView[]): string {
  const nameWidth = Math.max(...views.map((view) => view.name.length));
  const stateWidth = Math.max(...STATES.map((state) => state.length));
  return views
    .map((view) => {
      const head = `${view.name.padEnd(nameWidth)}  ${view.state.padEnd(stateWidth)}  ${view.configPath ?? ''}`;
      const details = [
        customOptionsLine(view),
        view.message,
        view.command && view.state !== 'installed' ? view.command : undefined,
      ];
      const indent = ' '.repeat(nameWidth + 2);
      return [head.trimEnd(), ...details.filter(Boolean).map((line) => indent + line)].join('\n');
    })
    .join('\n');
}

class UsageError extends Error {}

interface ParsedArgs {
  command: 'install' | 'uninstall' | 'status' | 'help';
  client?: ClientId;
  dryRun: boolean;
  json: boolean;
  /** `install --tools SETS`, validated. */
  tools?: ToolsetName[];
  transport?: Transport;
  /** `install`/`uninstall` without a client: show the clients' status to choose from. */
  clientMissing?: 'install' | 'uninstall';
}

const flagOptions = {
  'dry-run': { type: 'boolean' },
  json: { type: 'boolean' },
  tools: { type: 'string' },
  transport: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Which flags each command takes, and whether the flag takes a value. */
const ALLOWED: Record<'install' | 'uninstall' | 'status', Record<string, 'flag' | 'value'>> = {
  install: { 'dry-run': 'flag', tools: 'value', transport: 'value' },
  uninstall: { 'dry-run': 'flag' },
  status: { json: 'flag' },
};

function parseInstallerArgs(argv: string[]): ParsedArgs {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    return { command: 'help', dryRun: false, json: false };
  }
  if (command !== 'install' && command !== 'uninstall' && command !== 'status') {
    throw new UsageError(`Unknown command "${command}".`);
  }
  // Not strict: every argument comes back as typed, so an unknown one is named in our words.
  const { tokens } = parseArgs({
    args: rest,
    options: flagOptions,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const flags = tokens.flatMap((t) => (t.kind === 'option' ? [t] : []));
  if (flags.some((flag) => flag.name === 'help')) return { command: 'help', dryRun: false, json: false };
  const allowed = ALLOWED[command];
  for (const flag of flags) {
    const kind = Object.hasOwn(allowed, flag.name) ? allowed[flag.name] : undefined;
    if (kind === 'value' && !flag.value) {
      throw new UsageError(
        flag.name === 'transport'
          ? `${flag.rawName} needs http or stdio.`
          : `${flag.rawName} needs toolset names, e.g. ${flag.rawName} core,navigation (or all).`,
      );
    }
    if (kind === undefined || (kind === 'flag' && flag.value !== undefined)) {
      const typed = flag.inlineValue ? `${flag.rawName}=${flag.value}` : flag.rawName;
      throw new UsageError(`Unknown option "${typed}" for ${command}.`);
    }
  }
  const tools = flags.find((flag) => flag.name === 'tools')?.value;
  const transport = flags.find((flag) => flag.name === 'transport')?.value;
  if (transport !== undefined && transport !== 'http' && transport !== 'stdio')
    throw new UsageError(`--transport ${transport} is not a transport: use http or stdio.`);
  const parsed: ParsedArgs = {
    command,
    dryRun: flags.some((flag) => flag.name === 'dry-run'),
    json: flags.some((flag) => flag.name === 'json'),
    ...(tools !== undefined ? { tools: toolsetsOf(tools) } : {}),
    ...(transport !== undefined ? { transport } : {}),
  };
  const positionals = tokens.flatMap((t) => (t.kind === 'positional' ? [t.value] : []));
  return withClient(parsed, command, positionals);
}

function toolsetsOf(spec: string): ToolsetName[] {
  const selection = parseToolsets(spec, '--tools');
  if ('error' in selection) throw new UsageError(selection.error);
  return selection.sets;
}

function withClient(parsed: ParsedArgs, command: ClientAction | 'status', positionals: string[]): ParsedArgs {
  if (command === 'status') {
    if (positionals.length > 0) throw new UsageError(`status takes no client (got "${positionals[0]}").`);
    return parsed;
  }
  if (positionals.length === 0) return { ...parsed, command: 'status', clientMissing: command };
  if (positionals.length > 1) {
    throw new UsageError(`${command} takes one client (got ${positionals.length}).`);
  }
  const client = positionals[0]!;
  if (!isClientId(client)) throw new UsageError(unknownClientMessage(client));
  return { ...parsed, client };
}

function unknownClientMessage(typed: string): string {
  const ids = CLIENT_IDS;
  const close = closestNames(typed, ids);
  const guess = close.length ? ` Did you mean ${close.join(' or ')}?` : '';
  return `Unknown client "${typed}".${guess} Clients: ${ids.join(', ')}.`;
}

/**
 * The toolsets an install writes when none were asked for and no key of an http install carried
 * any: for a new entry in a client with a tool cap, the sets that fit it; else none (an existing
 * entry is the user's: it keeps its choice, or follows the server's default).
 */
async function cappedToolsets(
  id: ClientId,
  opts: InstallerOptions,
  err: (text: string) => void,
): Promise<readonly ToolsetName[] | undefined> {
  const capped = installDefaultToolsets(id);
  if (!capped) return undefined;
  const { state } = await getClient(id, opts);
  if (state === 'installed' || state === 'stale') return undefined;
  const { name } = clientSpec(id);
  const { cap } = TOOL_CAPPED_CLIENTS[id]!;
  err(
    `Note: ${name} works poorly past about ${cap} tools across all its servers, so its entry gets ` +
      `--tools ${capped.join(',')} (${toolCount(capped)} of ${toolCount(TOOLSET_NAMES)} tools). ` +
      `To choose others: roam-mcp install ${id} --tools SETS (e.g. --tools all).\n`,
  );
  return capped;
}

/** Returns what was written, when something was (not for a dry run or Claude Code's command). */
async function runChange(
  action: ClientAction,
  id: ClientId,
  dryRun: boolean,
  opts: InstallerOptions,
  out: (text: string) => void,
  err: (text: string) => void,
): Promise<ClientChangeOutcome | undefined> {
  const spec = clientSpec(id);
  const { name } = spec;
  const npxNote = action === 'install' ? npxLauncherNote(opts.launcher) : undefined;
  if (npxNote) err(`Note: ${npxNote}\n`);
  if (spec.setup === 'command') {
    const before = await getClient(id, opts);
    // The command for the transport asked now (a stdio install over an http entry adds stdio).
    const command = action === 'install' ? claudeCodeAddCommand(opts) : CLAUDE_CODE_REMOVE_COMMAND;
    if (action === 'install' && before.transport) {
      if (before.state === 'installed' && before.transport === 'stdio' && !opts.http) {
        err(`${name} is already connected to this copy of Roam Companion. Nothing to do.\n`);
        return;
      }
      if (!dryRun && opts.http?.headersFile && (await claudeCodeEntryReadsHeaders(opts, opts.http.url))) {
        err(
          `${name} already connects to ${opts.http.url} with the key its entry reads from ${opts.http.headersFile}, ` +
            'which holds its new key now: there is nothing to run. Its next connection uses the new key.\n',
        );
        return;
      }
      // `claude mcp add` refuses a name it already has, whatever that entry is.
      err(
        `${name} manages its own settings, so Roam Companion doesn't edit them. It already has ` +
          `${before.transport === 'http' ? 'an HTTP' : 'a stdio'} entry named roam-companion, which must go first: run these two in a terminal, in this order:\n`,
      );
      out(`${CLAUDE_CODE_REMOVE_COMMAND}\n${command}\n`);
      return;
    }
    err(`${name} manages its own settings, so Roam Companion doesn't edit them. Run this in a terminal:\n`);
    out(`${command}\n`);
    return;
  }
  if (dryRun) {
    const location = await spec.locate(opts);
    const preview = await previewChange(id, action, opts, true);
    if (preview.after === null || preview.after === preview.before) {
      err(`Dry run: ${preview.configPath} needs no change.\n`);
      return;
    }
    out(`--- ${preview.configPath} (now)\n+++ ${preview.configPath} (after ${action})\n`);
    out(`${lineDiff(preview.before, preview.after)}\n`);
    for (const line of await privacyLines(id, preview, opts, 'would')) err(`Dry run: ${line}\n`);
    if (!location.clientDirExists && !preview.madeDir) {
      err(
        `Dry run: ${location.clientDir} doesn't exist yet, so \`roam-mcp ${action} ${id}\` would stop ` +
          `there: install ${name} and open it once, then run it to write the above.\n`,
      );
    }
    err('Dry run: nothing was written. Secrets in the file are shown as <hidden>.\n');
    return;
  }
  const result = action === 'install' ? await install(id, opts) : await uninstall(id, opts);
  const file = result.client.configPath;
  if (!result.changed) {
    err(
      action === 'install'
        ? `Roam Companion is already installed in ${name} (${file}). Nothing to do.\n`
        : `${name} has no Roam Companion entry (${file}). Nothing to do.\n`,
    );
    return result;
  }
  err(
    `${action === 'install' ? 'Installed Roam Companion in' : 'Uninstalled Roam Companion from'} ${name}: ${file}\n`,
  );
  for (const line of await privacyLines(id, result, opts, 'did')) err(`${line}\n`);
  if (result.backupPath) err(`The previous file is saved as ${result.backupPath}\n`);
  err(`Restart ${name} to apply the change.\n`);
  return result;
}

/** The client's own package (plugin, extension) brings our server too: the person keeps one of the two. */
async function noteDuplicate(id: ClientId, opts: InstallerOptions, err: (text: string) => void) {
  const found = await clientPackage(id, opts);
  if (found) err(`Note: ${duplicateNote(clientSpec(id).name, id, found)}\n`);
}

const octal = (mode: number) => mode.toString(8).padStart(3, '0');

/** What a change does to who may read the file and its folder, said before (`would`) and after (`did`). */
async function privacyLines(
  id: ClientId,
  change: Pick<ClientChangeOutcome, 'modeNarrowed' | 'madeDir'>,
  opts: InstallerOptions,
  tense: 'would' | 'did',
): Promise<string[]> {
  const lines: string[] = [];
  const { modeNarrowed: narrowed, madeDir } = change;
  const { name } = clientSpec(id);
  if (madeDir)
    lines.push(
      tense === 'did'
        ? `Made ${madeDir} (mode ${octal((await stat(madeDir)).mode & 0o777)}), as ${name} makes it when it first runs.`
        : `${madeDir} doesn't exist yet: install would make it as ${name} does when it first runs.`,
    );
  if (narrowed)
    lines.push(
      `${tense === 'did' ? 'The file holds its key now, so it is' : 'the file will hold a key, so install would make it'} ` +
        `mode ${octal(narrowed.to)} (it was ${octal(narrowed.from)}, which let others on this computer read it).`,
    );
  if ((opts.platform ?? process.platform) === 'win32' && opts.http?.key)
    lines.push(
      'On Windows file modes do not apply: the key is as private as your profile folder, whose access rules (ACLs) let only you read it by default.',
    );
  return lines;
}

/** `install` over HTTP, when that is the transport; false when it is stdio. */
async function installedOverHttp(
  id: ClientId,
  args: ParsedArgs,
  opts: InstallerOptions,
  out: (text: string) => void,
  err: (text: string) => void,
): Promise<boolean> {
  const http = await clientHttpTarget(id, args.transport, args.tools, args.dryRun, opts, err);
  if (!http) return false;
  // The old key goes only once the new entry is written and reads back holding the new one.
  const done = await runChange('install', id, args.dryRun, { ...opts, http: http.target }, out, err).catch(
    async (error: unknown) => {
      await http.made?.abandon();
      throw error;
    },
  );
  await http.made?.settle(done);
  await noteDuplicate(id, opts, err);
  return true;
}

/**
 * Runs `install|uninstall|status ...` (argv starts at the subcommand) and returns the exit code.
 * `status [--json]` prints every client's state on stdout; so do `install`/`uninstall` without a
 * client, then say on stderr how to name one: `roam-mcp install` alone shows what to pick.
 * Exit codes: 0 done or nothing to do, 1 the change failed (message on stderr), 2 bad command line.
 */
export async function runInstallerCli(
  argv: string[],
  overrides: InstallerCliOverrides = {},
): Promise<number> {
  const out = overrides.stdout ?? ((text: string) => void process.stdout.write(text));
  const err = overrides.stderr ?? ((text: string) => void process.stderr.write(text));
  let args: ParsedArgs;
  try {
    args = parseInstallerArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    err(`roam-mcp: ${error.message}\n\n${SHORT_USAGE}`);
    return EXIT.usage;
  }
  if (args.command === 'help') {
    out(USAGE);
    return EXIT.ok;
  }
  const opts: InstallerOptions = {
    home: overrides.home ?? os.homedir(),
    launcher: overrides.launcher ?? standaloneLauncher(),
    platform: overrides.platform ?? process.platform,
    env: overrides.env ?? process.env,
  };
  try {
    if (args.command === 'status') {
      const views = await listClients(opts);
      out(args.json ? `${JSON.stringify(views, null, 2)}\n` : `${formatStatus(views)}\n`);
      if (args.clientMissing) {
        err(
          `\nTo ${args.clientMissing}, name a client: roam-mcp ${args.clientMissing} <client>, ` +
            `one of ${CLIENT_IDS.join(', ')}.\n`,
        );
      }
      // `install` alone is how to see what to install; `uninstall` alone removes nothing: a usage error.
      return args.clientMissing === 'uninstall' ? EXIT.usage : EXIT.ok;
    }
    const id = args.client!;
    if (args.command === 'install' && (await installedOverHttp(id, args, opts, out, err))) return EXIT.ok;
    // The client launches roam-mcp itself now, or is removed: the key of an http install stops
    // working, once the file no longer holds it (until then the client keeps working as it was).
    const behind = await keyBehind(id, opts);
    const toolsets =
      args.command === 'install'
        ? (args.tools ?? behind?.info.toolsets ?? (await cappedToolsets(id, opts, err)))
        : undefined;
    const launcher = toolsets
      ? { ...opts.launcher, args: [...opts.launcher.args, '--tools', toolsets.join(',')] }
      : opts.launcher;
    const changeOpts = { ...opts, launcher };
    const done = await runChange(args.command, id, args.dryRun, changeOpts, out, err);
    if (behind && !args.dryRun) await takeBackKey(id, behind, done, changeOpts, err);
    if (args.command === 'install') await noteDuplicate(id, opts, err);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof InstallerError || error instanceof KeyError) {
      err(`roam-mcp ${args.command}: ${error.message}\n`);
      return EXIT.failed;
    }
    err(
      `roam-mcp ${args.command}: unexpected error (${(error as Error).message}). ` +
        'Run `roam-mcp status` to check, and report this if it happens again.\n',
    );
    return EXIT.failed;
  }
}
