/**
 * One Roam graph as a DataScript database with Roam's schema, and the writes roamAlphaAPI
 * performs on it. Attributes are stored under their Roam names as strings (":block/string"),
 * so pulls return Roam's keys unchanged.
 */
import datascript from 'datascript';
import type { Conn, DB, Schema } from 'datascript';
import type { GraphType } from '../../src-shared/roam-config.ts';
import { parseRefs } from './ref-parser.ts';
import { deleteCascade, renameCascade } from './write-cascades.ts';
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
  ':user/uid': { ':db/unique': ':db.unique/identity' },
  ':create/user': { ...ref },
  ':edit/user': { ...ref },
  ':page/edit-user': { ...ref },
};

/** `:user/uid` of the signed-in person and of the graph's AI user (agent tokens write as it). */
export const HUMAN_USER_UID = 'human-user-uid';
export const AI_USER_UID = 'ai-user-uid';
/** Who a write is attributed to: the signed-in person, the AI user, or another person by name. */
export type Author = 'human' | 'ai' | { person: string };

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
  'text-align'?: string;
}

type TxOp = unknown;

/** The AI user's name when a graph spec names none. */
export const DEFAULT_AI_USER = 'Roam Assistant (AI)';
/** The signed-in person's `:user/display-name` when a graph spec names none. */
export const DEFAULT_HUMAN_USER = 'Roam User';

export class RoamGraph {
  readonly conn: Conn;
  /** Bumped by each write: callers cache derived data per version. */
  version = 0;
  /**
   * The signed-in user's and the AI user's display names (GraphSpec.displayNames): getGraphGuidelines
   * reports them, and agent comments are attributed to `ai`.
   */
  private names: { human?: string; ai?: string } = { ai: DEFAULT_AI_USER };
  /** The user entity the current write is attributed to (see `actingAs`). */
  private actor = 0;
  /** Uids of the pages in the left sidebar's Shortcuts, in order (getGraphGuidelines' starredPages). */
  shortcuts: string[] = [];
  /** How `data.ai.*` markdown writes a block reference (GraphSpec.refPreviews). */
  refPreviews: 'alias' | 'ref-tag' = 'alias';
  /** Files uploaded with `file.upload`, by URL. */
  readonly files = new Map<string, { base64: string; mimetype: string; filename?: string }>();

  constructor(
    readonly name: string,
    readonly type: GraphType,
    db: DB = datascript.empty_db(ROAM_SCHEMA),
  ) {
    this.conn = datascript.conn_from_db(db);
    this.displayNames = this.names;
    this.actor = this.userEid('human');
  }

  get displayNames(): { human?: string; ai?: string } {
    return this.names;
  }

  /** Also names the user entities (`:user/display-name`). */
  set displayNames(names: { human?: string; ai?: string }) {
    this.names = names;
    this.transact([
      { ':user/uid': HUMAN_USER_UID, ':user/display-name': names.human ?? DEFAULT_HUMAN_USER },
      { ':user/uid': AI_USER_UID, ':user/display-name': names.ai ?? DEFAULT_AI_USER },
    ]);
  }

  /** The user entity of `author` (another person's is created on first use). */
  userEid(author: Author): number {
    const uid =
      author === 'human' ? HUMAN_USER_UID : author === 'ai' ? AI_USER_UID : `person-${author.person}`;
    for (const datom of datascript.datoms(this.db, ':avet', ':user/uid', uid)) return datom.e;
    const name = typeof author === 'object' ? author.person : uid;
    const tempids = this.transact([{ ':db/id': -1, ':user/uid': uid, ':user/display-name': name }]);
    return datascript.resolve_tempid(tempids, -1);
  }

  /** Runs `write` with every change it makes attributed to `author`. */
  actingAs<T>(author: Author, write: () => T): T {
    const previous = this.actor;
    this.actor = this.userEid(author);
    try {
      return write();
    } finally {
      this.actor = previous;
    }
  }

