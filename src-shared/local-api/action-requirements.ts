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
