/**
 * The server's instructions: read once per chat, so they carry what every tool shares (the
 * `graph` argument, uids, paging) instead of each tool's schema repeating it. A line about a
 * toolset is there only when that set is listed.
 */
import type { ToolsetName } from '../../src-shared/toolsets.ts';

export function serverInstructions(toolsets: readonly ToolsetName[]): string {
  return [
    'Roam Research graphs through Roam Desktop.',
    'Start with list_graphs, then select_graph (needed before any write; with one graph, reads work without it).',
    'Every graph tool takes an optional `graph` (nickname or name), which then stays selected. Content is markdown with <roam uid="..."/> tags: use those as uid or parentUid.',
    ...(toolsets.includes('navigation')
      ? [
          'To explore how notes connect, navigate links (get_neighbors, get_outlinks, find_path, get_hubs, search_by_tags) instead of repeated searches; resolve_pages before writing [[links]].',
        ]
      : []),
    'Lists are paginated: pass nextOffset as offset for more.',
    ...(toolsets.includes('core')
      ? ["list_changes and undo_changes review and take back this chat's changes."]
      : []),
  ].join('\n');
}
