/**
 * Each op of a change as plain data for a diff view (the tray's Activity, the in-chat helper):
 * the text before and after an edit, the outline a create made or a delete took, a move's
 * places, a rename's titles, and the uids a view names places by. The one switch over the
 * journal's op kinds for a diff. With `hidden`, texts hidden from AI are replaced (agent views).
 */
import { HIDDEN_TEXT, isHiddenText, type HiddenNow } from './agent-view.ts';
import { opSummary } from '../journal/summary.ts';
import type { Change, Op, TreeNode } from '../journal/types.ts';

export interface OutlineBlock {
  uid?: string;
  string: string;
  children: OutlineBlock[];
}

export interface OpDescription {
  kind: 'create' | 'edit' | 'move' | 'delete' | 'rename' | 'comment' | 'shortcut' | 'file' | 'other';
  summary: string;
  /** The page it happened on (title), when the journal knows it (a rename: the new title). */
  page?: string;
  /** A create-page or delete-page: the page itself was made or removed, not only blocks on it. */
  wholePage?: true;
  /** The block an edit changed or a move moved. */
  uid?: string;
  /** The block fields an edit set (`string`, `open`, `heading`, …). */
  changed?: string[];
  /** An edit's text (a rename's title) before and after. */
  before?: string;
  after?: string;
  /** The outline a create made, a delete took, a comment wrote. */
  blocks?: OutlineBlock[];
  /** A move's old and new parent (uid), and the old page's title; a create's parent. */
  from?: { parent: string; page?: string };
  to?: { parent: string };
  /** Where a create put its blocks, in the tool's words ("to the daily note", "under block abc"). */
  where?: string;
}

/** One description per op of the change, in order. */
export function describeChange(change: Change, options: { hidden?: HiddenNow } = {}): OpDescription[] {
  const text = (value: string) =>
    options.hidden && isHiddenText(change, value, options.hidden) ? HIDDEN_TEXT.slice(1, -1) : value;
  const outline = (tree: readonly TreeNode[]): OutlineBlock[] =>
    tree.map((n) => {
      const [string, children] = [text(n.string), outline(n.children)];
      return n.uid ? { uid: n.uid, string, children } : { string, children };
    });
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
      return {
        kind: 'create',
        ...(op.container?.page?.title ? { page: op.container.page.title } : {}),
        ...(op.where ? { where: text(op.where) } : {}),
        ...(op.parent ? { to: { parent: op.parent } } : {}),
        blocks: outline(op.tree),
      };
    case 'create-page':
      return { kind: 'create', page: op.title, wholePage: true, blocks: outline(op.tree) };
    case 'update-block':
      return {
        kind: 'edit',
        uid: op.uid,
        changed: Object.keys(op.after),
        ...(op.page ? { page: op.page } : {}),
        ...(op.before.string !== undefined ? { before: text(op.before.string) } : {}),
        ...(op.after.string !== undefined ? { after: text(op.after.string) } : {}),
      };
    case 'move-block':
      return {
        kind: 'move',
        uid: op.uid,
        ...(op.string !== undefined
          ? { blocks: [{ uid: op.uid, string: text(op.string), children: [] }] }
          : {}),
        from: { parent: op.before.parent, ...(op.before.page ? { page: op.before.page } : {}) },
        to: { parent: op.after.parent },
      };
    case 'delete-blocks': {
      const page = op.items.find((i) => i.page)?.page;
      return { kind: 'delete', ...(page ? { page } : {}), blocks: outline(op.items.map((i) => i.block)) };
    }
    case 'delete-page':
      return { kind: 'delete', page: op.title, wholePage: true, blocks: outline(op.children) };
    case 'rename-page':
      return { kind: 'rename', page: op.after, before: op.before, after: op.after };
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
