/**
 * Taking back what a write created: blocks (from markdown or restored by an undo), a page, a
 * comment. Only when it is still exactly as written: not edited (text, or blocks added or
 * removed below it), not moved, not referred to by anything outside it. Then whatever the write
 * made on the way goes too, if still empty and unreferenced: the daily note page or the
 * nest-under section it created, and pages its links created (their entity id is newer than the
 * created blocks', so they did not exist before).
 */
import { markdownTree, treeTitles } from '../journal/roam-text.ts';
import type { PulledNode } from '../journal/roam-pull.ts';
import { perform } from './reversing-write.ts';
import { countBlocks, plural, quote } from '../journal/summary.ts';
import type { Op } from '../journal/types.ts';
import {
  conflict,
  gone,
  notUndoable,
  treeDifferences,
  type Reversal,
  type StepContext,
} from './undo-step.ts';

type CreateBlocks = Extract<Op, { kind: 'create-blocks' }>;

/**
 * A block was made by the write when Roam made it before the journal recorded Roam's answer
 * (strictly: a block made in that same millisecond is not vouched for) and no undone delete
 * recreated it since (a recreated block is new to Roam whatever was written in it before).
 */
const compare = (ctx: StepContext, exact: boolean | undefined) => {
  const madeByTheWrite = (node: PulledNode) =>
    ctx.firstEid(node.uid, node.eid) === node.eid &&
    node.createTime !== undefined &&
    ctx.answeredAt !== undefined &&
    node.createTime < ctx.answeredAt;
  return {
    exact: exact === true,
    madeByTheWrite,
    // An undone delete recreated it with the uid the journal kept (Roam never reuses a uid); a
    // dry run's restored block has no entity id yet.
    ownedByTheWrite: (node: PulledNode) => {
      if (madeByTheWrite(node)) return true;
      const first = ctx.firstEid(node.uid, node.eid);
      return first !== undefined && (node.eid === undefined || first < node.eid);
    },
  };
};

type Container = NonNullable<CreateBlocks['container']>;

const isPage = (node: PulledNode | null, page: NonNullable<Container['page']>) =>
  !!node && node.title !== undefined && (page.uid ? node.uid === page.uid : node.title === page.title);

/** Whether a created top block is still where the write put it: under its parent, or in its section of its page. */
async function inPlace(ctx: StepContext, op: CreateBlocks, parent: PulledNode | null): Promise<boolean> {
  const { section, page } = op.container ?? {};
  if (section) {
    if (parent?.string !== section.string) return false;
    return page
      ? isPage(parent.parent ? await ctx.view.node(parent.parent) : null, page)
      : parent.parent === op.parent;
  }
  if (page) return isPage(parent, page);
  return op.parent === undefined || parent?.uid === op.parent;
}

/** Where a created block is now, said to a person ("moved to 'Journal' since"). */
async function whereNow(ctx: StepContext, op: CreateBlocks, parent: PulledNode | null): Promise<string> {
  let page = parent;
  for (let depth = 0; page && page.title === undefined && page.parent && depth < 100; depth++)
    page = await ctx.view.node(page.parent);
  const samePage = page && op.container?.page && isPage(page, op.container.page);
  if (!page || samePage || (!op.container?.page && parent?.title === undefined))
    return `moved under ${quote(parent?.string ?? parent?.title)} since`;
  return `moved to ${quote(page.title)} since`;
}

/** Who outside these subtrees refers into them. */
function outsideReferences(ctx: StepContext, tops: PulledNode[]): string[] {
  const all = tops.flatMap((t) => ctx.view.subtree(t));
  const inside = new Set(all.map((n) => n.uid));
  return all.flatMap((n) =>
    ctx.view
      .referrers(n)
      .filter((r) => !inside.has(r.uid))
      .map((r) => `${quote(r.string ?? r.title)} refers to ${quote(n.string ?? n.title)}`),
  );
}

const deleteBlocks = (ctx: StepContext, nodes: PulledNode[]) =>
  perform(ctx, { kind: 'delete-blocks', nodes });
const deletePage = (ctx: StepContext, page: PulledNode) => perform(ctx, { kind: 'delete-page', page });

interface Leftovers {
  section?: string;
  page?: string;
  titles: string[];
  /** Pages with a newer entity id than this were made by the write. */
  newerThan?: number;
}

const empty = (ctx: StepContext, node: PulledNode | null) =>
  !!node && node.children.every((c) => ctx.view.peek(c) === null) && ctx.view.referrers(node).length === 0;

/** Removes what the write made on the way, when nothing else uses it now. */
async function removeLeftovers(ctx: StepContext, left: Leftovers): Promise<string[]> {
  const removed: string[] = [];
  if (left.section) {
    const section = await ctx.view.node(left.section, true);
    if (section && empty(ctx, section)) {
      await deleteBlocks(ctx, [section]);
      removed.push(`the section ${quote(section.string)} it created`);
    }
  }
  const pages: PulledNode[] = [];
  if (left.page) {
    const page = await ctx.view.node(left.page, true);
    if (page) pages.push(page);
  }
  if (left.newerThan !== undefined && left.titles.length > 0) {
    await ctx.view.load(
      left.titles.map((title) => ({ title })),
      true,
    );
    for (const title of left.titles) {
      const page = await ctx.view.page(title, true);
      const eid = page ? ctx.firstEid(page.uid, page.eid) : undefined;
      if (page && eid !== undefined && eid > left.newerThan) pages.push(page);
    }
  }
  for (const page of pages) {
    if (!empty(ctx, page)) continue;
    await deletePage(ctx, page);
    removed.push(`the page ${quote(page.title)} it created`);
  }
  return removed;
}

