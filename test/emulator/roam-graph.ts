/**
 * One Roam graph as a DataScript database with Roam's schema, and the writes roamAlphaAPI
 * performs on it. Attributes are stored under their Roam names as strings (":block/string"),
 * so pulls return Roam's keys unchanged.
 */
import datascript from 'datascript';
import type { Conn, DB, Schema } from 'datascript';
import type { GraphType } from '../../src-shared/roam-config.ts';
import { parseRefs } from './ref-parser.ts';
import { dateToPageTitle, dateToPageUid, pageTitleToDate } from './roam-dates.ts';
import { generateUid } from './roam-uid.ts';

const ref = { ':db/valueType': ':db.type/ref' };
const many = { ':db/cardinality': ':db.cardinality/many' };

/** Roam's schema, as far as the emulator needs it. */
export const ROAM_SCHEMA: Schema = {
  ':block/uid': { ':db/unique': ':db.unique/identity' },
  ':node/title': { ':db/unique': ':db.unique/identity' },
  ':block/children': { ...ref, ...many },
  ':block/page': { ...ref },
  ':block/parents': { ...ref, ...many },
  ':block/refs': { ...ref, ...many },
};

let lastTime = 0;
/** Strictly increasing wall-clock milliseconds, so every write moves `:edit/time` forward. */
export function nextTime(): number {
  lastTime = Math.max(Date.now(), lastTime + 1);
  return lastTime;
}

/** Where a new or moved block goes (roamAlphaAPI's `location`). */
export interface BlockLocation {
  'parent-uid'?: string;
  'page-title'?: string | { 'daily-note-page': string };
  order?: number | 'first' | 'last';
}

/** Fields of a block write. */
export interface BlockFields {
  string?: string;
  uid?: string;
  open?: boolean;
  heading?: number;
  'children-view-type'?: string;
}

type TxOp = unknown;

/** The AI user's name when a graph spec names none. */
export const DEFAULT_AI_USER = 'Roam Assistant (AI)';

export class RoamGraph {
  readonly conn: Conn;
  /** Bumped by each write: callers cache derived data per version. */
  version = 0;
  /**
   * The signed-in user's and the AI user's display names (GraphSpec.displayNames): getGraphGuidelines
   * reports them, and agent comments are attributed to `ai` (local-api-actions.md §3.1, §7).
   */
  displayNames: { human?: string; ai?: string } = { ai: DEFAULT_AI_USER };
  /** Uids of the pages in the left sidebar's Shortcuts, in order (getGraphGuidelines' starredPages). */
  shortcuts: string[] = [];
  /** Files uploaded with `file.upload`, by URL. */
  readonly files = new Map<string, { base64: string; mimetype: string; filename?: string }>();

  constructor(
    readonly name: string,
    readonly type: GraphType,
    db: DB = datascript.empty_db(ROAM_SCHEMA),
  ) {
    this.conn = datascript.conn_from_db(db);
  }

  get db(): DB {
    return datascript.db(this.conn);
  }

  /** The first value of `attr` on entity `eid`. */
  attr<T = unknown>(eid: number, attr: string): T | undefined {
    for (const datom of datascript.datoms(this.db, ':eavt', eid, attr)) return datom.v as T;
    return undefined;
  }

  /** Every value of a cardinality-many `attr`. */
  attrs<T = unknown>(eid: number, attr: string): T[] {
    return [...datascript.datoms(this.db, ':eavt', eid, attr)].map((datom) => datom.v as T);
  }

  eidByUid(uid: string): number | undefined {
    for (const datom of datascript.datoms(this.db, ':avet', ':block/uid', uid)) return datom.e;
    return undefined;
  }

  eidByTitle(title: string): number | undefined {
    for (const datom of datascript.datoms(this.db, ':avet', ':node/title', title)) return datom.e;
    return undefined;
  }

  isPage(eid: number): boolean {
    return this.attr(eid, ':node/title') !== undefined;
  }

  /** Children of a page or block, in `:block/order`. */
  children(eid: number): number[] {
    return this.attrs<number>(eid, ':block/children')
      .map((child) => ({ child, order: this.attr<number>(child, ':block/order') ?? 0 }))
      .sort((a, b) => a.order - b.order)
      .map((entry) => entry.child);
  }

  /** Entities whose `:block/refs` point at `eid` (its backlinks). */
  referrers(eid: number): number[] {
    return [...datascript.datoms(this.db, ':avet', ':block/refs', eid)].map((datom) => datom.e);
  }

