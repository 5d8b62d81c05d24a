/**
 * What an undo run sees of one graph: what Roam answered, read in batches (`load`), with each
 * step's writes recorded in an overlay on top (what is gone, made, moved, retexted, renamed, with
 * the links Roam would rewrite), so a later step is checked against the graph as the earlier
 * steps left it without reading it again. A dry run and an undo see the graph the same way; the
 * dry run only leaves out the writes, so it reports exactly what applying would do.
 */
import { DEEP, pullQuery, readRows, SHALLOW, type PulledNode } from './roam-pull.ts';
import { refersTo, renamedLinks } from './roam-text.ts';
import type { Referrer, TreeNode } from './types.ts';

export type GraphCall = (action: string, args: unknown[]) => Promise<unknown>;

/** Every read the view makes of Roam (an undo's tool declares them: src-mcp/changes/index.ts). */
export const VIEW_READS = ['data.q', 'data.ai.getGraphGuidelines', 'file.get'] as const;

type Key = { uid: string } | { title: string };
type Place = { parent: string; order: number | 'last' };

export class RoamState {
  /** What Roam answered: uid → node (null: does not exist), title → uid. */
  private readonly raw = new Map<string, PulledNode | null>();
  private readonly rawTitles = new Map<string, string | null>();
  // The dry run's overlay.
  private readonly gone = new Set<string>();
  private readonly made = new Map<string, PulledNode>();
  private readonly fields = new Map<string, Partial<PulledNode>>();
  private readonly places = new Map<string, Place>();
  private shortcuts: string[] | undefined;

  constructor(private readonly callRoam: GraphCall) {}

  /** Any read (dry runs read too). */
  read(action: (typeof VIEW_READS)[number], args: unknown[]): Promise<unknown> {
    return this.callRoam(action, args);
  }

  /** The shortcut list (titles, in order), as the view sees it now. */
  async starred(): Promise<string[]> {
    if (this.shortcuts) return this.shortcuts;
    const answer = (await this.read('data.ai.getGraphGuidelines', [])) as {
      starredPages?: unknown;
    } | null;
    const list = Array.isArray(answer?.starredPages) ? answer.starredPages.map(String) : [];
    // Shortcuts are titles: a page an earlier step renamed back is listed under its title now.
    this.shortcuts = list.map((title) => {
      const uid = this.rawTitles.get(title);
      return (uid && this.fields.get(uid)?.title) || title;
    });
    return this.shortcuts;
  }

  /** A shortcut change's effect. */
  starredNow(list: string[]): void {
    this.shortcuts = list;
  }

  /** Loads nodes (deep: with their subtrees) in one round trip; what is known is not read again. */
  async load(keys: Key[], deep = false): Promise<void> {
    const wanted = keys.filter((k) => !this.known(k, deep));
    if (wanted.length === 0) return;
    const ids = wanted.map((k) => ('uid' in k ? k.uid : k.title));
    const rows = readRows(await this.read('data.q', [pullQuery(deep ? DEEP : SHALLOW), ids]), deep);
    for (const row of rows) this.remember(row, deep);
    for (const key of wanted) {
      if ('uid' in key && !this.raw.has(key.uid)) this.raw.set(key.uid, null);
      if ('title' in key && !this.rawTitles.has(key.title)) this.rawTitles.set(key.title, null);
    }
  }

  private known(key: Key, deep: boolean): boolean {
    if ('title' in key) return this.overlayTitle(key.title) !== undefined || this.rawTitles.has(key.title);
    if (this.gone.has(key.uid) || this.made.has(key.uid)) return true;
    const node = this.raw.get(key.uid);
    return node === null || (node !== undefined && (!deep || node.nodes !== undefined));
  }

  private remember(node: PulledNode, deep: boolean): void {
    this.raw.set(node.uid, node);
    if (node.title !== undefined) this.rawTitles.set(node.title, node.uid);
    if (deep) for (const child of node.nodes ?? []) this.remember(child, true);
  }

  /** The uid the overlay gives this title: a string, null (renamed away), or undefined (no say). */
  private overlayTitle(title: string): string | null | undefined {
    for (const [uid, f] of this.fields) if (f.title === title && !this.gone.has(uid)) return uid;
    for (const [uid, m] of this.made) if (m.title === title && !this.gone.has(uid)) return uid;
    const raw = this.rawTitles.get(title);
    if (raw && (this.gone.has(raw) || (this.fields.get(raw)?.title ?? title) !== title)) return null;
    return undefined;
  }

  /** A node as the view sees it now (undefined: never loaded; null: gone). */
  peek(uid: string): PulledNode | null | undefined {
    if (this.gone.has(uid)) return null;
    const base = this.made.get(uid) ?? this.raw.get(uid);
    if (!base) return base;
    const place = this.places.get(uid);
    return {
      ...base,
      ...this.fields.get(uid),
      ...(place ? { parent: place.parent } : {}),
      children: this.childrenOf(base),
    };
  }