  /**
   * Ops stamping a change of `eid` at `now` by the acting user: `:edit/*`, plus `:create/*` for a
   * new entity, plus `:page/edit-*` for a page.
   */
  touchOps(eid: number, now: number, kind: 'edit' | 'new-block' | 'new-page' = 'edit'): TxOp[] {
    const ops: TxOp[] = [
      [':db/add', eid, ':edit/time', now],
      [':db/add', eid, ':edit/user', this.actor],
    ];
    if (kind !== 'edit')
      ops.push([':db/add', eid, ':create/time', now], [':db/add', eid, ':create/user', this.actor]);
    if (kind === 'new-page' || (kind === 'edit' && this.isPage(eid)))
      ops.push([':db/add', eid, ':page/edit-time', now], [':db/add', eid, ':page/edit-user', this.actor]);
    return ops;
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

  /**
   * Each block's `:block/order`, read once and kept across writes: a write reads every sibling's
   * order to place a block and to renumber them, and re-reading all of them after each write made
   * building a page of a thousand blocks quadratic. A write forgets the orders it changed
   * (`transact`); a graph state reached any other way starts afresh.
   */
  private orders: { db: DB; known: Map<number, number | undefined> } | undefined;

  private orderOf(eid: number): number | undefined {
    const db = this.db;
    if (this.orders?.db !== db) this.orders = { db, known: new Map() };
    const { known } = this.orders;
    if (!known.has(eid)) known.set(eid, this.attr<number>(eid, ':block/order'));
    return known.get(eid);
  }

  /** Children of a page or block, in `:block/order`. */
  children(eid: number): number[] {
    return this.attrs<number>(eid, ':block/children')
      .map((child) => ({ child, order: this.orderOf(child) ?? 0 }))
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
    const orders = this.orders;
    if (orders?.db === report.db_before) {
      for (const datom of report.tx_data) if (datom.a === ':block/order') orders.known.delete(datom.e);
      orders.db = report.db_after;
    }
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
   * (as Roam does). `tempid` hands out negative ids for those pages; titles in `skip` (a page
   * being deleted) are not referenced.
   */
  private refOps(
    eid: number,
    text: string,
    tempid: () => number,
    created: Map<string, number>,
    skip: ReadonlySet<string> = new Set(),
  ) {
    const ops: TxOp[] = [];
    const parsed = parseRefs(text);
    const now = nextTime();
    for (const title of parsed.pageTitles) {
      if (skip.has(title)) continue;
      let target: number | undefined = this.eidByTitle(title) ?? created.get(title);
      if (target === undefined) {
        target = tempid();
        created.set(title, target);
        ops.push(
          newPageEntity(target, title, this.freshPageUid(title)),
          ...this.touchOps(target, now, 'new-page'),
        );
      }
      ops.push([':db/add', eid, ':block/refs', target]);
    }
    for (const uid of parsed.blockUids) {
      const target = this.eidByUid(uid);
      if (target !== undefined) ops.push([':db/add', eid, ':block/refs', target]);
    }
    return ops;
  }

  /** Ops that replace the text of block `eid` and re-derive its refs from it. */
  private stringOps(eid: number, text: string, skip?: ReadonlySet<string>): TxOp[] {
    let next = -1;
    return [
      ...this.attrs<number>(eid, ':block/refs').map((old) => [':db/retract', eid, ':block/refs', old]),
      [':db/add', eid, ':block/string', text],
      ...this.refOps(eid, text, () => next--, new Map(), skip),
    ];
  }

  /**
   * Roam's own rewrite of a block's text (a deletion or rename elsewhere): refs re-derived,
   * the block and its page stamped with the acting user.
   */
  rewriteString(eid: number, text: string, skip?: ReadonlySet<string>): void {
    const now = nextTime();
    this.transact([
      ...this.stringOps(eid, text, skip),
      ...this.touchOps(eid, now),
      ...this.touchOps(this.pageOf(eid), now),
    ]);
  }

  /** Sets a page's title as is (no link rewriting: see `updatePage`). */
  retitle(eid: number, title: string): void {
    this.transact([[':db/add', eid, ':node/title', title], ...this.touchOps(eid, nextTime())]);
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
      child < 0 || this.orderOf(child) === index ? [] : [[':db/add', child, ':block/order', index]],
    );
  }

  /** `data.block.create`: returns the new block's uid. */
  createBlock(location: BlockLocation | undefined, block: BlockFields | undefined): string {
    const what = 'data.block.create';
    if (!block || typeof block.string !== 'string') {
      throw new Error(`${what}: "block.string" is required (the block's text).`);
    }
    const parent = this.resolveParent(location, what);
    const uid = this.unusedUid(block.uid, what, (u) => `a block with uid "${u}" already exists`);
    const siblings = this.children(parent);
    const index = this.orderIndex(location?.order, siblings.length, what);
    const newId = -1;
    let next = -2;
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
    };
    const reordered = [...siblings];
    reordered.splice(index, 0, newId);
    this.transact([
      entity,
      ...this.layoutOps(newId, block, what),
      [':db/add', parent, ':block/children', newId],
      ...this.renumberOps(reordered),
      ...this.refOps(newId, block.string, () => next--, new Map()),
      ...this.touchOps(newId, now, 'new-block'),
      ...this.touchOps(page, now),
    ]);
    return uid;
  }

