/**
 * The scope each roamAlphaAPI action needs (as Roam documents it, completed from its action lists):
 * everything not listed needs only `read`.
 *
 * Deliberately written apart from src-shared/local-api/action-scopes.ts: the emulator stands in
 * for Roam, so a mistake in the product's table must not be mirrored here and go unnoticed.
 */
export type Scope = 'read' | 'append' | 'edit';

const APPEND_ACTIONS = new Set([
  'data.block.create',
  'data.page.create',
  'data.block.fromMarkdown',
  'data.page.fromMarkdown',
  // Not in Roam's scope lists: a comment adds content.
  'data.block.addComment',
  'file.upload',
  'util.uploadFile',
  'data.user.upsert',
  'createBlock',
  'createPage',
]);

const EDIT_ACTIONS = new Set([
  'data.block.update',
  'data.block.delete',
  'data.block.move',
  'data.block.reorderBlocks',
  'data.page.update',
  'data.page.delete',
  'data.page.addShortcut',
  'data.page.removeShortcut',
  'data.block.updateBlocks',
  'data.block.deleteBlocks',
  'data.block.updateMany',
  'data.block.deleteMany',
  'data.undo',
  'data.redo',
  'file.delete',
  'updateBlock',
  'deleteBlock',
  'moveBlock',
  'updatePage',
  'deletePage',
]);

/** `batchActions` needs edit when any step edits, append when any step creates. */
export function requiredScope(action: string, args: unknown[] = []): Scope {
  if (EDIT_ACTIONS.has(action)) return 'edit';
  if (APPEND_ACTIONS.has(action)) return 'append';
  if (action === 'batchActions' || action === 'data.batchActions') {
    const steps = Array.isArray(args[0]) ? args[0] : ((args[0] as { actions?: unknown[] })?.actions ?? []);
    const scopes = steps.map((step) => requiredScope(String((step as { action?: string })?.action ?? '')));
    if (scopes.includes('edit')) return 'edit';
    if (scopes.includes('append')) return 'append';
  }
  return 'read';
}
