/** Command-line parsing for `roam-mcp` (no dependency: the bin must start fast). */
import { parseStaleness } from './navigation/index-staleness.ts';

export type CliCommand =
  | { command: 'serve'; configPath?: string; readOnly: boolean; indexStalenessMs?: number }
  | { command: 'connect'; args: string[]; configPath?: string }
  /** `install`, `uninstall`, `status`: the client installers (src-mcp/installers). */
  | { command: 'installers' }
  | { command: 'help' | 'version' }
  | { command: 'error'; message: string };

export const USAGE = `Usage:
  roam-mcp [--config PATH] [--read-only]   Run the MCP server on stdio (what MCP clients start)
           [--index-staleness-ms N]        Reuse the navigation index for N ms without asking Roam (default 2000)
  roam-mcp connect [options]               Add a Roam graph and get a token from Roam Desktop
                                           (run 'roam-mcp connect --help' for its options)
  roam-mcp install <client> [--dry-run]    Add roam-mcp to claude-desktop, claude-code, cursor or vscode
  roam-mcp uninstall <client> [--dry-run]  Remove it again
  roam-mcp status [--json]                 Which clients have roam-mcp configured
  roam-mcp --help | --version

Config (first found): the env vars ROAM_GRAPH + ROAM_API_TOKEN (+ ROAM_GRAPH_TYPE, ROAM_GRAPH_NICKNAME),
--config PATH, ~/.roam-tools.json, ~/.roam-mcp.json.
`;

export function parseCliArgs(argv: string[]): CliCommand {
  const [first] = argv;
  if (first === 'install' || first === 'uninstall' || first === 'status') return { command: 'installers' };
  if (first === 'connect') {
    const rest = argv.slice(1);
    const at = rest.indexOf('--config');
    if (at >= 0) {
      const configPath = rest[at + 1];
      if (!configPath) return { command: 'error', message: '--config needs a file path.' };
      return { command: 'connect', args: [...rest.slice(0, at), ...rest.slice(at + 2)], configPath };
    }
    return { command: 'connect', args: rest };
  }
  let configPath: string | undefined;
  let readOnly = false;
  let indexStalenessMs: number | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--help' || arg === '-h' || arg === 'help') return { command: 'help' };
    if (arg === '--version' || arg === '-v') return { command: 'version' };
    if (arg === '--read-only') readOnly = true;
    else if (arg === '--config') {
      configPath = argv[++i];
      if (!configPath) return { command: 'error', message: '--config needs a file path.' };
    } else if (arg.startsWith('--config=')) configPath = arg.slice('--config='.length);
    else if (arg === '--index-staleness-ms' || arg.startsWith('--index-staleness-ms=')) {
      const text = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : (argv[++i] ?? '');
      const parsed = parseStaleness(text, '--index-staleness-ms');
      if (typeof parsed === 'string') return { command: 'error', message: parsed };
      indexStalenessMs = parsed;
    } else return { command: 'error', message: `Unknown argument '${arg}'.` };
  }
  return { command: 'serve', configPath, readOnly, indexStalenessMs };
}
