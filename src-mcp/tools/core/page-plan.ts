/**
 * update_page_markdown's plan (docs/mcp.md, "Rewriting a page"): which blocks of the page become
 * which lines of the new outline, and the writes that make the page read as the outline. Pure: the
 * page and the outline in, the plan out.
 *
 * Matching, in order: a line's `<roam uid>` tag; then the same text (in Roam's stored form),
 * preferring a block under the same parent; then, under a matched parent, a changed line takes the
 * place of the most alike unmatched sibling block (line-pairing.ts). Matched blocks keep their uid wherever they go; the longest run of siblings already
 * in order stays put and the others move; the rest is created (one `fromMarkdown` per run of new
 * blocks with nothing kept under them) or deleted (in batches). Hidden blocks are not in the
 * outline: they stay where they are, after the visible sibling they followed.
 */
import { pairAlike } from './line-pairing.ts';
import { eachBlock, outlineMarkdown, storedForm, type OutlineBlock } from './page-outline.ts';

/** A block of the page as read from Roam. A hidden block stands for its whole subtree. */
export interface PageBlock {
  uid: string;
  string: string;
  heading?: number;
  hidden: boolean;
  children: PageBlock[];
}

export type PlanStep =
  | { kind: 'update'; uid: string; string: string; heading: number }
  | { kind: 'move'; uid: string; parent: string; order: number }
  | { kind: 'create'; uid: string; parent: string; order: number; string: string; heading?: number }
  | { kind: 'insert'; parent: string; order: number; markdown: string; blocks: number }
  | { kind: 'delete'; uid: string };

export interface Plan {
  /** Matched blocks left as they were. */
  kept: string[];
  moved: Array<{ uid: string; string: string }>;
  updated: Array<{ uid: string; before: string; after: string }>;
  created: Array<{ string: string }>;
  /** The deleted blocks (each with everything under it). */
  deleted: Array<{ uid: string; string: string }>;
  /** In the order they must run. */
  steps: PlanStep[];
}

/** A block the outline leaves out that holds hidden blocks: deleting it would delete them. */
export class HiddenUnderDeletedError extends Error {
  constructor(readonly blocks: Array<{ uid: string; string: string }>) {
    super('deleting would remove hidden blocks');
  }
}

interface Current {
  block: PageBlock;
  parent: string;
}

