/**
 * What an undo run sees of one graph. Applying, every read goes to Roam (the cache is dropped
 * after each step). In a dry run nothing is written: each step's writes are played on the cached
 * nodes instead, so a later step is checked against the graph as the earlier steps would leave
 * it, and the dry run reports exactly what applying would do.
 */
import { DEEP, pullQuery, readRows, SHALLOW, type PulledNode } from './roam-pull.ts';
import { refersTo } from './roam-text.ts';
import type { Referrer, TreeNode } from './types.ts';

export type GraphCall = (action: string, args: unknown[]) => Promise<unknown>;

type Key = { uid: string } | { title: string };

export class GraphView {
  /** uid → node (null: known not to exist). */
  private readonly nodes = new Map<string, PulledNode | null>();
  private readonly titles = new Map<string, string | null>();
  /** Nodes the dry run made (they refer to others through their text). */
  private readonly made = new Set<string>();

  constructor(
    private readonly callRoam: GraphCall,
    readonly dry: boolean,
  ) {}

  /** Any read (dry runs read too). */
  read(action: string, args: unknown[]): Promise<unknown> {
    return this.callRoam(action, args);
  }

  /** Loads nodes (deep: with their subtrees) in one round trip; cached ones are kept. */
  async load(keys: Key[], deep = false): Promise<void> {
    const wanted = keys.filter((k) => !this.known(k, deep));
    if (wanted.length === 0) return;
    const ids = wanted.map((k) => ('uid' in k ? k.uid : k.title));
    const rows = readRows(await this.callRoam('data.q', [pullQuery(deep ? DEEP : SHALLOW), ids]), deep);
    for (const row of rows) this.remember(row, deep);
    for (const key of wanted) {
      if ('uid' in key && !this.nodes.has(key.uid)) this.nodes.set(key.uid, null);
      if ('title' in key && !this.titles.has(key.title)) this.titles.set(key.title, null);
    }
  }

  private known(key: Key, deep: boolean): boolean {
    if ('title' in key) return this.titles.has(key.title);
    const node = this.nodes.get(key.uid);
    return node === null || (node !== undefined && (!deep || node.nodes !== undefined));
  }

  /** Applying, Roam's answer replaces what was cached; in a dry run the model of earlier steps wins. */
  private remember(node: PulledNode, deep: boolean): void {
    const existing = this.nodes.get(node.uid);
    if (existing === null && this.dry) return;
    if (existing === undefined || existing === null || !this.dry) {
      this.nodes.set(node.uid, node);
      if (node.title !== undefined) this.titles.set(node.title, node.uid);
    }
    if (!deep) return;
    for (const child of node.nodes ?? []) this.remember(child, true);
    const kept = this.nodes.get(node.uid) as PulledNode;
    kept.nodes = kept.children.map((c) => this.nodes.get(c)).filter((c): c is PulledNode => !!c);
  }

  async node(uid: string, deep = false): Promise<PulledNode | null> {
    await this.load([{ uid }], deep);
    return this.nodes.get(uid) ?? null;
  }

  async page(title: string, deep = false): Promise<PulledNode | null> {
    await this.load([{ title }], deep);
    const uid = this.titles.get(title);
    return uid ? this.node(uid, deep) : null;
  }

  /** A cached node (undefined: never loaded; null: known gone). */
  peek(uid: string): PulledNode | null | undefined {
    return this.nodes.get(uid);
  }

  /** A deep-loaded node's subtree, as the view sees it now (pre-order). */
  subtree(node: PulledNode): PulledNode[] {
    const children = node.children.map((c) => this.nodes.get(c)).filter((c): c is PulledNode => !!c);
    return [node, ...children.flatMap((c) => this.subtree(c))];
  }

  /** Blocks and pages referring to `node`, as the view sees them now (its text still refers). */
  referrers(node: PulledNode): Referrer[] {
    const target = { uid: node.uid, ...(node.title !== undefined ? { title: node.title } : {}) };
    const found = node.referrers.filter((r) => {
      const now = this.nodes.get(r.uid);
      if (now === null) return false;
      // A referrer the dry run rewrote counts only while its text still refers.
      if (this.dry && now && this.made.has(r.uid)) return refersTo(now.string ?? now.title, target);
      return true;
    });
    for (const uid of this.made) {
      const made = this.nodes.get(uid);
      if (made && !found.some((r) => r.uid === uid) && refersTo(made.string, target))
        found.push({ uid, string: made.string });
    }
    return found;
  }

  /** After real writes: nothing cached is trusted any more. */
  forget(): void {
    if (this.dry) return;
    this.nodes.clear();
    this.titles.clear();
  }

  // The dry run's model of each write (applying, `forget` follows instead).

  removed(node: PulledNode): void {
    for (const n of this.subtree(node)) {
      this.nodes.set(n.uid, null);
      if (n.title !== undefined) this.titles.set(n.title, null);
    }
    const parent = node.parent ? this.nodes.get(node.parent) : undefined;
    if (parent) parent.children = parent.children.filter((c) => c !== node.uid);
  }

  added(parentUid: string | undefined, tree: TreeNode, order: number | 'last', title?: string): void {
    const uid = tree.uid as string;
    const node: PulledNode = {
      uid,
      string: title === undefined ? tree.string : undefined,
      ...(title !== undefined ? { title } : {}),
      ...(parentUid ? { parent: parentUid } : {}),
      children: [],
      nodes: [],
      referrers: [],
    };
    this.nodes.set(uid, node);
    this.made.add(uid);
    if (title !== undefined) this.titles.set(title, uid);
    const parent = parentUid ? this.nodes.get(parentUid) : undefined;
    if (parent) {
      const at = order === 'last' ? parent.children.length : Math.min(order, parent.children.length);
      parent.children.splice(at, 0, uid);
    }
    tree.children.forEach((child, i) => this.added(uid, child, i));
    node.nodes = node.children.map((c) => this.nodes.get(c) as PulledNode);
  }

  changed(uid: string, fields: Partial<PulledNode>): void {
    const node = this.nodes.get(uid);
    if (!node) return;
    if (fields.title !== undefined && node.title !== undefined) this.titles.set(node.title, null);
    Object.assign(node, fields);
    if (fields.title !== undefined) this.titles.set(fields.title, uid);
    this.made.add(uid);
  }

  moved(uid: string, parentUid: string, order: number | 'last'): void {
    const node = this.nodes.get(uid);
    if (!node) return;
    const old = node.parent ? this.nodes.get(node.parent) : undefined;
    if (old) old.children = old.children.filter((c) => c !== uid);
    node.parent = parentUid;
    const parent = this.nodes.get(parentUid);
    if (parent) {
      const at = order === 'last' ? parent.children.length : Math.min(order, parent.children.length);
      parent.children.splice(at, 0, uid);
    }
  }
}
