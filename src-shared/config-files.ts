/**
 * Where the graph config file shared with Roam's official MCP server is looked for, in order:
 * `~/.roam-tools.json`, then the legacy `~/.roam-mcp.json` (docs/mcp.md, Configuration). The
 * MCP server, its connect CLI and the tray's import all search these.
 */
import path from 'node:path';

export const CONFIG_FILE_NAMES = ['.roam-tools.json', '.roam-mcp.json'] as const;
export const [CONFIG_FILE_NAME, LEGACY_CONFIG_FILE_NAME] = CONFIG_FILE_NAMES;

/** The config files in `home`, in lookup order. */
export function configFileCandidates(home: string): string[] {
  return CONFIG_FILE_NAMES.map((name) => path.join(home, name));
}