  /** The page a block lives on (itself for a page). */
  pageOf(eid: number): number {
    return this.isPage(eid) ? eid : (this.attr<number>(eid, ':block/page') ?? eid);
  }

  /** Ancestors from the page down to the direct parent. */
  ancestors(eid: number): number[] {
    const chain: number[] = [];
    let current = this.parentOf(eid);
    while (current !== undefined) {
      chain.unshift(current);
      current = this.isPage(current) ? undefined : this.parentOf(current);
    }
    return chain;
  }

  parentOf(eid: number): number | undefined {
    for (const datom of datascript.datoms(this.db, ':avet', ':block/children', eid)) return datom.e;
    return undefined;
  }

  counts(): { pages: number; blocks: number } {
    const count = (attr: string) => [...datascript.datoms(this.db, ':aevt', attr)].length;
    return { pages: count(':node/title'), blocks: count(':block/string') };
  }

  /** Raw datoms for actions outside this class (comments, shortcuts): bumps the version like any write. */
  transactOps(tx: TxOp[]): void {
    this.transact(tx);
  }

  private transact(tx: TxOp[]): Record<string, number> {
    const report = datascript.transact(this.conn, tx);
    this.version++;
    return report.tempids;
  }

  private requireUid(uid: unknown, what: string): number {
    if (typeof uid !== 'string' || uid === '') {
      throw new Error(`${what}: a uid (non-empty string) is required.`);
    }
    const eid = this.eidByUid(uid);
    if (eid === undefined) {
      throw new Error(`${what}: no block or page with uid "${uid}" exists in graph '${this.name}'.`);
    }
    return eid;
  }

  /**
   * Ops that set `:block/refs` of `eid` for `text`, creating referenced pages that don't exist
   * (as Roam does). `tempid` hands out negative ids for those pages.
   */
  private refOps(eid: number | string, text: string, tempid: () => number, created: Map<string, number>) {
    const ops: TxOp[] = [];
    const parsed = parseRefs(text);
    const now = nextTime();
    for (const title of parsed.pageTitles) {
      let target: number | undefined = this.eidByTitle(title) ?? created.get(title);
      if (target === undefined) {
        target = tempid();
        created.set(title, target);
        ops.push(newPageEntity(target, title, this.freshPageUid(title), now));
      }
      ops.push([':db/add', eid, ':block/refs', target]);
    }
    for (const uid of parsed.blockUids) {
      const target = this.eidByUid(uid);
      if (target !== undefined) ops.push([':db/add', eid, ':block/refs', target]);
    }
    return ops;
  }

  private freshPageUid(title: string): string {
    const date = pageTitleToDate(title);
    const dailyUid = date ? dateToPageUid(date) : undefined;
    return dailyUid && this.eidByUid(dailyUid) === undefined ? dailyUid : generateUid();
  }

  private resolveParent(location: BlockLocation | undefined, what: string): number {
    if (!location || typeof location !== 'object') {
      throw new Error(`${what}: "location" is required, e.g. {"parent-uid": "abc123xyz", "order": "last"}.`);
    }
    if (location['parent-uid'] !== undefined) return this.requireUid(location['parent-uid'], what);
    const pageTitle = location['page-title'];
    if (pageTitle !== undefined) {
      const title =
        typeof pageTitle === 'string' ? pageTitle : dailyTitle(pageTitle['daily-note-page'], what);
      const eid = this.eidByTitle(title);
      if (eid !== undefined) return eid;
      return this.createPage({ title }).eid;
    }
    throw new Error(`${what}: location needs "parent-uid" or "page-title".`);
  }

  private orderIndex(order: BlockLocation['order'], siblings: number, what: string): number {
    if (order === undefined || order === 'last') return siblings;
    if (order === 'first') return 0;
    if (typeof order !== 'number' || !Number.isInteger(order) || order < 0) {
      throw new Error(
        `${what}: "order" must be a non-negative integer, "first" or "last"; got ${JSON.stringify(order)}.`,
      );
    }
    return Math.min(order, siblings);
  }

  /** Ops that renumber `children` 0..n-1 where their order differs (tempids are skipped). */
  private renumberOps(children: number[]): TxOp[] {
    return children.flatMap((child, index) =>
      child < 0 || this.attr(child, ':block/order') === index
        ? []
        : [[':db/add', child, ':block/order', index]],
    );
  }

