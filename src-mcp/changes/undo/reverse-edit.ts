/**
 * Taking back an edit: a block's text and attributes, a move, a rename. Only the attributes the
 * write set are put back, and only while they still hold what it wrote: anything else someone
 * changed since is theirs and stays.
 */
import { fieldsOf, neighbours } from '../journal/roam-pull.ts';
import { perform } from './reversing-write.ts';
import { sameButTagForm, sameText, withoutLinkForms } from '../journal/roam-text.ts';
import { quote, quotePair } from '../journal/summary.ts';
import type { BlockFields, Op, Referrer } from '../journal/types.ts';
import { already, conflict, gone, type Reversal, type StepContext } from './undo-step.ts';

function fieldChanges(now: BlockFields, written: BlockFields): string[] {
  return (Object.keys(written) as Array<keyof BlockFields>).flatMap((key) => {
    if (key === 'string')
      return sameText(now.string, written.string)
        ? []
        : [`its text ${quotePair(written.string, now.string).join(' is now ')}`];
    return now[key] === written[key] ? [] : [`its ${key} is now ${String(now[key])}`];
  });
}

export async function reverseUpdateBlock(
  op: Extract<Op, { kind: 'update-block' }>,
  ctx: StepContext,
): Promise<Reversal> {
  const node = await ctx.view.node(op.uid);
  if (!node) return gone(ctx, 'block');
  const keys = Object.keys(op.after) as Array<keyof BlockFields>;
  const now = fieldsOf(node, keys);
  const changes = fieldChanges(now, op.after);
  if (changes.length > 0 && fieldChanges(now, op.before).length === 0)
    return already(
      ctx.unconfirmed
        ? 'the write never reached Roam: the block reads as before'
        : 'the block already reads as before',
    );
  if (changes.length > 0) return conflict(`edited by someone else since: ${changes.join(', ')}`);
  await perform(ctx, {
    kind: 'set-fields',
    uid: op.uid,
    now,
    to: op.before,
    ...(op.page ? { page: op.page } : {}),
  });
  const removed = await removeNewPages(ctx, op.newPages ?? []);
  const what = op.before.string !== undefined ? `text back to ${quote(op.before.string)}` : keys.join(', ');
  return { status: 'undone', detail: `set the block's ${what}${removed}` };
}

/** Pages the edit's links created, if now empty and unreferenced. */
async function removeNewPages(ctx: StepContext, titles: string[]): Promise<string> {
  const removed: string[] = [];
  for (const title of titles) {
    const page = await ctx.view.page(title, true);
    if (!page || page.children.some((c) => ctx.view.peek(c) !== null)) continue;
    if (ctx.view.referrers(page).length > 0) continue;
    await perform(ctx, { kind: 'delete-page', page });
    removed.push(quote(title));
  }
  const pages = removed.length === 1 ? 'the page' : 'the pages';
  return removed.length ? `, and deleted ${pages} ${removed.join(', ')} its links created` : '';
}

export async function reverseMoveBlock(
  op: Extract<Op, { kind: 'move-block' }>,
  ctx: StepContext,
): Promise<Reversal> {
  const node = await ctx.view.node(op.uid);
  if (!node) return gone(ctx, 'block');
  if (node.parent === op.before.parent && node.parent !== op.after.parent)
    return already(
      ctx.unconfirmed ? 'the move never reached Roam' : 'the block is already back in its old place',
    );
  if (node.parent !== op.after.parent) return conflict('moved by someone else since');
  const home = await ctx.view.node(op.before.parent);
  if (!home) return conflict(`its old place (${op.before.parent}) was deleted since`);
  const now = await ctx.view.node(op.after.parent);
  const order = orderBetween(home.children, op);
  await perform(ctx, {
    kind: 'move',
    uid: op.uid,
    ...(node.string !== undefined ? { string: node.string } : {}),
    from: { parent: op.after.parent, order: node.order ?? 0, ...neighbours(now?.children ?? [], op.uid) },
    to: { parent: op.before.parent, order },
  });
  return {
    status: 'undone',
    detail: `moved ${quote(node.string)} back to position ${order} under ${quote(home.string ?? home.title)}`,
  };
}

/**
 * Where a moved block goes back among its old siblings as they are now (itself left out): below
 * its old upper neighbour, else above its old lower one, else at its old position.
 */
function orderBetween(siblings: readonly string[], op: Extract<Op, { kind: 'move-block' }>): number {
  const others = siblings.filter((uid) => uid !== op.uid);
  const above = op.before.above ? others.indexOf(op.before.above) : -1;
  if (above >= 0) return above + 1;
  const below = op.before.below ? others.indexOf(op.before.below) : -1;
  if (below >= 0) return below;
  return Math.min(op.before.order, others.length);
}

export async function reverseRenamePage(
  op: Extract<Op, { kind: 'rename-page' }>,
  ctx: StepContext,
): Promise<Reversal> {
  const page = await ctx.view.node(op.uid);
  if (!page) return gone(ctx, 'page');
  if (page.title === op.before)
    return already(ctx.unconfirmed ? 'the rename never reached Roam' : 'the page already has its old title');
  if (page.title !== op.after) return conflict(`renamed to ${quote(page.title)} by someone else since`);
  const taken = await ctx.view.page(op.before);
  if (taken && taken.uid !== op.uid) return conflict(`a page titled ${quote(op.before)} exists now`);
  const written = linkedSince(ctx.view.referrers(page), op);
  if (written.length > 0)
    return conflict(
      `renaming it back would change text written since: ${written.map((t) => quote(t)).join(', ')}`,
    );
  await perform(ctx, { kind: 'rename', page, from: op.after, to: op.before });
  await restoreTagForms(ctx, op.referrers ?? [], op.before);
  return { status: 'undone', detail: `renamed ${quote(op.after)} back to ${quote(op.before)}` };
}

/**
 * Referrers whose text someone wrote or edited since the rename (beyond Roam's own rewrite of
 * the link): renaming back would rewrite their text too.
 */
function linkedSince(now: Referrer[], op: Extract<Op, { kind: 'rename-page' }>): string[] {
  const titles = [op.before, op.after];
  const recorded = new Map((op.referrers ?? []).map((r) => [r.uid, r.string]));
  return now.flatMap((r) => {
    if (r.string === undefined) return [];
    const then = recorded.get(r.uid);
    if (then !== undefined && withoutLinkForms(then, titles) === withoutLinkForms(r.string, titles))
      return [];
    return [r.string];
  });
}

/**
 * Roam rewrote the links on both renames; where that brought `#Old` back as `#[[Old]]`, the
 * text as it was is put back (only that difference: anything else edited since stays).
 */
async function restoreTagForms(ctx: StepContext, referrers: Referrer[], title: string): Promise<void> {
  if (referrers.length === 0) return;
  await ctx.view.load(referrers.map((r) => ({ uid: r.uid })));
  for (const ref of referrers) {
    const now = (await ctx.view.node(ref.uid))?.string;
    if (now === undefined || ref.string === undefined || !sameButTagForm(now, ref.string, title)) continue;
    const before = ref.string;
    await perform(ctx, { kind: 'set-fields', uid: ref.uid, now: { string: now }, to: { string: before } });
  }
}
