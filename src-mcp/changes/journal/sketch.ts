/**
 * What the journal writes of an op before Roam answers: a write Roam refuses must not cost the
 * journal its payload (an agent could flood the journal with refused 15 MB creates). A large op
 * is journaled as a sketch (texts cut, nested blocks left out) before the write; the whole op
 * follows in its `done` record, only once Roam applied it.
 */
import type { Op, TreeNode } from './types.ts';

/** Ops at most this long (as JSON) are journaled whole before the write. */
export const SKETCH_ABOVE = 4096;
const CUT = 200;

const cut = (text: string) => (text.length > CUT ? `${text.slice(0, CUT - 1)}…` : text);

const sketchTree = (tree: readonly TreeNode[]): TreeNode[] =>
  tree.slice(0, 1).map((node) => ({ ...node, string: cut(node.string), children: [] }));

/** The op as journaled before the write, and the fields its `done` record must restore. */
export function sketchOf(op: Op): { sketch: Op; full?: Partial<Op> } {
  if (JSON.stringify(op).length <= SKETCH_ABOVE) return { sketch: op };
  switch (op.kind) {
    case 'create-blocks':
    case 'create-page':
      return { sketch: { ...op, tree: sketchTree(op.tree) }, full: { tree: op.tree } };
    case 'comment':
      return { sketch: { ...op, text: cut(op.text) }, full: { text: op.text } };
    case 'update-block':
      if (op.after.string === undefined) return { sketch: op };
      return {
        sketch: { ...op, after: { ...op.after, string: cut(op.after.string) } },
        full: { after: op.after },
      };
    default:
      return { sketch: op };
  }
}
