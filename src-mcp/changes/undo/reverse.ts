/** Which reversal takes back which op (one place for the table). */
import { reverseCreateBlocks, reverseCreatePage, reverseComment } from './reverse-create.ts';
import { reverseDeleteBlocks, reverseDeletePage } from './reverse-delete.ts';
import { reverseMoveBlock, reverseRenamePage, reverseUpdateBlock } from './reverse-edit.ts';
import { reverseDeleteFile, reverseShortcut, reverseUpload } from './reverse-other.ts';
import type { Op } from '../journal/types.ts';
import { notUndoable, type Reversal, type StepContext } from './undo-step.ts';

export function reverseOp(op: Op, ctx: StepContext): Promise<Reversal> {
  switch (op.kind) {
    case 'create-blocks':
      return reverseCreateBlocks(op, ctx);
    case 'create-page':
      return reverseCreatePage(op, ctx);
    case 'comment':
      return reverseComment(op, ctx);
    case 'update-block':
      return reverseUpdateBlock(op, ctx);
    case 'move-block':
      return reverseMoveBlock(op, ctx);
    case 'rename-page':
      return reverseRenamePage(op, ctx);
    case 'delete-blocks':
      return reverseDeleteBlocks(op, ctx);
    case 'delete-page':
      return reverseDeletePage(op, ctx);
    case 'shortcut':
      return reverseShortcut(op, ctx);
    case 'upload':
      return reverseUpload(op, ctx);
    case 'delete-file':
      return reverseDeleteFile(op, ctx);
    case 'opaque':
      return Promise.resolve(notUndoable(op.reason));
  }
}
