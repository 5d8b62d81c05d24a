/**
 * Named toolsets (docs/mcp.md, Toolsets): every chat pays for each listed tool's name,
 * description and input schema, so a client sees only the sets it selects (`--tools core,ui`,
 * ROAM_MCP_TOOLS, or per client in Roam Companion). Here are only the set names, what they are
 * for, and the default, which the server, the tray and its renderer show; which set a tool is in
 * is part of its declaration (`toolset` in src-mcp/contract/tool-definition.ts). No imports, so the server
 * reads the selection before the catalogue loads.
 */

const NAMES = ['core', 'navigation', 'ui', 'files', 'extensions', 'developer'] as const;

export type ToolsetName = (typeof NAMES)[number];

/** In the order the AI clients screen and error messages list them. */
export const TOOLSET_NAMES: ToolsetName[] = [...NAMES];

/** What each set is for, in the words the AI clients screen shows. */
export const TOOLSET_SUMMARIES: Record<ToolsetName, string> = {
  core: 'read and write pages and blocks, comments, daily notes',
  navigation: 'explore links: neighbours, paths, hubs, tags',
  ui: 'what Roam Desktop shows: windows, selection, sidebar, shortcuts',
  files: 'files hosted by Roam',
  extensions: 'tools of Roam extensions',
  developer: 'reload extensions in development',
};

/**
 * What a client gets when it selects nothing: the whole product but the extension authors' set,
 * within half the official server's tools/list bytes (bench/tools-budget.ts; docs/mcp.md, Toolsets).
 */
export const DEFAULT_TOOLSETS: readonly ToolsetName[] = ['core', 'navigation', 'ui', 'files', 'extensions'];

/**
 * How many tools each set declares (a capability-probed one counts), for the AI clients screen's
 * tool count; test/mcp/toolset-counts.test.ts checks it against the catalogue, so a tool added to
 * a set fails that test until its count here is raised.
 */
export const TOOLSET_TOOL_COUNTS: Record<ToolsetName, number> = {
  core: 29,
  navigation: 10,
  ui: 6,
  files: 3,
  extensions: 1,
  developer: 1,
};

/**
 * Of each set's tools, those listed only once a graph offers their action (a capability probe:
 * `semantic_search` needs Roam's semantic search, which not every Roam Desktop has); checked
 * against the catalogue by the same test.
 */
export const TOOLSET_PROBED_COUNTS: Partial<Record<ToolsetName, number>> = { navigation: 1 };

/** The number of tools `sets` list at most. */
export function toolCount(sets: readonly ToolsetName[]): number {
  return sets.reduce((sum, set) => sum + TOOLSET_TOOL_COUNTS[set], 0);
}

/**
 * The tools `sets` list whatever Roam Desktop offers (`always`), and those that come on top where
 * a graph offers their action (`probed`): what a client's chats are actually served.
 */
export function servedToolCount(sets: readonly ToolsetName[]): { always: number; probed: number } {
  const probed = sets.reduce((sum, set) => sum + (TOOLSET_PROBED_COUNTS[set] ?? 0), 0);
  return { always: toolCount(sets) - probed, probed };
}

/**
 * Clients that degrade past a practical number of tools across all their servers (Cursor: about
 * 40), and the sets an install writes for them when the user chose none: what fits with room for
 * another server's few tools.
 */
export const TOOL_CAPPED_CLIENTS: Readonly<
  Record<string, { cap: number; toolsets: readonly ToolsetName[] }>
> = {
  cursor: { cap: 40, toolsets: ['core', 'navigation'] },
};

/** The sets an install writes for `clientId` when the user chose none; undefined: the server's default. */
export function installDefaultToolsets(clientId: string): readonly ToolsetName[] | undefined {
  return Object.hasOwn(TOOL_CAPPED_CLIENTS, clientId) ? TOOL_CAPPED_CLIENTS[clientId]!.toolsets : undefined;
}

/** The environment variable that selects toolsets when `--tools` is absent. */
export const TOOLSETS_ENV = 'ROAM_MCP_TOOLS';

export type ToolsetSelection = { sets: ToolsetName[] } | { error: string };

/**
 * `core,navigation` (commas and/or spaces; `all` for every set) → the sets, in TOOLSET_NAMES order.
 * Empty or absent → the default. An unknown name is an error naming the valid ones.
 */
export function parseToolsets(spec: string | undefined, origin = '--tools'): ToolsetSelection {
  const names = (spec ?? '')
    .split(/[\s,]+/)
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  if (names.length === 0) return { sets: [...DEFAULT_TOOLSETS] };
  const unknown = names.filter(
    (name) => name !== 'all' && !(TOOLSET_NAMES as readonly string[]).includes(name),
  );
  if (unknown.length > 0) {
    return {
      error: `${origin} names unknown toolset${unknown.length === 1 ? '' : 's'} ${unknown.map((n) => `'${n}'`).join(', ')}. Valid toolsets: ${TOOLSET_NAMES.join(', ')}, or all (default: ${DEFAULT_TOOLSETS.join(',')}).`,
    };
  }
  if (names.includes('all')) return { sets: [...TOOLSET_NAMES] };
  return { sets: TOOLSET_NAMES.filter((set) => names.includes(set)) };
}
