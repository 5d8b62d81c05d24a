/** Command-line parsing for `roam-mcp` (node:util only: the bin must start fast). */
import { parseArgs } from 'node:util';
import { parseStaleness } from '../navigation/index-staleness.ts';

export type CliCommand =
  /** `tools`: the toolset selection as typed (validated by the server, src-shared/toolsets.ts). */
  | {
      command: 'serve';
      configPath?: string;
      readOnly: boolean;
      /** `--confirm never|destructive`: ask the person before destructive writes (docs/mcp.md). */
      confirm?: 'never' | 'destructive';
      tools?: string;
      indexStalenessMs?: number;
      /** `--upload-folder PATH`, repeatable: where file_upload may read local files. */
      uploadFolders?: string[];
    }
  | { command: 'connect'; args: string[]; configPath?: string }
  /** `changes`, `undo`: the change journal (src-mcp/cli/changes.ts parses the rest). */
  | { command: 'changes' | 'undo'; args: string[]; configPath?: string }
  /** `doctor`: the setup's checks (src-mcp/cli/doctor.ts parses the rest). */
  | { command: 'doctor'; args: string[]; configPath?: string }
  /** `serve --http …` (src-mcp/cli/serve.ts) and `key …` (src-mcp/cli/keys.ts) parse the rest. */
  | { command: 'serve-http' | 'key' | 'remote'; args: string[] }
  /** `install`, `uninstall`, `status`: the client installers (src-mcp/installers). */
  | { command: 'installers' }
  | { command: 'help' | 'version' }
  | { command: 'error'; message: string };

export const USAGE = `Usage:
  roam-mcp [--config PATH] [--read-only] [--tools SETS]
                                           Run the MCP server on stdio (what MCP clients start);
                                           SETS: core,navigation,ui,files,extensions,developer or
                                           all (default: all but developer; or env ROAM_MCP_TOOLS)
           [--confirm never|destructive]   Ask the person (clients with elicitation) before deleting
                                           or renaming much (default destructive)
           [--index-staleness-ms N]        Reuse the navigation index for N ms without asking Roam (default 2000)
           [--upload-folder PATH]...       Let file_upload read local files in PATH (repeatable; default none)
  roam-mcp serve --http [--port N] [--host 127.0.0.1] [server options above]
                                           Serve every local MCP client over HTTP at
                                           http://127.0.0.1:N/mcp (default port 39017; 0: any free one)
  roam-mcp key create NAME [--access LEVEL] | list | revoke NAME
                                           Keys HTTP clients connect with (printed once, stored hashed)
  roam-mcp remote requests | approve ID | deny ID | connections | revoke ID | on | off
                                           Remote access (serve --http --public-url): answer sign-ins at
                                           this machine (docs/remote.md)
  roam-mcp connect [options]               Add a Roam graph and get a token from Roam Desktop
                                           (run 'roam-mcp connect --help' for its options)
  roam-mcp install [<client>] [--transport http|stdio] [--tools SETS] [--dry-run]
                                           Add roam-mcp to claude-desktop, claude-code, cursor, vscode,
                                           gemini-cli or codex (no client: list them; --transport: http
                                           to the running server, or stdio; --tools: the sets it gets)
  roam-mcp uninstall <client> [--dry-run]  Remove it again
  roam-mcp status [--json]                 Which clients have roam-mcp configured, and whether it works
  roam-mcp doctor [--json] [--report FILE] Check the setup in order and say what to fix
                                           (--report: a redacted file for a bug report)
  roam-mcp changes [--graph NICK] [--chat ID] [--since TIME] [--json]
                                           Changes agents made on this machine (docs/undo.md)
  roam-mcp undo ID... | --chat ID [--dry-run] [--json]
                                           Take changes back (--dry-run shows what would change)
  roam-mcp --help | --version

Config (first found): the env vars ROAM_GRAPH + ROAM_API_TOKEN (+ ROAM_GRAPH_TYPE, ROAM_GRAPH_NICKNAME),
--config PATH, ~/.roam-tools.json, ~/.roam-mcp.json.
`;

/** After a usage error: short, so the error stays on screen. */
export const SHORT_USAGE = `Usage: roam-mcp [--config PATH] [--read-only] [--tools SETS] ...   (the stdio server)
       roam-mcp serve --http | connect | install | uninstall | status | doctor | key | remote | changes | undo ...
Run 'roam-mcp --help' for every command and option.
`;

