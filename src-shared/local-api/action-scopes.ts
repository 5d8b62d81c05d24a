/** The scope Roam requires for each Local API action: everything else needs only `read`. */
const APPEND_ACTIONS = new Set([
  'data.block.create',
  'data.page.create',
  'data.block.fromMarkdown',
  'data.page.fromMarkdown',
  'data.block.addComment',
  'file.upload',
  'util.uploadFile',
  'data.user.upsert',
  'createBlock',
  'createPage',
  'batchActions',
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

export type Scope = 'read' | 'append' | 'edit';

export function scopeOfAction(action: string): Scope {
  if (EDIT_ACTIONS.has(action)) return 'edit';
  if (APPEND_ACTIONS.has(action)) return 'append';
  return 'read';
}

/**
 * Read-scope actions that still must not run twice: an extension tool's handler may write
 * whatever its declared scope, and each sidebar call opens another pane.
 */
const NOT_REPEATABLE = new Set(['data.ai.callExtensionTool', 'ui.rightSidebar.addWindow']);

/**
 * Whether the client may send the action again after a stale connection, or report an unreadable
 * answer as a plain protocol error: true when running it twice cannot change the graph (or the
 * user's view) twice. A transport question about one request; whether a tool is a write (ticket,
 * --read-only, access level) is its declaration's `writes`.
 */
export function isRepeatableAction(action: string): boolean {
  return scopeOfAction(action) === 'read' && !NOT_REPEATABLE.has(action);
}
