import type { AppOp } from './data-types.ts';

/**
 * What the agent wrote in the block a conflict is about: an edit's new text, or the one block a
 * create added (the server reads the same block's text now; the app shows the two side by side).
 */
export function agentText(op: AppOp): string | undefined {
  if (op.kind === 'edit') return op.after;
  if (op.kind === 'create' && op.blocks?.length === 1) return op.blocks[0]?.string;
  return undefined;
}
