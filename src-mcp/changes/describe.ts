/**
 * Each op of a change as plain data for a diff view (the tray's Activity, the in-chat helper):
 * the text before and after an edit, the outline a create made or a delete took, a move's
 * places, a rename's titles. With `hidden`, texts hidden from AI are replaced (agent views).
 */
import { HIDDEN_TEXT, isHiddenText, type HiddenNow } from './agent-view.ts';
import { opSummary } from './summary.ts';
import type { Change, Op, TreeNode } from './types.ts';

export interface OutlineBlock {
  uid?: string;
  string: string;
  children: OutlineBlock[];
}

export interface OpDescription {
  kind: 'create' | 'edit' | 'move' | 'delete' | 'rename' | 'comment' | 'shortcut' | 'file' | 'other';
  summary: string;
  /** The page it happened on (title), when the journal knows it. */
  page?: string;
  /** An edit's text (a rename's title) before and after. */
  before?: string;
  after?: string;
  /** The outline a create made, a delete took, a comment wrote. */
  blocks?: OutlineBlock[];
  /** A move's old and new parent (uid), and the old page's title. */
  from?: { parent: string; page?: string };
  to?: { parent: string };
}

/** One description per op of the change, in order. */
export function describeChange(change: Change, options: { hidden?: HiddenNow } = {}): OpDescription[] {
  const text = (value: string) =>
    options.hidden && isHiddenText(change, value, options.hidden) ? HIDDEN_TEXT.slice(1, -1) : value;
  const outline = (tree: readonly TreeNode[]): OutlineBlock[] =>
    tree.map((n) => ({
      ...(n.uid ? { uid: n.uid } : {}),
      string: text(n.string),
      children: outline(n.children),
    }));
  return change.ops.map(({ op }) => ({
    ...describeOp(op, text, outline),
    summary: opSummaryFor(change, op, options),
  }));
}

function opSummaryFor(change: Change, op: Op, options: { hidden?: HiddenNow }): string {
  const line = opSummary(op);
  return options.hidden && isHiddenText(change, line, options.hidden)
    ? `${change.tool} on a block hidden from AI`
    : line;
}

function describeOp(
  op: Op,
  text: (value: string) => string,
  outline: (tree: readonly TreeNode[]) => OutlineBlock[],
): Omit<OpDescription, 'summary'> {
  switch (op.kind) {
    case 'create-blocks':
      return { kind: 'create', blocks: outline(op.tree) };
    case 'create-page':
      return { kind: 'create', page: op.title, blocks: outline(op.tree) };
    case 'update-block':
      return {
        kind: 'edit',
        ...(op.page ? { page: op.page } : {}),
        ...(op.before.string !== undefined ? { before: text(op.before.string) } : {}),
        ...(op.after.string !== undefined ? { after: text(op.after.string) } : {}),
      };
    case 'move-block':
      return {
        kind: 'move',
        ...(op.string !== undefined
          ? { blocks: [{ uid: op.uid, string: text(op.string), children: [] }] }
          : {}),
        from: { parent: op.before.parent, ...(op.before.page ? { page: op.before.page } : {}) },
        to: { parent: op.after.parent },
      };
    case 'delete-blocks':
      return {
        kind: 'delete',
        ...(op.items[0]?.page ? { page: op.items[0].page } : {}),
        blocks: outline(op.items.map((i) => i.block)),
      };
    case 'delete-page':
      return { kind: 'delete', page: op.title, blocks: outline(op.children) };
    case 'rename-page':
      return { kind: 'rename', before: op.before, after: op.after };
    case 'comment':
      return { kind: 'comment', blocks: [{ string: text(op.text), children: [] }] };
    case 'shortcut':
      return { kind: 'shortcut' };
    case 'upload':
    case 'delete-file':
      return { kind: 'file' };
    case 'opaque':
      return { kind: 'other' };
  }
}