  /** `data.block.create`: returns the new block's uid. */
  createBlock(location: BlockLocation | undefined, block: BlockFields | undefined): string {
    const what = 'data.block.create';
    if (!block || typeof block.string !== 'string') {
      throw new Error(`${what}: "block.string" is required (the block's text).`);
    }
    const parent = this.resolveParent(location, what);
    const uid = block.uid ?? generateUid();
    if (this.eidByUid(uid) !== undefined) {
      throw new Error(`${what}: a block with uid "${uid}" already exists; omit "uid" to get a fresh one.`);
    }
    const siblings = this.children(parent);
    const index = this.orderIndex(location?.order, siblings.length, what);
    const newId = -1;
    let next = -2;
    const created = new Map<string, number>();
    const now = nextTime();
    const page = this.pageOf(parent);
    const entity: Record<string, unknown> = {
      ':db/id': newId,
      ':block/uid': uid,
      ':block/string': block.string,
      ':block/order': index,
      ':block/page': page,
      ':block/parents': [...this.ancestors(parent), parent],
      ':block/open': block.open ?? true,
      ':create/time': now,
      ':edit/time': now,
    };
    if (block.heading) entity[':block/heading'] = block.heading;
    if (block['children-view-type']) entity[':children/view-type'] = `:${block['children-view-type']}`;
    const reordered = [...siblings];
    reordered.splice(index, 0, newId);
    this.transact([
      entity,
      [':db/add', parent, ':block/children', newId],
      ...this.renumberOps(reordered),
      ...this.refOps(newId, block.string, () => next--, created),
      [':db/add', page, ':edit/time', now],
    ]);
    return uid;
  }

  /** `data.block.update`. */
  updateBlock(block: BlockFields | undefined): void {
    const what = 'data.block.update';
    const eid = this.requireUid(block?.uid, what);
    if (this.isPage(eid))
      throw new Error(`${what}: "${block?.uid}" is a page; use data.page.update to rename it.`);
    const ops: TxOp[] = [];
    const now = nextTime();
    if (block?.string !== undefined) {
      if (typeof block.string !== 'string') throw new Error(`${what}: "block.string" must be a string.`);
      for (const old of this.attrs<number>(eid, ':block/refs'))
        ops.push([':db/retract', eid, ':block/refs', old]);
      ops.push([':db/add', eid, ':block/string', block.string]);
      let next = -1;
      ops.push(...this.refOps(eid, block.string, () => next--, new Map()));
    }
    if (block?.open !== undefined) ops.push([':db/add', eid, ':block/open', Boolean(block.open)]);
    if (block?.heading !== undefined) {
      const old = this.attr(eid, ':block/heading');
      if (block.heading) ops.push([':db/add', eid, ':block/heading', block.heading]);
      else if (old !== undefined) ops.push([':db/retract', eid, ':block/heading', old]);
    }
    ops.push([':db/add', eid, ':edit/time', now], [':db/add', this.pageOf(eid), ':edit/time', now]);
    this.transact(ops);
  }

  /** `data.block.move`. */
  moveBlock(location: BlockLocation | undefined, block: { uid?: string } | undefined): void {
    const what = 'data.block.move';
    const eid = this.requireUid(block?.uid, what);
    if (this.isPage(eid)) throw new Error(`${what}: "${block?.uid}" is a page; only blocks can be moved.`);
    const target = this.resolveParent(location, what);
    if (target === eid || this.ancestors(target).includes(eid)) {
      throw new Error(`${what}: cannot move block "${block?.uid}" under itself or one of its descendants.`);
    }
    const oldParent = this.parentOf(eid);
    const ops: TxOp[] = [];
    if (oldParent !== undefined) {
      ops.push([':db/retract', oldParent, ':block/children', eid]);
      if (oldParent !== target)
        ops.push(...this.renumberOps(this.children(oldParent).filter((e) => e !== eid)));
    }
    const siblings = this.children(target).filter((e) => e !== eid);
    const index = this.orderIndex(location?.order, siblings.length, what);
    siblings.splice(index, 0, eid);
    ops.push([':db/add', target, ':block/children', eid], ...this.renumberOps(siblings));
    // The block and its whole subtree get a new page and new ancestors.
    const page = this.pageOf(target);
    const base = [...this.ancestors(target), target];
    const walk = (node: number, parents: number[]) => {
      for (const old of this.attrs<number>(node, ':block/parents'))
        ops.push([':db/retract', node, ':block/parents', old]);
      for (const p of parents) ops.push([':db/add', node, ':block/parents', p]);
      ops.push([':db/add', node, ':block/page', page]);
      for (const child of this.children(node)) walk(child, [...parents, node]);
    };
    walk(eid, base);
    const now = nextTime();
    ops.push([':db/add', eid, ':edit/time', now], [':db/add', page, ':edit/time', now]);
    this.transact(ops);
  }