  /** A uid given for a new entity (refused when taken), or a fresh one. */
  private unusedUid(uid: unknown, what: string, taken: (uid: string) => string): string {
    if (uid === undefined) return generateUid();
    if (typeof uid !== 'string' || uid.trim() === '') {
      throw new Error(`${what}: "uid" must be a non-empty string; omit it to get a fresh one.`);
    }
    if (this.eidByUid(uid) !== undefined) {
      throw new Error(`${what}: ${taken(uid)}; omit "uid" to get a fresh one.`);
    }
    return uid;
  }

  /** Ops for the display fields of a block write: heading, text-align, children-view-type. */
  private layoutOps(eid: number, block: BlockFields, what: string): TxOp[] {
    const ops: TxOp[] = [];
    const set = (attr: string, value: unknown) => {
      const old = eid < 0 ? undefined : this.attr(eid, attr);
      if (value !== undefined && value !== null && value !== 0) ops.push([':db/add', eid, attr, value]);
      else if (old !== undefined) ops.push([':db/retract', eid, attr, old]);
    };
    if (block.heading !== undefined) {
      if (![0, 1, 2, 3].includes(block.heading))
        throw new Error(`${what}: "heading" must be 0, 1, 2 or 3; got ${JSON.stringify(block.heading)}.`);
      set(':block/heading', block.heading);
    }
    const align = block['text-align'];
    if (align !== undefined) {
      if (!['left', 'center', 'right', 'justify'].includes(align))
        throw new Error(
          `${what}: "text-align" must be left, center, right or justify; got ${JSON.stringify(align)}.`,
        );
      set(':block/text-align', align);
    }
    const view = block['children-view-type'];
    if (view !== undefined) {
      if (!['bullet', 'numbered', 'document'].includes(view))
        throw new Error(
          `${what}: "children-view-type" must be bullet, numbered or document; got ${JSON.stringify(view)}.`,
        );
      set(':children/view-type', `:${view}`);
    }
    return ops;
  }

  /** `data.block.update`. */
  updateBlock(block: BlockFields | undefined): void {
    const what = 'data.block.update';
    const eid = this.requireUid(block?.uid, what);
    if (this.isPage(eid))
      throw new Error(`${what}: "${block?.uid}" is a page; use data.page.update to rename it.`);
    const fields = block as BlockFields;
    const ops: TxOp[] = [];
    if (fields.string !== undefined) {
      if (typeof fields.string !== 'string') throw new Error(`${what}: "block.string" must be a string.`);
      ops.push(...this.stringOps(eid, fields.string));
    }
    if (fields.open !== undefined) ops.push([':db/add', eid, ':block/open', Boolean(fields.open)]);
    ops.push(...this.layoutOps(eid, fields, what));
    const now = nextTime();
    this.transact([...ops, ...this.touchOps(eid, now), ...this.touchOps(this.pageOf(eid), now)]);
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
    this.transact([...ops, ...this.touchOps(eid, now), ...this.touchOps(page, now)]);
  }

