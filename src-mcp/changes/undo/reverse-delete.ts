/**
 * Taking back a delete: the block or page comes back with its uids, order, attributes and
 * children (data.block.create / data.page.create with the kept uids), then each block or page
 * whose text Roam rewrote on delete (`((uid))` replaced by the text; `[[Page]]` de-linked) gets
 * its old text back, but only if it still reads exactly as Roam left it. One edited since is the
 * person's and stays; it is reported.
 */
import type { PulledNode } from '../journal/roam-pull.ts';
import { withoutBlockRefs, withoutPageLinks } from '../journal/roam-text.ts';
import { countBlocks, plural, quote } from '../journal/summary.ts';
import type { Op, Referrer, TreeNode } from '../journal/types.ts';
import { perform } from './reversing-write.ts';
import { already, conflict, type Reversal, type StepContext } from './undo-step.ts';

function textsOf(nodes: readonly TreeNode[], into = new Map<string, string>()): Map<string, string> {
  for (const node of nodes) {
    if (node.uid) into.set(node.uid, node.string);
    textsOf(node.children, into);
  }
  return into;
}

/**
 * What Roam leaves of a text after deleting these trees one after another, in this order: each
 * delete writes its blocks' text (as earlier deletes left it) in place of their `((uid))`.
 */
function afterDeletes(text: string, trees: readonly TreeNode[]): string {
  const texts = textsOf(trees);
  let out = text;
  for (const tree of trees) {
    const doomed = new Map([...textsOf([tree]).keys()].map((uid) => [uid, texts.get(uid) ?? '']));
    out = withoutBlockRefs(out, doomed);
    for (const uid of doomed.keys()) texts.delete(uid);
    for (const [uid, rest] of texts) texts.set(uid, withoutBlockRefs(rest, doomed));
  }
  return out;
}

/** Puts back the referrers' text Roam rewrote; returns the ones left alone. */
async function restoreReferrers(
  ctx: StepContext,
  referrers: readonly Referrer[],
  rewrite: (text: string) => string,
): Promise<string[]> {
  const left: string[] = [];
  if (referrers.length === 0) return left;
  await ctx.view.load(referrers.map((r) => ({ uid: r.uid })));
  // Titles first: renaming a page back rewrites the links to it in blocks.
  const ordered = [...referrers].sort(
    (a, b) => Number(a.title === undefined) - Number(b.title === undefined),
  );
  for (const ref of ordered) {
    // Read again when an earlier put-back made the view forget it.
    const now = await ctx.view.node(ref.uid);
    const before = ref.string ?? ref.title;
    if (!now || before === undefined) {
      if (!now) left.push(`${quote(before)} (deleted since)`);
      continue;
    }
    const current = ref.string !== undefined ? now.string : now.title;
    if (current === before) {
      // Unchanged text whose link Roam dropped with the target: saving it again links it anew.
      if (ref.string !== undefined && !ctx.dry) await putBack(ctx, ref, before, before);
      continue;
    }
    if (current !== rewrite(before)) {
      left.push(`${quote(current)} (edited since; its link was not put back)`);
      continue;
    }
    await putBack(ctx, ref, current ?? '', before);
  }
  return left;
}

async function putBack(ctx: StepContext, ref: Referrer, current: string, before: string): Promise<void> {
  if (ref.string !== undefined)
    await perform(ctx, {
      kind: 'set-fields',
      uid: ref.uid,
      now: { string: current },
      to: { string: before },
    });
  else {
    const page = await ctx.view.node(ref.uid);
    if (page) await perform(ctx, { kind: 'rename', page, from: current, to: before });
  }
}

const leftNote = (left: string[]) =>
  left.length ? { conflicts: left.map((l) => `a referring block was left as it is: ${l}`) } : {};

/** Restores, lowest position first, so each goes back to its place among the same siblings. */
export async function reverseDeleteBlocks(
  op: Extract<Op, { kind: 'delete-blocks' }>,
  ctx: StepContext,
): Promise<Reversal> {
  const items = [...op.items].sort((a, b) => (a.block.order ?? 0) - (b.block.order ?? 0));
  await ctx.view.load(items.flatMap((i) => [{ uid: i.block.uid }, { uid: i.parent }]));
  const there = items.filter((i) => ctx.view.peek(i.block.uid));
  if (there.length === items.length && ctx.unconfirmed)
    return already('the delete never reached Roam: the blocks are still there');
  if (there.length > 0) return conflict(`a block with uid ${there[0]?.block.uid} exists again`);
  const orphan = items.find((i) => !ctx.view.peek(i.parent));
  if (orphan) return conflict(`its parent (${orphan.parent}) was deleted since`);
  await perform(ctx, {
    kind: 'create-blocks',
    items: items.map((i) => ({ parent: i.parent, order: i.block.order ?? 'last', tree: i.block })),
  });
  const deleted = op.items.map((i) => i.block);
  const left = await restoreReferrers(ctx, op.referrers, (text) => afterDeletes(text, deleted));
  const total = countBlocks(items.map((i) => i.block));
  const what = items.length > 1 ? `${items.length} blocks` : quote(items[0]?.block.string);
  const below = total > items.length ? ` with ${plural(total - items.length, 'block')} below` : '';
  return { status: 'undone', detail: `restored ${what}${below}`, ...leftNote(left) };
}

export async function reverseDeletePage(
  op: Extract<Op, { kind: 'delete-page' }>,
  ctx: StepContext,
): Promise<Reversal> {
  if (await ctx.view.node(op.uid))
    return ctx.unconfirmed
      ? already('the delete never reached Roam: the page is still there')
      : conflict(`a page with uid ${op.uid} exists again`);
  const taken: PulledNode | null = await ctx.view.page(op.title);
  if (taken) return conflict(`a page titled ${quote(op.title)} exists now`);
  await perform(ctx, {
    kind: 'create-page',
    uid: op.uid,
    title: op.title,
    ...(op.viewType ? { viewType: op.viewType } : {}),
    children: op.children,
  });
  const texts = textsOf(op.children);
  const left = await restoreReferrers(ctx, op.referrers, (text) =>
    withoutPageLinks(withoutBlockRefs(text, texts), op.title),
  );
  return {
    status: 'undone',
    detail: `restored page ${quote(op.title)} with ${plural(countBlocks(op.children), 'block')}`,
    ...leftNote(left),
  };
}