const SINGLE_LINE = /^[^|`\n][^\n]*$/;

/**
 * The siblings that stay put: indices of a longest increasing run of `positions` (each line's
 * current place among its parent's children, -1 when it is not there).
 */
function stayingPut(positions: readonly number[]): Set<number> {
  const present = positions.flatMap((p, i) => (p >= 0 ? [i] : []));
  const run = longestIncreasing(present.map((i) => positions[i] as number));
  return new Set([...run].map((k) => present[k] as number));
}

/** Indices (into `values`) of a longest strictly increasing subsequence. */
function longestIncreasing(values: readonly number[]): Set<number> {
  const tails: number[] = [];
  const previous: number[] = [];
  values.forEach((value, i) => {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((values[tails[mid] as number] as number) < value) lo = mid + 1;
      else hi = mid;
    }
    previous[i] = lo > 0 ? (tails[lo - 1] as number) : -1;
    tails[lo] = i;
  });
  const kept = new Set<number>();
  for (let i = tails.length ? (tails[tails.length - 1] as number) : -1; i >= 0; i = previous[i] as number)
    kept.add(i);
  return kept;
}

export function planPage(
  pageUid: string,
  page: readonly PageBlock[],
  outline: readonly OutlineBlock[],
  newUid: () => string,
): Plan {
  const visible = new Map<string, Current>();
  const walk = (blocks: readonly PageBlock[], parent: string) => {
    for (const block of blocks) {
      if (block.hidden) continue;
      visible.set(block.uid, { block, parent });
      walk(block.children, block.uid);
    }
  };
  walk(page, pageUid);

  const match = new Map<OutlineBlock, string>();
  const claimed = new Set<string>();
  const claim = (line: OutlineBlock, uid: string) => {
    match.set(line, uid);
    claimed.add(uid);
  };
  const lines = [...eachBlock(outline)];
  const parentUid = (parent: OutlineBlock | undefined) => (parent ? match.get(parent) : pageUid);

  for (const { block } of lines)
    if (block.uidHint && visible.has(block.uidHint) && !claimed.has(block.uidHint))
      claim(block, block.uidHint);

  const byText = new Map<string, string[]>();
  for (const [uid, { block }] of visible) {
    const key = storedForm(block.string);
    const same = byText.get(key);
    if (same) same.push(uid);
    else byText.set(key, [uid]);
  }
  for (const { block, parent } of lines) {
    if (match.has(block)) continue;
    const candidates = (byText.get(block.string) ?? []).filter((uid) => !claimed.has(uid));
    if (!candidates.length) continue;
    const wanted = parentUid(parent);
    claim(block, candidates.find((uid) => visible.get(uid)?.parent === wanted) ?? (candidates[0] as string));
  }

  pairChangedLines(pageUid, outline, page, visible, match, claimed, claim);
  return placeAll(pageUid, page, outline, visible, match, claimed, newUid);
}

/** Under each matched parent, a changed line takes the place of the most similar unmatched sibling block. */
function pairChangedLines(
  pageUid: string,
  outline: readonly OutlineBlock[],
  page: readonly PageBlock[],
  visible: Map<string, Current>,
  match: Map<OutlineBlock, string>,
  claimed: Set<string>,
  claim: (line: OutlineBlock, uid: string) => void,
): void {
  const childrenOf = (uid: string) =>
    (uid === pageUid ? page : (visible.get(uid)?.block.children ?? []))
      .filter((b) => !b.hidden)
      .map((b) => b.uid);
  const textOf = (uid: string) => visible.get(uid)?.block.string ?? '';
  const visit = (lines: readonly OutlineBlock[], parent: string | undefined) => {
    if (parent !== undefined)
      pairAlike(
        lines.filter((line) => !match.has(line)),
        childrenOf(parent).filter((uid) => !claimed.has(uid)),
        textOf,
        claim,
      );
    for (const line of lines) visit(line.children, match.get(line));
  };
  visit(outline, pageUid);
}

/** The page as it stands while the plan's writes run: children per parent, hidden ones marked. */
class Layout {
  readonly children = new Map<string, string[]>();
  readonly parentOf = new Map<string, string>();
  readonly hidden = new Set<string>();

  constructor(pageUid: string, page: readonly PageBlock[]) {
    const add = (blocks: readonly PageBlock[], parent: string) => {
      this.children.set(
        parent,
        blocks.map((b) => b.uid),
      );
      for (const block of blocks) {
        this.parentOf.set(block.uid, parent);
        if (block.hidden) this.hidden.add(block.uid);
        else add(block.children, block.uid);
      }
    };
    add(page, pageUid);
  }

  list(parent: string): string[] {
    let list = this.children.get(parent);
    if (!list) this.children.set(parent, (list = []));
    return list;
  }

  /** Where a block goes to follow `previous` (first when undefined): after the hidden blocks that follow it. */
  slotAfter(parent: string, previous: string | undefined): number {
    const list = this.list(parent);
    let at = previous === undefined ? 0 : list.indexOf(previous) + 1;
    while (at < list.length && this.hidden.has(list[at] as string)) at++;
    return at;
  }

  remove(uid: string): { parent: string; at: number } {
    const parent = this.parentOf.get(uid) as string;
    const list = this.list(parent);
    const at = list.indexOf(uid);
    list.splice(at, 1);
    return { parent, at };
  }

  insert(uid: string, parent: string, at: number): void {
    this.list(parent).splice(at, 0, uid);
    this.parentOf.set(uid, parent);
  }

  subtreeHasHidden(uid: string): boolean {
    return this.list(uid).some((child) => this.hidden.has(child) || this.subtreeHasHidden(child));
  }
}

/** Matched blocks whose text or heading differs from their line. */
function planUpdates(
  outline: readonly OutlineBlock[],
  visible: Map<string, Current>,
  match: Map<OutlineBlock, string>,
  plan: Plan,
): void {
  for (const { block: line } of eachBlock(outline)) {
    const uid = match.get(line);
    const before = uid ? visible.get(uid)?.block : undefined;
    if (!uid || !before) continue;
    const heading = line.heading ?? 0;
    if (storedForm(before.string) !== line.string || (before.heading ?? 0) !== heading) {
      plan.steps.push({ kind: 'update', uid, string: line.string, heading });
      plan.updated.push({ uid, before: before.string, after: line.string });
    }
  }
}

/** What no line kept: deleted (each top one with its subtree), unless hidden blocks are under it. */
function planDeletes(visible: Map<string, Current>, claimed: Set<string>, layout: Layout, plan: Plan): void {
  const doomed = [...visible.keys()].filter((uid) => !claimed.has(uid));
  const doomedSet = new Set(doomed);
  const tops = doomed.filter((uid) => !doomedSet.has(visible.get(uid)?.parent ?? ''));
  const holding = tops.filter((uid) => layout.subtreeHasHidden(uid));
  if (holding.length)
    throw new HiddenUnderDeletedError(
      holding.map((uid) => ({ uid, string: visible.get(uid)?.block.string ?? '' })),
    );
  for (const uid of tops) plan.steps.push({ kind: 'delete', uid });
  for (const uid of doomed) plan.deleted.push({ uid, string: visible.get(uid)?.block.string ?? '' });
}

/** New blocks with nothing kept under them, in one `fromMarkdown`; answers the last one's place-holder. */
function insertRun(layout: Layout, plan: Plan, parent: string, at: number, run: OutlineBlock[]): string {
  const holders = run.map((_, k) => `new:${plan.steps.length}:${k}`);
  holders.forEach((holder, k) => layout.insert(holder, parent, at + k));
  const blocks = [...eachBlock(run)];
  plan.steps.push({
    kind: 'insert',
    parent,
    order: at,
    markdown: outlineMarkdown(run),
    blocks: blocks.length,
  });
  for (const { block } of blocks) plan.created.push({ string: block.string });
  return holders[holders.length - 1] as string;
}

function placeAll(
  pageUid: string,
  page: readonly PageBlock[],
  outline: readonly OutlineBlock[],
  visible: Map<string, Current>,
  match: Map<OutlineBlock, string>,
  claimed: Set<string>,
  newUid: () => string,
): Plan {
  const plan: Plan = { kept: [], moved: [], updated: [], created: [], deleted: [], steps: [] };
  planUpdates(outline, visible, match, plan);

  const layout = new Layout(pageUid, page);
  const insertable = (line: OutlineBlock): boolean =>
    !match.has(line) && SINGLE_LINE.test(line.string) && line.children.every(insertable);
  const updated = new Set(plan.updated.map((u) => u.uid));
  const moved = new Set<string>();

  const place = (parent: string, lines: readonly OutlineBlock[]) => {
    const list = layout.list(parent);
    const positions = lines.map((line) => list.indexOf(match.get(line) ?? ''));
    const stay = stayingPut(positions);
    let previous: string | undefined;
    for (let i = 0; i < lines.length;) {
      const line = lines[i] as OutlineBlock;
      const uid = match.get(line);
      if (uid && stay.has(i)) {
        previous = uid;
        i++;
        continue;
      }
      if (uid) {
        const from = layout.remove(uid);
        const at = layout.slotAfter(parent, previous);
        layout.insert(uid, parent, at);
        if (from.parent !== parent || from.at !== at) {
          plan.steps.push({ kind: 'move', uid, parent, order: at });
          moved.add(uid);
        }
        previous = uid;
        i++;
        continue;
      }
      const at = layout.slotAfter(parent, previous);
      if (insertable(line)) {
        let end = i;
        while (end < lines.length && insertable(lines[end] as OutlineBlock)) end++;
        previous = insertRun(layout, plan, parent, at, lines.slice(i, end));
        i = end;
        continue;
      }
      const created = newUid();
      match.set(line, created);
      layout.insert(created, parent, at);
      plan.steps.push({
        kind: 'create',
        uid: created,
        parent,
        order: at,
        string: line.string,
        ...(line.heading ? { heading: line.heading } : {}),
      });
      plan.created.push({ string: line.string });
      previous = created;
      i++;
    }
    for (const line of lines) {
      const uid = match.get(line);
      if (uid && line.children.length) place(uid, line.children);
    }
  };
  place(pageUid, outline);

  planDeletes(visible, claimed, layout, plan);
  plan.moved = [...moved].map((uid) => ({ uid, string: visible.get(uid)?.block.string ?? '' }));
  plan.kept = [...claimed].filter((uid) => !moved.has(uid) && !updated.has(uid));
  return plan;
}
