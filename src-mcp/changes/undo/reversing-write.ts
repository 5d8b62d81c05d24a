/**
 * The one vocabulary of reversing writes (issue 31): every write an undo makes is one of these
 * values, and from it alone come the Local API calls, the op the undo run journals (so the undo
 * can itself be undone), and the dry run's model of the graph afterwards. A dry run is the undo
 * by construction: it performs the same values, only without the calls.
 */
import type { RoamState } from '../journal/roam-state.ts';
import type { PulledNode } from '../journal/roam-pull.ts';
import { treeOf } from '../journal/roam-pull.ts';
import type { BlockFields, Op, TreeNode } from '../journal/types.ts';
import type { StepContext, Writer } from './undo-step.ts';

type Place = { parent: string; order: number | 'last' };

export type ReversingWrite =
  /** Delete blocks with everything under them (journaled as a delete: it can be restored). */
  | { kind: 'delete-blocks'; nodes: PulledNode[] }
  /** Delete a page with its blocks. */
  | { kind: 'delete-page'; page: PulledNode }
  /** Delete comment blocks or an emptied thread (a comment cannot be put back as one). */
  | { kind: 'delete-comment'; nodes: PulledNode[]; reason: string }
  /** Create these trees, uids and all, each at its place. */
  | { kind: 'create-blocks'; items: Array<Place & { tree: TreeNode & { uid: string } }> }
  /** Create a page with this uid and title, and its blocks. */
  | { kind: 'create-page'; uid: string; title: string; viewType?: string; children: TreeNode[] }
  /** Set a block's fields (`now`: what they hold before). */
  | { kind: 'set-fields'; uid: string; now: BlockFields; to: BlockFields; page?: string }
  /** Move a block (`from`: where it is, with its neighbours there). */
  | {
      kind: 'move';
      uid: string;
      string?: string;
      from: { parent: string; order: number; above?: string; below?: string };
      to: { parent: string; order: number };
    }
  /** Retitle a page (Roam rewrites the links to it). */
  | { kind: 'rename'; page: PulledNode; from: string; to: string }
  /** Add a page to the shortcuts at `index`, or remove it (`before`: the list now). */
  | { kind: 'shortcut'; page: string; title: string; add: boolean; index?: number; before: string[] }
  /** Delete an uploaded file (`kept`: its bytes, kept to upload again). */
  | { kind: 'delete-file'; url: string; kept?: Extract<Op, { kind: 'delete-file' }>['kept'] }
  /** Upload kept bytes again; the answer's URL goes into the journal. */
  | { kind: 'upload'; base64: string; bytes: number; mimetype: string; filename?: string };

/** Journals the write, makes its calls (none in a dry run), and brings the view up to date (modelled, not read again). */
export async function perform(ctx: StepContext, write: ReversingWrite): Promise<unknown> {
  let answer: unknown;
  await ctx.apply(journalOps(ctx.view, write), async (call) => {
    answer = await wire(call, write);
    return write.kind === 'upload' ? [{ url: uploadedUrl(answer) ?? '' }] : undefined;
  });
  model(ctx.view, write);
  return answer;
}

/** The view's current subtree of `node` as the journal keeps it. */
export function viewTree(view: RoamState, node: PulledNode): TreeNode & { uid: string } {
  const children = node.children.map((c) => view.peek(c)).filter((c): c is PulledNode => !!c);
  return treeOf(
    node,
    children.map((c) => viewTree(view, c)),
  );
}

