/**
 * What an older Roam Desktop build lacks when it answers UNKNOWN_ACTION (404): the feature an
 * action serves and, where Roam's notes say, the build or Local API version that added it
 * (docs/mcp.md, Older Roam builds). Roam ignores the patch version when it checks
 * `expectedApiVersion`, so features added in a patch release surface only this way.
 */
interface Requirement {
  feature: string;
  needs?: string;
}

const REQUIREMENTS: Record<string, Requirement> = {
  'data.ai.getGraphGuidelines': { feature: 'graph guidelines (select_graph)' },
  'data.ai.getPage': { feature: 'page reads (get_page)' },
  'data.ai.getBlock': { feature: 'block reads (get_block)' },
  'data.ai.getBacklinks': { feature: 'linked references (get_backlinks)' },
  'data.ai.search': { feature: 'search (search)' },
  'data.ai.searchTemplates': { feature: 'templates (search_templates)' },
  q: { feature: 'Datalog queries (datalog_query)' },
  'data.q': { feature: 'Datalog queries (datalog_query)' },
  'data.page.fromMarkdown': { feature: 'page creation (create_page)' },
  'data.page.create': { feature: 'page creation (create_page)' },
  'data.page.update': { feature: 'page renames (update_page)' },
  'data.page.delete': { feature: 'page deletes (delete_page)' },
  'data.block.fromMarkdown': { feature: 'block creation (create_block, append_to_daily_note)' },
  'data.block.update': { feature: 'block updates (update_block)' },
  'data.block.move': { feature: 'block moves (move_block)' },
  'data.block.delete': { feature: 'block deletes (delete_block)' },
  'ui.mainWindow.getOpenView': { feature: 'the open view (get_open_windows)' },
  'ui.rightSidebar.getWindows': { feature: 'sidebar windows (get_open_windows)' },
  'ui.getFocusedBlock': { feature: 'the focused block (get_selection)' },
  'ui.multiselect.getSelected': { feature: 'the selection (get_selection)' },
  'ui.mainWindow.openBlock': { feature: 'opening blocks (open_main_window)' },
  'ui.mainWindow.openPage': { feature: 'opening pages (open_main_window)' },
  'ui.rightSidebar.addWindow': { feature: 'sidebar windows (open_sidebar)' },
  'data.ai.semanticSearch': {
    feature: 'semantic search (semantic_search)',
    needs: 'embeddings turned on for the graph and a signed-in user',
  },
  'data.ai.suggestLinks': {
    feature: 'link suggestions (suggest_links)',
    needs: 'a Roam Desktop build of 2026-07-08 or later (Local API 1.1.3)',
  },
  'data.ai.roamQuery': { feature: 'Roam queries (roam_query)' },
  'data.ai.getComments': { feature: 'comments (get_comments)' },
  'data.block.addComment': { feature: 'comments (add_comment)' },
  'data.ai.callExtensionTool': {
    feature: 'extension AI tools (call_extension_tool)',
    needs: 'Local API 1.1.5 or later',
  },
  'depot.reloadDeveloperExtensions': {
    feature: 'reloading developer extensions (reload_dev_extensions)',
    needs: 'a Roam Desktop build of 2026-07-16 or later',
  },
  'data.page.addShortcut': { feature: 'shortcuts (add_shortcut)' },
  'data.page.removeShortcut': { feature: 'shortcuts (remove_shortcut)' },
  'file.get': { feature: 'files (file_get)' },
  'file.upload': { feature: 'files (file_upload)' },
  'file.delete': { feature: 'files (file_delete)' },
  'data.block.updateBlocks': {
    feature: 'batch block updates (update_blocks)',
    needs: 'a Roam Desktop build with batch edits; until then use update_block once per block',
  },
  'data.block.deleteBlocks': {
    feature: 'batch block deletes (delete_blocks)',
    needs: 'a Roam Desktop build with batch edits; until then use delete_block once per block',
  },
};

/** "Roam Desktop (Local API 1.1.2) does not offer …; update Roam Desktop …" for an action. */
export function unknownActionAdvice(action: string | undefined, apiVersion: string | undefined): string {
  const build = apiVersion ? `This Roam Desktop (Local API ${apiVersion})` : 'This Roam Desktop build';
  if (!action) return `${build} does not offer it: update Roam Desktop to its latest version.`;
  const known = REQUIREMENTS[action];
  const feature = known ? `${known.feature}, action ${action}` : `action ${action}`;
  const needs = known?.needs ? ` It needs ${known.needs}.` : '';
  return `${build} does not offer ${feature}: update Roam Desktop to its latest version.${needs}`;
}