  /**
   * Roam's children, then every block placed since, in the order it was placed: as Roam does, a
   * placed block leaves its old position (even under the same parent) and goes in at its order.
   */
  private childrenOf(base: PulledNode): string[] {
    const kids = base.children.filter((c) => !this.gone.has(c) && !this.places.has(c));
    for (const [uid, place] of this.places) {
      if (place.parent !== base.uid || this.gone.has(uid)) continue;
      kids.splice(place.order === 'last' ? kids.length : Math.min(place.order, kids.length), 0, uid);
    }
    return kids;
  }

  /** Places a block (the latest placing counts last: Map keeps first-insertion order). */
  private place(uid: string, place: Place): void {
    this.places.delete(uid);
    this.places.set(uid, place);
  }

  async node(uid: string, deep = false): Promise<PulledNode | null> {
    await this.load([{ uid }], deep);
    if (deep) await this.loadMovedIn(uid);
    return this.peek(uid) ?? null;
  }

  /**
   * A dry run's earlier step may have moved a block under this subtree that Roam's deep answer
   * does not hold yet (or held only shallow): load those too, so the subtree is the one applying
   * would find.
   */
  private async loadMovedIn(uid: string): Promise<void> {
    for (;;) {
      const root = this.peek(uid);
      const missing = root
        ? this.subtree(root)
            .flatMap((n) => n.children)
            .filter((c) => !this.known({ uid: c }, true))
        : [];
      if (missing.length === 0) return;
      await this.load(
        missing.map((c) => ({ uid: c })),
        true,
      );
    }
  }

  async page(title: string, deep = false): Promise<PulledNode | null> {
    const overlay = this.overlayTitle(title);
    if (overlay === null) return null;
    if (overlay) return this.node(overlay, deep);
    await this.load([{ title }], deep);
    const uid = this.rawTitles.get(title);
    return uid ? this.node(uid, deep) : null;
  }

  /** A loaded node's subtree, as the view sees it now (pre-order). */
  subtree(node: PulledNode): PulledNode[] {
    const children = node.children.map((c) => this.peek(c)).filter((c): c is PulledNode => !!c);
    return [node, ...children.flatMap((c) => this.subtree(c))];
  }

  /** Blocks and pages referring to `node` whose text still refers to it, with their text now. */
  referrers(node: PulledNode): Referrer[] {
    const target = { uid: node.uid, ...(node.title !== undefined ? { title: node.title } : {}) };
    const found: Referrer[] = [];
    const seen = new Set<string>();
    for (const r of node.referrers) {
      seen.add(r.uid);
      if (this.gone.has(r.uid)) continue;
      const text = this.fields.get(r.uid)?.string ?? r.string;
      if (!this.fields.get(r.uid) || refersTo(text ?? r.title, target))
        found.push({ ...r, ...(text !== undefined ? { string: text } : {}) });
    }
    for (const uid of [...this.made.keys(), ...this.fields.keys()]) {
      const now = this.peek(uid);
      if (!seen.has(uid) && now && refersTo(now.string, target))
        found.push({ uid, ...(now.string !== undefined ? { string: now.string } : {}) });
    }
    return found;
  }

  /** After a write that failed half-way: nothing known is trusted any more, Roam is read again. */
  forget(): void {
    this.raw.clear();
    this.rawTitles.clear();
    this.gone.clear();
    this.made.clear();
    this.fields.clear();
    this.places.clear();
    this.shortcuts = undefined;
  }

  // The model of each write.

  removed(node: PulledNode): void {
    for (const n of this.subtree(node)) this.gone.add(n.uid);
  }

  added(parentUid: string | undefined, tree: TreeNode, order: number | 'last', title?: string): void {
    const uid = tree.uid as string;
    this.gone.delete(uid);
    const { heading, open, textAlign, viewType, blockViewType } = tree;
    this.made.set(uid, {
      uid,
      ...(title !== undefined ? { title } : { string: tree.string }),
      ...(parentUid ? { parent: parentUid } : {}),
      ...(typeof order === 'number' ? { order } : {}),
      ...(heading ? { heading } : {}),
      ...(open !== undefined ? { open } : {}),
      ...(textAlign ? { textAlign } : {}),
      ...(viewType ? { viewType } : {}),
      ...(blockViewType ? { blockViewType } : {}),
      children: [],
      nodes: [],
      referrers: [],
    });
    if (parentUid) this.place(uid, { parent: parentUid, order });
    tree.children.forEach((child, i) => this.added(uid, child, i));
  }

  changed(uid: string, fields: Partial<PulledNode>): void {
    this.fields.set(uid, { ...this.fields.get(uid), ...fields });
  }

  moved(uid: string, parentUid: string, order: number | 'last'): void {
    this.place(uid, { parent: parentUid, order });
  }

  /** A rename, and Roam rewriting the links to the page in the blocks that refer to it. */
  renamed(page: PulledNode, from: string, to: string): void {
    for (const r of this.referrers(page))
      if (r.string !== undefined) this.changed(r.uid, { string: renamedLinks(r.string, from, to) });
    this.changed(page.uid, { title: to });
    this.shortcuts = this.shortcuts?.map((title) => (title === from ? to : title));
  }
}