function journalOps(view: RoamState, w: ReversingWrite): Op[] {
  switch (w.kind) {
    case 'delete-blocks':
    case 'delete-page':
      return [deleteOp(view, w)];
    case 'delete-comment':
      return [{ kind: 'opaque', action: 'data.block.delete', reason: w.reason }];
    case 'create-blocks':
      return w.items.map((i) => ({
        kind: 'create-blocks',
        parent: i.parent,
        uids: [i.tree.uid],
        tree: [i.tree],
        exact: true,
      }));
    case 'create-page':
      return [{ kind: 'create-page', uid: w.uid, title: w.title, tree: w.children, exact: true }];
    case 'set-fields':
      return [
        {
          kind: 'update-block',
          uid: w.uid,
          before: w.now,
          after: w.to,
          ...(w.page ? { page: w.page } : {}),
        },
      ];
    case 'move':
      return [
        {
          kind: 'move-block',
          uid: w.uid,
          ...(w.string !== undefined ? { string: w.string } : {}),
          before: w.from,
          after: w.to,
        },
      ];
    case 'rename':
      return [{ kind: 'rename-page', uid: w.page.uid, before: w.from, after: w.to }];
    case 'shortcut':
      return [
        {
          kind: 'shortcut',
          page: w.page,
          add: w.add,
          ...(w.index !== undefined ? { index: w.index } : {}),
          before: w.before,
        },
      ];
    case 'delete-file':
      return [
        {
          kind: 'delete-file',
          url: w.url,
          ...(w.kept ? { kept: w.kept } : { notKept: 'its bytes could not be kept' }),
        },
      ];
    case 'upload':
      return [
        {
          kind: 'upload',
          bytes: w.bytes,
          mimetype: w.mimetype,
          ...(w.filename ? { filename: w.filename } : {}),
        },
      ];
  }
}

/** A delete's op, with the subtree as the view holds it, so the delete can be restored. */
function deleteOp(
  view: RoamState,
  w: Extract<ReversingWrite, { kind: 'delete-blocks' | 'delete-page' }>,
): Op {
  if (w.kind === 'delete-blocks') {
    const items = w.nodes.map((n) => ({
      block: viewTree(view, n),
      parent: n.parent ?? '',
      ...(n.page ? { page: n.page } : {}),
    }));
    return { kind: 'delete-blocks', items, referrers: [] };
  }
  const children = w.page.children.map((c) => view.peek(c)).filter((c): c is PulledNode => !!c);
  return {
    kind: 'delete-page',
    uid: w.page.uid,
    title: w.page.title ?? '',
    ...(w.page.eid !== undefined ? { eid: w.page.eid } : {}),
    ...(w.page.viewType ? { viewType: w.page.viewType } : {}),
    children: children.map((c) => viewTree(view, c)),
    referrers: [],
  };
}

async function wire(call: Writer, w: ReversingWrite): Promise<unknown> {
  switch (w.kind) {
    case 'delete-blocks':
    case 'delete-comment':
      for (const n of w.nodes) await call('data.block.delete', [{ block: { uid: n.uid } }]);
      return;
    case 'delete-page':
      return call('data.page.delete', [{ page: { uid: w.page.uid } }]);
    case 'create-blocks':
      for (const i of w.items) await recreate(call, i.parent, i.tree, i.order);
      return relinkForward(
        call,
        w.items.map((i) => i.tree),
      );
    case 'create-page': {
      const page = {
        title: w.title,
        uid: w.uid,
        ...(w.viewType ? { 'children-view-type': w.viewType } : {}),
      };
      await call('data.page.create', [{ page }]);
      for (const [index, child] of w.children.entries()) await recreate(call, w.uid, child, index);
      return relinkForward(call, w.children);
    }
    case 'set-fields':
      return call('data.block.update', [{ block: updateWire(w.uid, w.to) }]);
    case 'move':
      return call('data.block.move', [
        { location: { 'parent-uid': w.to.parent, order: w.to.order }, block: { uid: w.uid } },
      ]);
    case 'rename':
      return call('data.page.update', [{ page: { uid: w.page.uid, title: w.to } }]);
    case 'shortcut':
      return w.add
        ? call('data.page.addShortcut', [w.page, w.index])
        : call('data.page.removeShortcut', [w.page]);
    case 'delete-file':
      return call('file.delete', [{ url: w.url }]);
    case 'upload':
      return call('file.upload', [
        { base64: w.base64, mimetype: w.mimetype, ...(w.filename ? { filename: w.filename } : {}) },
      ]);
  }
}