  /** `data.block.delete`: the block and all its descendants. */
  deleteBlock(block: { uid?: string } | undefined): void {
    const what = 'data.block.delete';
    const eid = this.requireUid(block?.uid, what);
    if (this.isPage(eid)) throw new Error(`${what}: "${block?.uid}" is a page; use data.page.delete.`);
    const parent = this.parentOf(eid);
    const ops: TxOp[] = this.subtree(eid).map((e) => [':db.fn/retractEntity', e]);
    if (parent !== undefined) ops.push(...this.renumberOps(this.children(parent).filter((e) => e !== eid)));
    ops.push([':db/add', this.pageOf(eid), ':edit/time', nextTime()]);
    this.transact(ops);
  }

  /** `eid` and every descendant. */
  subtree(eid: number): number[] {
    const all = [eid];
    for (const child of this.attrs<number>(eid, ':block/children')) all.push(...this.subtree(child));
    return all;
  }

  /** `data.page.create`. */
  createPage(page: { title?: string; uid?: string } | undefined): { uid: string; eid: number } {
    const what = 'data.page.create';
    const title = page?.title;
    if (typeof title !== 'string' || title.trim() === '') {
      throw new Error(`${what}: "page.title" is required (a non-empty string).`);
    }
    if (this.eidByTitle(title) !== undefined) {
      throw new Error(`${what}: a page titled "${title}" already exists; use data.ai.getPage to read it.`);
    }
    const uid = page?.uid ?? this.freshPageUid(title);
    if (this.eidByUid(uid) !== undefined) {
      throw new Error(`${what}: uid "${uid}" is already taken; omit "uid" to get a fresh one.`);
    }
    const tempids = this.transact([newPageEntity(-1, title, uid, nextTime())]);
    return { uid, eid: datascript.resolve_tempid(tempids, -1) };
  }

  /** `data.page.update`: renames (references stay attached by entity). */
  updatePage(page: { uid?: string; title?: string } | undefined): void {
    const what = 'data.page.update';
    const eid = this.requireUid(page?.uid, what);
    if (!this.isPage(eid)) throw new Error(`${what}: "${page?.uid}" is a block; use data.block.update.`);
    if (page?.title === undefined) return;
    if (typeof page.title !== 'string' || page.title.trim() === '') {
      throw new Error(`${what}: "page.title" must be a non-empty string.`);
    }
    const clash = this.eidByTitle(page.title);
    if (clash !== undefined && clash !== eid) {
      throw new Error(`${what}: a page titled "${page.title}" already exists; choose another title.`);
    }
    this.transact([
      [':db/add', eid, ':node/title', page.title],
      [':db/add', eid, ':edit/time', nextTime()],
    ]);
  }

  /** `data.page.delete`: the page and all its blocks. */
  deletePage(page: { uid?: string } | undefined): void {
    const what = 'data.page.delete';
    const eid = this.requireUid(page?.uid, what);
    if (!this.isPage(eid)) throw new Error(`${what}: "${page?.uid}" is a block; use data.block.delete.`);
    this.transact(this.subtree(eid).map((e) => [':db.fn/retractEntity', e]));
  }
}

/** `{"daily-note-page": "11-22-2026"}` names a daily page by its uid-style date. */
function dailyTitle(value: unknown, what: string): string {
  const match = typeof value === 'string' ? /^(\d{2})-(\d{2})-(\d{4})$/.exec(value) : null;
  if (!match) {
    throw new Error(
      `${what}: "daily-note-page" must be a date as MM-DD-YYYY, e.g. "11-22-2026"; got ${JSON.stringify(value)}.`,
    );
  }
  return dateToPageTitle(new Date(Date.UTC(Number(match[3]), Number(match[1]) - 1, Number(match[2]))));
}

function newPageEntity(id: number, title: string, uid: string, now: number): Record<string, unknown> {
  const entity: Record<string, unknown> = {
    ':db/id': id,
    ':node/title': title,
    ':block/uid': uid,
    ':create/time': now,
    ':edit/time': now,
  };
  const date = pageTitleToDate(title);
  if (date && uid === dateToPageUid(date)) entity[':log/id'] = date.getTime();
  return entity;
}