  /**
   * `data.block.delete`: the block and all its descendants; `((uid))` references to any of them
   * elsewhere become that block's text.
   */
  deleteBlock(block: { uid?: string } | undefined): void {
    const what = 'data.block.delete';
    const eid = this.requireUid(block?.uid, what);
    if (this.isPage(eid)) throw new Error(`${what}: "${block?.uid}" is a page; use data.page.delete.`);
    const doomed = this.subtree(eid);
    deleteCascade(this, doomed);
    const parent = this.parentOf(eid);
    const ops: TxOp[] = doomed.map((e) => [':db.fn/retractEntity', e]);
    if (parent !== undefined) ops.push(...this.renumberOps(this.children(parent).filter((e) => e !== eid)));
    this.transact([...ops, ...this.touchOps(this.pageOf(eid), nextTime())]);
  }

  /** `eid` and every descendant. */
  subtree(eid: number): number[] {
    const all = [eid];
    for (const child of this.attrs<number>(eid, ':block/children')) all.push(...this.subtree(child));
    return all;
  }

  /** `data.page.create`. */
  createPage(page: { title?: string; uid?: string; 'children-view-type'?: string } | undefined): {
    uid: string;
    eid: number;
  } {
    const what = 'data.page.create';
    const title = page?.title;
    if (typeof title !== 'string' || title.trim() === '') {
      throw new Error(`${what}: "page.title" is required (a non-empty string).`);
    }
    if (this.eidByTitle(title) !== undefined) {
      throw new Error(`${what}: a page titled "${title}" already exists; use data.ai.getPage to read it.`);
    }
    const uid =
      page?.uid === undefined
        ? this.freshPageUid(title)
        : this.unusedUid(page.uid, what, (u) => `uid "${u}" is already taken`);
    const tempids = this.transact([
      newPageEntity(-1, title, uid),
      ...this.layoutOps(-1, { 'children-view-type': page?.['children-view-type'] }, what),
      ...this.touchOps(-1, nextTime(), 'new-page'),
    ]);
    return { uid, eid: datascript.resolve_tempid(tempids, -1) };
  }

  /**
   * `data.page.update`: a new title is a rename, and Roam rewrites the links that point at the
   * page, in block strings and in other pages' titles.
   */
  updatePage(page: { uid?: string; title?: string; 'children-view-type'?: string } | undefined): void {
    const what = 'data.page.update';
    const eid = this.requireUid(page?.uid, what);
    if (!this.isPage(eid)) throw new Error(`${what}: "${page?.uid}" is a block; use data.block.update.`);
    if (page?.['children-view-type'] !== undefined) {
      const ops = this.layoutOps(eid, { 'children-view-type': page['children-view-type'] }, what);
      this.transact([...ops, ...this.touchOps(eid, nextTime())]);
    }
    if (page?.title === undefined) return;
    if (typeof page.title !== 'string' || page.title.trim() === '') {
      throw new Error(`${what}: "page.title" must be a non-empty string.`);
    }
    const clash = this.eidByTitle(page.title);
    if (clash !== undefined && clash !== eid) {
      throw new Error(`${what}: a page titled "${page.title}" already exists; choose another title.`);
    }
    if (clash !== eid) renameCascade(this, eid, page.title);
  }

  /**
   * `data.page.delete`: the page and all its blocks; links to it elsewhere are de-linked in
   * place and `((uid))` references to its blocks become their text.
   */
  deletePage(page: { uid?: string } | undefined): void {
    const what = 'data.page.delete';
    const eid = this.requireUid(page?.uid, what);
    if (!this.isPage(eid)) throw new Error(`${what}: "${page?.uid}" is a block; use data.block.delete.`);
    const doomed = this.subtree(eid);
    deleteCascade(this, doomed);
    this.transact(doomed.map((e) => [':db.fn/retractEntity', e]));
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

function newPageEntity(id: number, title: string, uid: string): Record<string, unknown> {
  const entity: Record<string, unknown> = { ':db/id': id, ':node/title': title, ':block/uid': uid };
  const date = pageTitleToDate(title);
  if (date && uid === dateToPageUid(date)) entity[':log/id'] = date.getTime();
  return entity;
}
