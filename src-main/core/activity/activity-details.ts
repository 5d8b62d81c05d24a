/**
 * What the Activity view draws as a diff, from describeChange (the one description of the
 * journal's ops): an edit's text before and after, the outline of blocks added or removed, a
 * rename, a move. The tray's own part: places named by page title or the tool's words (never by
 * uid), long texts and outlines cut, a conflict's text now.
 */
import {
  describeChange,
  entrySummary,
  type Change,
  type OpDescription,
  type OutlineBlock,
} from '../../../src-mcp/changes/index.ts';
import { placeKey, type PlaceNames } from './activity-places.ts';
import type { ChangeDetailView, OutlineLineView } from '../../../src-shared/ipc-contract.ts';

/** Enough to see what happened; the CLI (`roam-mcp changes`) has the rest. */
const MAX_DETAILS = 6;
const MAX_OUTLINE_LINES = 12;
const MAX_TEXT = 600;

const cut = (text: string) => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text);

function outline(tree: readonly OutlineBlock[]): { lines: OutlineLineView[]; more: number } {
  const lines: OutlineLineView[] = [];
  let total = 0;
  const walk = (nodes: readonly OutlineBlock[], depth: number) => {
    for (const node of nodes) {
      total++;
      if (lines.length < MAX_OUTLINE_LINES) lines.push({ depth, text: cut(node.string) });
      walk(node.children, depth + 1);
    }
  };
  walk(tree, 0);
  return { lines, more: total - lines.length };
}

/** A uid's place by name (activity-places.ts), when Roam told it. */
type PlaceOf = (uid: string) => string | undefined;

/** The tool's words for where blocks went, without a uid ("under block abc" says nothing). */
function createdPlace(op: OpDescription, placeOf: PlaceOf): string | undefined {
  if (op.page) return `to page '${op.page}'`;
  if (op.where && !/\bblock [\w-]{6,}\b/.test(op.where)) return op.where;
  const named = op.to ? placeOf(op.to.parent) : undefined;
  if (named) return named.startsWith('under ') ? named : `to page ${named}`;
  return op.where ? 'under another block' : undefined;
}

/** Where an outline was added or removed, by name. */
function outlinePlace(op: OpDescription, placeOf: PlaceOf): string | undefined {
  switch (op.kind) {
    case 'create':
      return op.wholePage ? `on new page '${op.page}'` : createdPlace(op, placeOf);
    case 'delete':
      if (op.wholePage) return `with page '${op.page}'`;
      return op.page ? `in '${op.page}'` : undefined;
    case 'comment':
      return 'as a comment';
    default:
      return undefined;
  }
}

function detail(op: OpDescription, placeOf: PlaceOf, nowOf: PlaceOf): ChangeDetailView | undefined {
  switch (op.kind) {
    case 'edit': {
      if (op.after === undefined)
        return {
          kind: 'note',
          text: `Changed ${op.changed?.join(', ')} of a block${op.page ? ` in '${op.page}'` : ''}`,
        };
      const now = op.uid === undefined ? undefined : nowOf(op.uid);
      return {
        kind: 'edit',
        ...(op.page ? { page: op.page } : {}),
        before: cut(op.before ?? ''),
        after: cut(op.after),
        ...(now !== undefined && now !== op.after ? { now: cut(now) } : {}),
      };
    }
    case 'create':
    case 'delete':
    case 'comment': {
      // No block (an empty page deleted, a page made bare): no "0 blocks" over an empty outline.
      if (!op.blocks?.length) return undefined;
      const place = outlinePlace(op, placeOf);
      return {
        kind: 'outline',
        change: op.kind === 'delete' ? 'removed' : 'added',
        ...(place ? { place } : {}),
        ...outline(op.blocks ?? []),
      };
    }
    case 'rename':
      return { kind: 'rename', before: op.before ?? '', after: op.after ?? '' };
    case 'move': {
      const from = op.from && placeOf(op.from.parent);
      const to = op.to && placeOf(op.to.parent);
      return {
        kind: 'move',
        text: cut(op.blocks?.[0]?.string ?? ''),
        ...(from ? { from } : {}),
        ...(to ? { to } : {}),
      };
    }
    default:
      return undefined; // a shortcut, a file, another write: the summary line says it all
  }
}

/** What the change did, op by op (those with nothing to draw are left to the summary line). */
export function changeDetails(
  change: Change,
  places: PlaceNames = new Map(),
  textsNow: PlaceNames = new Map(),
): ChangeDetailView[] {
  const placeOf: PlaceOf = (uid) => places.get(placeKey(change, uid));
  const nowOf: PlaceOf = (uid) => textsNow.get(placeKey(change, uid));
  return describeChange(change)
    .flatMap((op) => detail(op, placeOf, nowOf) ?? [])
    .slice(0, MAX_DETAILS);
}

/** An op as its reversal does it: what an undo run's redo puts back, op by op. */
function reversed(op: OpDescription): OpDescription {
  const { before, after, from, to, where: _where, ...rest } = op;
  const swapped = {
    ...rest,
    ...(after !== undefined ? { before: after } : {}),
    ...(before !== undefined ? { after: before } : {}),
  };
  switch (op.kind) {
    case 'create':
      return { ...swapped, kind: 'delete' };
    case 'delete':
      // What comes back goes onto its page (a whole page comes back whole).
      return {
        ...swapped,
        kind: 'create',
        ...(op.page && !op.wholePage ? { where: `to page '${op.page}'` } : {}),
      };
    case 'comment':
      return { ...swapped, kind: 'delete' };
    case 'move':
      return { ...swapped, ...(to ? { from: to } : {}), ...(from ? { to: { parent: from.parent } } : {}) };
    default:
      return swapped;
  }
}

/**
 * What redoing an undo run puts back: its ops reversed, last first, as the redo runs them
 * (without a conflict's text now: the redo's own dry run says what it must leave alone).
 */
export function redoDetails(change: Change, places: PlaceNames = new Map()): ChangeDetailView[] {
  const placeOf: PlaceOf = (uid) => places.get(placeKey(change, uid));
  return describeChange(change)
    .reverse()
    .flatMap((op) => detail(reversed(op), placeOf, () => undefined) ?? [])
    .slice(0, MAX_DETAILS);
}

/** The page a change happened on, by title, for grouping (the first op that names one). */
export function changePage(change: Change): string | undefined {
  for (const op of describeChange(change)) {
    const page = op.page ?? /^to page '(.*)'$/.exec(op.where ?? '')?.[1];
    if (page) return page;
  }
  return undefined;
}

/**
 * The change's one-line summary with its places (a move's, the parent of new blocks) named as Roam
 * names them now, where Roam could say; an undo run's line is its own.
 */
export function readableSummary(change: Change, places: PlaceNames = new Map()): string {
  if (change.undoes) return change.summary;
  const ops = change.ops.map((o) => o.op);
  return entrySummary(change.tool, ops, undefined, (uid) => places.get(placeKey(change, uid)));
}
