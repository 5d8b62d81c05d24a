/**
 * The one adapter from the change journal's ops (src-mcp/changes/types.ts) to what the Activity
 * view draws as a diff: an edit's text before and after, the outline of blocks added or removed,
 * a rename, a move. Places are named by page title or the tool's own words, never by uid.
 */
import type { Change, Op, TreeNode } from '../../src-mcp/changes/index.ts';
import { placeKey, placeUids, type PlaceNames } from './activity-places.ts';
import type { ChangeDetailView, OutlineLineView } from '../../src-shared/ipc-contract.ts';

/** Enough to see what happened; the CLI (`roam-mcp changes`) has the rest. */
const MAX_DETAILS = 6;
const MAX_OUTLINE_LINES = 12;
const MAX_TEXT = 600;

const cut = (text: string) => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text);

function outline(tree: readonly TreeNode[]): { lines: OutlineLineView[]; more: number } {
  const lines: OutlineLineView[] = [];
  let total = 0;
  const walk = (nodes: readonly TreeNode[], depth: number) => {
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
function createdPlace(op: Extract<Op, { kind: 'create-blocks' }>, placeOf: PlaceOf): string | undefined {
  if (op.container?.page?.title) return `to page '${op.container.page.title}'`;
  if (op.where && !/\bblock [\w-]{6,}\b/.test(op.where)) return op.where;
  const named = op.parent ? placeOf(op.parent) : undefined;
  if (named) return named.startsWith('under ') ? named : `to page ${named}`;
  return op.where ? 'under another block' : undefined;
}

function detail(op: Op, placeOf: PlaceOf, nowOf: PlaceOf): ChangeDetailView {
  switch (op.kind) {
    case 'update-block':
      if (op.after.string !== undefined) {
        const now = nowOf(op.uid);
        return {
          kind: 'edit',
          ...(op.page ? { page: op.page } : {}),
          before: cut(op.before.string ?? ''),
          after: cut(op.after.string),
          ...(now !== undefined && now !== op.after.string ? { now: cut(now) } : {}),
        };
      }
      return {
        kind: 'note',
        text: `Changed ${Object.keys(op.after).join(', ')} of a block${op.page ? ` in '${op.page}'` : ''}`,
      };
    case 'create-blocks': {
      const place = createdPlace(op, placeOf);
      return { kind: 'outline', change: 'added', ...(place ? { place } : {}), ...outline(op.tree) };
    }
    case 'create-page':
      return { kind: 'outline', change: 'added', place: `on new page '${op.title}'`, ...outline(op.tree) };
    case 'delete-blocks': {
      const page = op.items.find((item) => item.page)?.page;
      return {
        kind: 'outline',
        change: 'removed',
        ...(page ? { place: `in '${page}'` } : {}),
        ...outline(op.items.map((item) => item.block)),
      };
    }
    case 'delete-page':
      return {
        kind: 'outline',
        change: 'removed',
        place: `with page '${op.title}'`,
        ...outline(op.children),
      };
    case 'rename-page':
      return { kind: 'rename', before: op.before, after: op.after };
    case 'move-block': {
      const from = placeOf(op.before.parent);
      const to = placeOf(op.after.parent);
      return { kind: 'move', text: cut(op.string ?? ''), ...(from ? { from } : {}), ...(to ? { to } : {}) };
    }
    case 'comment':
      return {
        kind: 'outline',
        change: 'added',
        place: 'as a comment',
        ...outline([{ string: op.text, children: [] }]),
      };
    default:
      return { kind: 'note', text: '' };
  }
}

/** What the change did, op by op (those with nothing to draw are left to the summary line). */
export function changeDetails(
  change: Pick<Change, 'ops' | 'graph' | 'graphType'>,
  places: PlaceNames = new Map(),
  textsNow: PlaceNames = new Map(),
): ChangeDetailView[] {
  const placeOf: PlaceOf = (uid) => places.get(placeKey(change, uid));
  const nowOf: PlaceOf = (uid) => textsNow.get(placeKey(change, uid));
  return change.ops
    .map((entry) => detail(entry.op, placeOf, nowOf))
    .filter((d) => d.kind !== 'note' || d.text)
    .slice(0, MAX_DETAILS);
}

/** The page a change happened on, by title, for grouping (the first op that names one). */
export function changePage(change: Pick<Change, 'ops'>): string | undefined {
  for (const { op } of change.ops) {
    const page = pageOf(op);
    if (page) return page;
  }
  return undefined;
}

function pageOf(op: Op): string | undefined {
  switch (op.kind) {
    case 'update-block':
      return op.page;
    case 'delete-blocks':
      return op.items.find((item) => item.page)?.page;
    case 'delete-page':
    case 'create-page':
      return op.title;
    case 'rename-page':
      return op.after;
    case 'create-blocks':
      return op.container?.page?.title ?? /^to page '(.*)'$/.exec(op.where ?? '')?.[1];
    default:
      return undefined;
  }
}

/**
 * The journal's one-line summary with the uids it names places by (a move's "from abc to def",
 * "under block abc") replaced by their names, or by words when Roam could not name them.
 */
export function readableSummary(change: Change, places: PlaceNames = new Map()): string {
  let line = change.summary;
  for (const uid of placeUids(change)) {
    const name = places.get(placeKey(change, uid));
    const under = name ? (name.startsWith('under ') ? name : `on page ${name}`) : 'under another block';
    line = line
      .split(`under block ${uid}`)
      .join(under)
      .split(uid)
      .join(name ?? 'another place');
  }
  return line;
}