const andAlso = (removed: string[]) => (removed.length ? `, and ${removed.join(', ')}` : '');

async function checkCreated(ctx: StepContext, op: CreateBlocks, uids: string[]) {
  await ctx.view.load(
    uids.map((uid) => ({ uid })),
    true,
  );
  const tops: PulledNode[] = [];
  const problems: string[] = [];
  for (const [i, uid] of uids.entries()) {
    const node = await ctx.view.node(uid, true);
    if (!node) continue;
    const written = op.tree[i] ?? { string: node.string ?? '', children: [] };
    problems.push(...treeDifferences(ctx.view, node, { ...written, uid }, compare(ctx, op.exact)));
    const parent = node.parent ? await ctx.view.node(node.parent) : null;
    if (!(await inPlace(ctx, op, parent)))
      problems.push(`${quote(node.string)} was ${await whereNow(ctx, op, parent)}`);
    tops.push(node);
  }
  const gone = uids.length - tops.length;
  if (gone > 0 && tops.length > 0) problems.push(`${gone} of the blocks were deleted by someone else`);
  problems.push(...outsideReferences(ctx, tops));
  return { tops, problems };
}

export async function reverseCreateBlocks(op: CreateBlocks, ctx: StepContext): Promise<Reversal> {
  const uids = op.uids ?? [];
  if (uids.length === 0) return notUndoable('Roam did not say which blocks it made');
  const { tops, problems } = await checkCreated(ctx, op, uids);
  if (tops.length === 0) return gone(ctx, 'blocks');
  if (problems.length > 0) return conflict(problems.join('; '));
  const blocks = tops.reduce((sum, t) => sum + ctx.view.subtree(t).length, 0);
  const section = op.container?.section && !op.container.section.existed ? tops[0]?.parent : undefined;
  const made = op.container?.page && !op.container.page.existed ? op.container.page : undefined;
  const page = made?.uid || (made?.title ? (await ctx.view.page(made.title))?.uid : undefined);
  const eids = tops.map((t) => ctx.firstEid(t.uid, t.eid)).filter((e): e is number => e !== undefined);
  await deleteBlocks(ctx, tops);
  const removed = await removeLeftovers(ctx, {
    ...(section ? { section } : {}),
    ...(page ? { page } : {}),
    titles: treeTitles(op.tree),
    ...(eids.length ? { newerThan: Math.min(...eids) } : {}),
  });
  return { status: 'undone', detail: `deleted ${plural(blocks, 'block')} it added${andAlso(removed)}` };
}

export async function reverseCreatePage(
  op: Extract<Op, { kind: 'create-page' }>,
  ctx: StepContext,
): Promise<Reversal> {
  const page = op.uid ? await ctx.view.node(op.uid, true) : await ctx.view.page(op.title, true);
  if (!page) return gone(ctx, 'page');
  if (page.title !== op.title) return conflict(`renamed to ${quote(page.title)} since`);
  const virtual = { ...page, string: '' };
  const problems = treeDifferences(
    ctx.view,
    virtual,
    { uid: page.uid, string: '', children: op.tree },
    compare(ctx, op.exact),
  );
  problems.push(...outsideReferences(ctx, [page]));
  if (problems.length > 0) return conflict(problems.join('; '));
  // A page this undo just brought back (its delete undone) has no entity id in the view yet: the
  // journal's first one still tells which linked pages are newer.
  const first = ctx.firstEid(page.uid, page.eid);
  await deletePage(ctx, page);
  const removed = await removeLeftovers(ctx, {
    titles: treeTitles(op.tree),
    ...(first !== undefined ? { newerThan: first } : {}),
  });
  return {
    status: 'undone',
    detail: `deleted page ${quote(op.title)}${op.tree.length ? ` (${plural(countBlocks(op.tree), 'block')})` : ''}${andAlso(removed)}`,
  };
}

export async function reverseComment(
  op: Extract<Op, { kind: 'comment' }>,
  ctx: StepContext,
): Promise<Reversal> {
  const uids = op.uids ?? [];
  if (uids.length === 0) return notUndoable('Roam did not say which comment blocks it made');
  const tree = op.tree ?? (op.markdown ? markdownTree(op.text) : [{ string: op.text, children: [] }]);
  const created: CreateBlocks = { kind: 'create-blocks', tree, uids, ...(op.exact ? { exact: true } : {}) };
  const { tops, problems } = await checkCreated(ctx, created, uids);
  if (tops.length === 0) return conflict('the comment was already deleted by someone else');
  if (problems.length > 0) return conflict(`the comment: ${problems.join('; ')}`);
  await perform(ctx, {
    kind: 'delete-comment',
    nodes: tops,
    reason: 'a removed comment cannot be put back as a comment',
  });
  const container = op.container ? await ctx.view.node(op.container, true) : null;
  if (container && empty(ctx, container))
    await perform(ctx, {
      kind: 'delete-comment',
      nodes: [container],
      reason: 'an emptied comment thread is not put back',
    });
  return { status: 'undone', detail: `removed the comment ${quote(op.text)}` };
}
