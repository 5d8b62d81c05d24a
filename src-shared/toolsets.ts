/**
 * Named toolsets (docs/mcp.md, Toolsets): every chat pays for each listed tool's name,
 * description and input schema, so a client sees only the sets it selects (`--tools core,ui`,
 * ROAM_MCP_TOOLS, or per client in Roam Companion). Membership is by tool name: a tool added to
 * the catalogue gets its set here (test/mcp/toolsets.test.ts fails for a tool without one).
 * Shared by the server, the tray and its renderer; no imports, so the server reads the selection
 * before the catalogue loads.
 */

export const TOOLSETS = {
  /** Graph management, reading and writing content, comments, daily capture, batch edits. */
  core: [
    'list_graphs',
    'select_graph',
    'current_graph',
    'get_page',
    'get_block',
    'get_backlinks',
    'search',
    'search_templates',
    'datalog_query',
    'roam_query',
    'suggest_links',
    'create_page',
    'create_block',
    'update_block',
    'move_block',
    'delete_block',
    'update_page',
    'delete_page',
    'update_blocks',
    'delete_blocks',
    'add_comment',
    'get_comments',
    'append_to_daily_note',
    'list_changes',
    'undo_changes',
  ],
  /** The link graph: neighbours, paths, hubs, tags, pages, semantic search. */
  navigation: [
    'get_outlinks',
    'get_neighbors',
    'find_path',
    'get_hubs',
    'search_by_tags',
    'random_page',
    'list_pages',
    'resolve_pages',
    'get_link_graph',
    'semantic_search',
  ],
  /** What the user sees in Roam Desktop: windows, selection, main window, sidebar, shortcuts. */
  ui: [
    'get_open_windows',
    'get_selection',
    'open_main_window',
    'open_sidebar',
    'add_shortcut',
    'remove_shortcut',
  ],
  /** Files hosted by Roam. */
  files: ['file_get', 'file_upload', 'file_delete'],
  /** Tools that Roam extensions offer. */
  extensions: ['call_extension_tool'],
  /** For extension developers. */
  developer: ['reload_dev_extensions'],
} as const satisfies Record<string, readonly string[]>;

export type ToolsetName = keyof typeof TOOLSETS;

/** What each set is for, in the words the AI clients screen shows. */
export const TOOLSET_SUMMARIES: Record<ToolsetName, string> = {
  core: 'read and write pages and blocks, comments, daily notes',
  navigation: 'explore links: neighbours, paths, hubs, tags',
  ui: 'what Roam Desktop shows: windows, selection, sidebar, shortcuts',
  files: 'files hosted by Roam',
  extensions: 'tools of Roam extensions',
  developer: 'reload extensions in development',
};

export const TOOLSET_NAMES = Object.keys(TOOLSETS) as ToolsetName[];

/**
 * What a client gets when it selects nothing: `core` alone stays under the 16 KB budget that
 * every chat pays (measured by bench/tools-budget.ts; docs/mcp.md, Toolsets).
 */
export const DEFAULT_TOOLSETS: readonly ToolsetName[] = ['core'];

/** The environment variable that selects toolsets when `--tools` is absent. */
export const TOOLSETS_ENV = 'ROAM_MCP_TOOLS';

/** The toolset a tool belongs to, or undefined for a tool no set lists. */
export function toolsetOf(toolName: string): ToolsetName | undefined {
  return TOOLSET_NAMES.find((set) => (TOOLSETS[set] as readonly string[]).includes(toolName));
}

export type ToolsetSelection = { sets: ToolsetName[] } | { error: string };

/**
 * `core,navigation` (commas and/or spaces; `all` for every set) → the sets, in TOOLSETS order.
 * Empty or absent → the default. An unknown name is an error naming the valid ones.
 */
export function parseToolsets(spec: string | undefined, origin = '--tools'): ToolsetSelection {
  const names = (spec ?? '')
    .split(/[\s,]+/)
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  if (names.length === 0) return { sets: [...DEFAULT_TOOLSETS] };
  const unknown = names.filter((name) => name !== 'all' && !(name in TOOLSETS));
  if (unknown.length > 0) {
    return {
      error: `${origin} names unknown toolset${unknown.length === 1 ? '' : 's'} ${unknown.map((n) => `'${n}'`).join(', ')}. Valid toolsets: ${TOOLSET_NAMES.join(', ')}, or all (default: ${DEFAULT_TOOLSETS.join(',')}).`,
    };
  }
  if (names.includes('all')) return { sets: [...TOOLSET_NAMES] };
  return { sets: TOOLSET_NAMES.filter((set) => names.includes(set)) };
}

/** The tool names the given sets offer. */
export function toolNamesOf(sets: readonly ToolsetName[]): Set<string> {
  return new Set(sets.flatMap((set) => TOOLSETS[set]));
}
