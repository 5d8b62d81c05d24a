/**
 * What one reversal works with: the graph view, and `apply`, which journals the reversing ops
 * BEFORE the writes and their outcome after (an undo is itself a change that can be undone; a
 * killed undo shows as unconfirmed). In a dry run `apply` writes nothing and journals nothing.
 */
import { plural, quote, quotePair } from '../journal/summary.ts';
import type { RoamState } from '../journal/roam-state.ts';
import type { PulledNode } from '../journal/roam-pull.ts';
import { sameText } from '../journal/roam-text.ts';
import type { KeptFiles } from '../journal/kept-files.ts';
import type { Op, TreeNode } from '../journal/types.ts';

/** Every action a reversing write calls (an undo's tool declares them: src-mcp/changes/index.ts). */
export const REVERSING_ACTIONS = [
  'data.block.create',
  'data.block.update',
  'data.block.move',
  'data.block.delete',
  'data.page.create',
  'data.page.update',
  'data.page.delete',
  'data.page.addShortcut',
  'data.page.removeShortcut',
  'file.upload',
  'file.delete',
] as const;

export type Writer = (action: (typeof REVERSING_ACTIONS)[number], args: unknown[]) => Promise<unknown>;

/** Per reversing op, what Roam's answer adds to it (an upload's new URL). */
export type Patches = Array<Partial<Op> | undefined> | void;

export interface StepContext {
  view: RoamState;
  dry: boolean;
  /** The op's write was never confirmed: it may not have reached Roam at all. */
  unconfirmed: boolean;
  /** When Roam's answer to the op was recorded (epoch ms; undefined when it never was). */
  answeredAt: number | undefined;
  /**
   * The entity id a block or page had when first read (a delete's snapshot): an undone delete
   * recreates it under a new id, so "what existed first" is decided on the first one.
   */
  firstEid(uid: string, now: number | undefined): number | undefined;
  apply(ops: Op[], run: (write: Writer) => Promise<Patches>): Promise<void>;
  /** Where kept file bytes live (file_delete and upload reversals). */
  files: KeptFiles;
}

export interface Reversal {
  /** `already`: the graph already reads as before the change; nothing to write. */
  status: 'undone' | 'already' | 'conflict' | 'not-undoable';
  detail: string;
  /** Parts left alone although the rest was taken back (a referring block edited since). */
  conflicts?: string[];
}

export const conflict = (detail: string): Reversal => ({ status: 'conflict', detail });
export const notUndoable = (detail: string): Reversal => ({ status: 'not-undoable', detail });
export const already = (detail: string): Reversal => ({ status: 'already', detail });

/** The target is gone: never made (an unconfirmed write), or someone deleted it since. */
export const gone = (ctx: StepContext, what: 'block' | 'blocks' | 'page'): Reversal =>
  ctx.unconfirmed
    ? already(`the write never reached Roam: no ${what} to take back`)
    : conflict(`the ${what} ${what === 'blocks' ? 'were' : 'was'} deleted by someone else since`);

/** A block or page as a person knows it: its text, its title, or that it is empty (never ''). */
function placeOf(node: PulledNode): string {
  if (node.title) return `page ${quote(node.title)}`;
  return node.string?.trim() ? quote(node.string) : 'an empty block';
}

/**
 * How a created block's subtree differs from what was written: text edited since, blocks added
 * or removed below. Text that differs only in how Roam stored it passes when Roam says the block
 * was never edited (`:edit/time` equals `:create/time`) and `madeByTheWrite` vouches that it is
 * the block the write made (nested blocks are known by position only: a block a person put in
 * the same place later was never edited either).
 */
export function treeDifferences(
  view: RoamState,
  node: PulledNode,
  written: TreeNode,
  options: {
    exact: boolean;
    madeByTheWrite: (node: PulledNode) => boolean;
    ownedByTheWrite: (node: PulledNode) => boolean;
  },
): string[] {
  const diffs: string[] = [];
  // A block in the place of the agent's, whatever its text, is someone else's.
  const other = options.exact
    ? written.uid !== undefined && written.uid !== node.uid
    : written.uid === undefined && !options.ownedByTheWrite(node);
  if (other)
    return [`a block someone wrote, ${quote(node.string)}, took the place of ${quote(written.string)}`];
  const untouched =
    node.editTime !== undefined && node.editTime === node.createTime && options.madeByTheWrite(node);
  if (!sameText(node.string, written.string) && (options.exact || !untouched))
    diffs.push(quotePair(written.string, node.string).join(' was edited to '));
  const children = node.children.map((c) => view.peek(c)).filter((c): c is PulledNode => !!c);
  const extra = children.length - written.children.length;
  const were = (n: number) => `${plural(n, 'block')} ${n === 1 ? 'was' : 'were'}`;
  if (extra > 0) diffs.push(`${were(extra)} added under ${placeOf(node)}`);
  else if (extra < 0) diffs.push(`${were(-extra)} removed from under ${placeOf(node)}`);
  else
    written.children.forEach((child, i) =>
      diffs.push(...treeDifferences(view, children[i] as PulledNode, child, options)),
    );
  return diffs;
}
