/**
 * The server's instructions: read once per chat, so they carry what every tool shares (the
 * `graph` argument, uids, paging) instead of each tool's schema repeating it. A line about a
 * toolset is there only when that set is listed.
 */
import type { ToolsetName } from '../../src-shared/toolsets.ts';

export function serverInstructions(toolsets: readonly ToolsetName[]): string {
  return [
    'Roam Research graphs through Roam Desktop.',
    'Workflow: list_graphs, then select_graph to pick a graph and read its agent guidelines (follow them); with one graph it is used automatically, but writes still need select_graph first.',
    'Every graph tool takes an optional `graph` (nickname or name), which then stays selected. Content comes as markdown with <roam uid="..."/> tags: use those uids for get_block, create_block {parentUid}, update_block, move_block.',
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