const serveOptions = {
  config: { type: 'string' },
  'index-staleness-ms': { type: 'string' },
  'read-only': { type: 'boolean' },
  confirm: { type: 'string' },
  tools: { type: 'string' },
  'upload-folder': { type: 'string', multiple: true },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

const needsPath = { command: 'error', message: '--config needs a file path.' } as const;
const needsToolsets = {
  command: 'error',
  message: '--tools needs toolset names, e.g. --tools core,navigation (or all).',
} as const;
const needsFolder = {
  command: 'error',
  message: '--upload-folder needs a folder path, e.g. --upload-folder ~/Pictures.',
} as const;
const needsConfirm = (value: string | undefined): CliCommand => ({
  command: 'error',
  message: `--confirm takes never or destructive${value ? `, not '${value}'` : ''}.`,
});
const unknown = (arg: string): CliCommand => ({ command: 'error', message: `Unknown argument '${arg}'.` });

export function parseCliArgs(argv: string[]): CliCommand {
  const [first] = argv;
  if (first === 'install' || first === 'uninstall' || first === 'status') return { command: 'installers' };
  if (first === 'connect') return parseConnect(argv.slice(1));
  if (first === 'serve') return { command: 'serve-http', args: argv.slice(1) };
  if (first === 'key') return { command: 'key', args: argv.slice(1) };
  if (first === 'remote') return { command: 'remote', args: argv.slice(1) };
  if (first === 'doctor') {
    const parsed = parseConnect(argv.slice(1));
    return parsed.command === 'connect' ? { ...parsed, command: 'doctor' } : parsed;
  }
  if (first === 'changes' || first === 'undo') {
    const parsed = parseConnect(argv.slice(1));
    return parsed.command === 'connect' ? { ...parsed, command: first } : parsed;
  }
  let configPath: string | undefined;
  let readOnly = false;
  let tools: string | undefined;
  let confirm: 'never' | 'destructive' | undefined;
  let indexStalenessMs: number | undefined;
  const uploadFolders: string[] = [];
  // In order, as typed: `--help` wins over what follows it, an unknown argument over what follows.
  for (const token of tokensOf(argv)) {
    if (token.kind === 'positional') {
      if (token.value === 'help') return { command: 'help' };
      return unknown(token.value);
    }
    if (token.kind === 'option-terminator') return unknown('--');
    if (token.name === 'help') return { command: 'help' };
    if (token.name === 'version') return { command: 'version' };
    if (token.name === 'config') {
      if (token.value === undefined) return needsPath;
      // The .mcpb manifest passes `--config=${user_config.config_file}`: empty when the user set none.
      configPath = token.value || undefined;
    } else if (token.name === 'tools') {
      if (token.value === undefined) return needsToolsets;
      // The .mcpb manifest passes `--tools=${user_config.tools}`: empty when the user chose none.
      tools = token.value || undefined;
    } else if (token.name === 'confirm') {
      if (token.value !== 'never' && token.value !== 'destructive') return needsConfirm(token.value);
      confirm = token.value;
    } else if (token.name === 'upload-folder') {
      if (!token.value) return needsFolder;
      uploadFolders.push(token.value);
    } else if (token.name === 'read-only' && token.value === undefined) readOnly = true;
    else if (token.name === 'index-staleness-ms') {
      const parsed = parseStaleness(token.value ?? '', '--index-staleness-ms');
      if (typeof parsed === 'string') return { command: 'error', message: parsed };
      indexStalenessMs = parsed;
    } else return unknown(token.inlineValue ? `${token.rawName}=${token.value}` : token.rawName);
  }
  return {
    command: 'serve',
    configPath,
    readOnly,
    indexStalenessMs,
    ...(confirm ? { confirm } : {}),
    ...(tools !== undefined ? { tools } : {}),
    ...(uploadFolders.length > 0 ? { uploadFolders } : {}),
  };
}

/** `connect` takes `--config` like the server; every other argument is connect's own. */
function parseConnect(rest: string[]): CliCommand {
  const config = tokensOf(rest).find((token) => token.kind === 'option' && token.name === 'config');
  if (!config || config.kind !== 'option') return { command: 'connect', args: rest };
  if (!config.value) return needsPath;
  const width = config.inlineValue ? 1 : 2;
  const args = [...rest.slice(0, config.index), ...rest.slice(config.index + width)];
  return { command: 'connect', args, configPath: config.value };
}

// Not strict: the tokens keep every argument as typed, so an unknown one is named in our own words.
const tokensOf = (args: string[]) =>
  parseArgs({ args, options: serveOptions, strict: false, allowPositionals: true, tokens: true }).tokens;
