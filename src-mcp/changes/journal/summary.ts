/**
 * One line a person reads for each change ("Edited a block in 'Project': 'alpha' → 'alpha,
 * rewritten…'", "Deleted page 'Target' (3 blocks)"), and whether an op can be taken back at all.
 */
import type { Op, TreeNode } from './types.ts';

const MAX_QUOTE = 40;

export function quote(text: string | undefined, max = MAX_QUOTE): string {
  const flat = (text ?? '').replace(/\s+/g, ' ').trim();
  return `'${flat.length > max ? `${flat.slice(0, max - 1)}…` : flat}'`;
}

/**
 * Two texts quoted so that the difference shows: when either is too long to quote whole, both
 * are cut around their first difference ('…ject X]] on Monday' → '…ject Y]] on Monday').
 */
export function quotePair(
  before: string | undefined,
  after: string | undefined,
  max = MAX_QUOTE,
): [string, string] {
  const a = (before ?? '').replace(/\s+/g, ' ').trim();
  const b = (after ?? '').replace(/\s+/g, ' ').trim();
  if (a.length <= max && b.length <= max) return [`'${a}'`, `'${b}'`];
  let at = 0;
  while (at < a.length && at < b.length && a[at] === b[at]) at++;
  const start = Math.max(0, at - 10);
  const cut = (text: string) => {
    const part = text.slice(start, start + max - 2);
    return `'${start > 0 ? '…' : ''}${part}${start + max - 2 < text.length ? '…' : ''}'`;
  };
  return [cut(a), cut(b)];
}

export function countBlocks(tree: readonly TreeNode[]): number {
  return tree.reduce((sum, node) => sum + 1 + countBlocks(node.children), 0);
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function created(op: Extract<Op, { kind: 'create-blocks' }>): string {
  const total = countBlocks(op.tree);
  const first = op.tree[0];
  const more = total > 1 ? ` (${plural(total, 'block')})` : '';
  const where = op.where ?? (op.parent ? `under ${op.parent}` : '');
  return `Added ${quote(first?.string)}${more}${where ? ` ${where}` : ''}`;
}

function updated(op: Extract<Op, { kind: 'update-block' }>): string {
  const where = op.page ? ` in ${quote(op.page)}` : '';
  if (op.after.string !== undefined)
    return `Edited a block${where}: ${quotePair(op.before.string, op.after.string).join(' → ')}`;
  const fields = Object.keys(op.after).join(', ');
  return `Changed ${fields} of a block${where}`;
}

/** The line for one op. */
export function opSummary(op: Op): string {
  switch (op.kind) {
    case 'create-blocks':
      return created(op);
    case 'create-page':
      return `Created page ${quote(op.title)}${op.tree.length ? ` (${plural(countBlocks(op.tree), 'block')})` : ''}`;
    case 'update-block':
      return updated(op);
    case 'move-block':
      return `Moved block ${quote(op.string)} from ${op.before.parent} to ${op.after.parent}`;
    case 'delete-blocks': {
      const total = countBlocks(op.items.map((i) => i.block));
      const first = op.items[0];
      const what = op.items.length > 1 ? `${op.items.length} blocks` : `block ${quote(first?.block.string)}`;
      const page = first?.page ? ` in ${quote(first.page)}` : '';
      return `Deleted ${what}${total > op.items.length ? ` (${plural(total, 'block')})` : ''}${page}`;
    }
    case 'delete-page':
      return `Deleted page ${quote(op.title)} (${plural(countBlocks(op.children), 'block')})`;
    case 'rename-page':
      return `Renamed page ${quote(op.before)} → ${quote(op.after)}`;
    case 'comment':
      return `Commented on block ${op.block}: ${quote(op.text)}`;
    case 'shortcut':
      return `${op.add ? 'Added' : 'Removed'} page ${op.page} ${op.add ? 'to' : 'from'} the shortcuts`;
    case 'upload':
      return `Uploaded ${op.filename ? quote(op.filename) : 'a file'} (${Math.ceil(op.bytes / 1024)} KB)`;
    case 'delete-file':
      return `Deleted file ${op.url.replace(/\?.*$/, '').split('%2F').pop()}${op.kept ? '' : ' (not kept: cannot be restored)'}`;
    case 'opaque':
      return `${op.detail ?? `Ran ${op.action}`} (cannot be undone: ${op.reason})`;
  }
}

/** The line for an entry: its first op, and how many more. */
export function entrySummary(tool: string, ops: readonly Op[], undoes?: readonly string[]): string {
  if (undoes) {
    const reversed = ops.length;
    return `Undid ${plural(undoes.length, 'change')}${reversed ? ` (${plural(reversed, 'step')})` : ' (nothing changed)'}`;
  }
  const [first] = ops;
  if (!first) return `${tool}: nothing written`;
  const line = opSummary(first);
  return ops.length > 1 ? `${line} (+${ops.length - 1} more)` : line;
}