/** The view's model of the graph after the write (the dry run's, and the undo's: not read again). */
function model(view: RoamState, w: ReversingWrite): void {
  switch (w.kind) {
    case 'delete-blocks':
    case 'delete-comment':
      for (const n of w.nodes) view.removed(n);
      return;
    case 'delete-page':
      return view.removed(w.page);
    case 'create-blocks':
      for (const i of w.items) view.added(i.parent, i.tree, i.order);
      return;
    case 'create-page':
      return view.added(undefined, { uid: w.uid, string: '', children: w.children }, 'last', w.title);
    case 'set-fields':
      return view.changed(w.uid, w.to as Partial<PulledNode>);
    case 'move':
      return view.moved(w.uid, w.to.parent, w.to.order);
    case 'rename':
      return view.renamed(w.page, w.from, w.to);
    case 'shortcut': {
      const after = w.before.filter((t) => t !== w.title);
      if (w.add) after.splice(Math.min(w.index ?? after.length, after.length), 0, w.title);
      return view.starredNow(after);
    }
    case 'delete-file':
    case 'upload':
      return;
  }
}

/** `data.block.update`'s block fields. */
export function updateWire(uid: string, fields: BlockFields): Record<string, unknown> {
  return {
    uid,
    ...(fields.string !== undefined ? { string: fields.string } : {}),
    ...(fields.open !== undefined ? { open: fields.open } : {}),
    ...(fields.heading !== undefined ? { heading: fields.heading } : {}),
    ...(fields.textAlign !== undefined ? { 'text-align': fields.textAlign } : {}),
    ...(fields.viewType !== undefined ? { 'children-view-type': fields.viewType } : {}),
  };
}

/** `data.block.create`'s block fields for a kept node. */
function newBlockWire(node: TreeNode): Record<string, unknown> {
  return {
    ...(node.uid ? { uid: node.uid } : {}),
    string: node.string,
    ...(node.open !== undefined ? { open: node.open } : {}),
    ...(node.heading ? { heading: node.heading } : {}),
    ...(node.textAlign ? { 'text-align': node.textAlign } : {}),
    ...(node.viewType ? { 'children-view-type': node.viewType } : {}),
    ...(node.blockViewType ? { 'block-view-type': node.blockViewType } : {}),
  };
}

/** Recreates a kept block and its children under `parent` at `order`, uids and all. */
async function recreate(call: Writer, parent: string, node: TreeNode, order: number | 'last'): Promise<void> {
  await call('data.block.create', [{ location: { 'parent-uid': parent, order }, block: newBlockWire(node) }]);
  for (const [index, child] of node.children.entries())
    await recreate(call, node.uid as string, child, index);
}

/**
 * Blocks recreated before the blocks they refer to got no link to them (Roam links a `((uid))`
 * only to a block that exists): saving their text again, once all exist, links them.
 */
async function relinkForward(call: Writer, trees: readonly TreeNode[]): Promise<void> {
  const order: TreeNode[] = [];
  const walk = (nodes: readonly TreeNode[]) => nodes.forEach((n) => (order.push(n), walk(n.children)));
  walk(trees);
  const position = new Map(order.map((n, i) => [n.uid, i]));
  for (const [i, node] of order.entries()) {
    const later = [...node.string.matchAll(/\(\(([\w-]+)\)\)/g)].some((m) => (position.get(m[1]) ?? -1) > i);
    if (later) await call('data.block.update', [{ block: { uid: node.uid, string: node.string } }]);
  }
}

/** Roam answers an upload with its URL, wrapped as `![](url)`. */
export function uploadedUrl(answer: unknown): string | undefined {
  if (typeof answer !== 'string' || !answer.trim()) return undefined;
  const wrapped = /^!?\[[^\]]*\]\((.+)\)$/.exec(answer.trim());
  return wrapped ? wrapped[1] : answer.trim();
}
