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

/** "1 block", "3 blocks": never "block(s)" in a line a person reads. */
export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * The name a person knows a place by, for a uid the journal keeps (a page's quoted title, or
 * "under 'first words' in 'Page'" for a block), when the reader can ask Roam (the tray); a line
 * without it says the place in the words the op itself has, never by its uid.
 */
export type PlaceName = (uid: string) => string | undefined;

/** Where new blocks went: the tool's words, unless they name the place by uid ("under block abc"). */
function createdWhere(op: Extract<Op, { kind: 'create-blocks' }>, name?: PlaceName): string {
  if (op.where && !/^under block \S+$/.test(op.where)) return op.where;
  const named = op.parent ? name?.(op.parent) : undefined;
  if (named) return named.startsWith('under ') ? named : `on page ${named}`;
  return op.container?.page?.title ? `on ${quote(op.container.page.title)}` : '';
}

function created(op: Extract<Op, { kind: 'create-blocks' }>, name?: PlaceName): string {
  const total = countBlocks(op.tree);
  const first = op.tree[0];
  const more = total > 1 ? ` (${plural(total, 'block')})` : '';
  const where = createdWhere(op, name);
  return `Added ${quote(first?.string)}${more}${where ? ` ${where}` : ''}`;
}

/** A move by the places' names where they are known (the old page always is), never by uid. */
function moved(op: Extract<Op, { kind: 'move-block' }>, name?: PlaceName): string {
  const what = `Moved block ${quote(op.string)}`;
  const from = name?.(op.before.parent) ?? (op.before.page ? quote(op.before.page) : undefined);
  if (op.after.parent === op.before.parent)
    return `${what} among its siblings${from ? ` ${from.startsWith('under ') ? from : `on ${from}`}` : ''}`;
  const to = name?.(op.after.parent);
  return `${what}${from ? ` from ${from}` : ''}${to ? ` to ${to}` : ''}`;
}

function updated(op: Extract<Op, { kind: 'update-block' }>): string {
  const where = op.page ? ` in ${quote(op.page)}` : '';
  if (op.after.string !== undefined)
    return `Edited a block${where}: ${quotePair(op.before.string, op.after.string).join(' → ')}`;
  const fields = Object.keys(op.after).join(', ');
  return `Changed ${fields} of a block${where}`;
}

/** The line for one op; `name`: the places' names, where the reader knows them. */
export function opSummary(op: Op, name?: PlaceName): string {
  switch (op.kind) {
    case 'create-blocks':
      return created(op, name);
    case 'create-page':
      return `Created page ${quote(op.title)}${op.tree.length ? ` (${plural(countBlocks(op.tree), 'block')})` : ''}`;
    case 'update-block':
      return updated(op);
    case 'move-block':
      return moved(op, name);
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
      return `Commented on a block: ${quote(op.text)}`;
    case 'shortcut':
      return `${op.add ? 'Added' : 'Removed'} page ${quote(op.page)} ${op.add ? 'to' : 'from'} the shortcuts`;
    case 'upload':
      return `Uploaded ${op.filename ? quote(op.filename) : 'a file'} (${Math.ceil(op.bytes / 1024)} KB)`;
    case 'delete-file':
      return `Deleted file ${op.url.replace(/\?.*$/, '').split('%2F').pop()}${op.kept ? '' : ' (not kept: cannot be restored)'}`;
    case 'opaque':
      return `${op.detail ?? `Ran ${op.action}`} (cannot be undone: ${op.reason})`;
  }
}

/** The line for an entry: its first op, and how many more. */
export function entrySummary(
  tool: string,
  ops: readonly Op[],
  undoes?: readonly string[],
  name?: PlaceName,
): string {
  if (undoes) {
    const reversed = ops.length;
    return `Undid ${plural(undoes.length, 'change')}${reversed ? ` (${plural(reversed, 'step')})` : ' (nothing changed)'}`;
  }
  const [first] = ops;
  if (!first) return `${tool}: nothing written`;
  const line = opSummary(first, name);
  return ops.length > 1 ? `${line} (+${ops.length - 1} more)` : line;
}
