/**
 * Reading blocks and pages as the journal needs them, in ONE Local API round trip: a `data.q`
 * pulling every target (by uid or title) with a recursive pattern.
 * `:block/children` comes back unordered: sorted here by `:block/order`. Every to-many attribute
 * is pulled with `:limit nil`: Roam's pull stops at 1,000 values otherwise, and an undo would
 * restore only the first 1,000 children of a deleted page.
 */
import { ANCESTOR_TAGS_PULL, hiddenByAncestor } from '../../roam/hidden-blocks.ts';
import type { BlockFields, BlockLayout, Referrer, TreeNode } from './types.ts';

const FIELDS =
  ':db/id :block/uid :block/string :node/title :block/order :block/open :block/heading :block/text-align :children/view-type :block/view-type :create/time :edit/time {:create/user [:user/display-name]}';
const AROUND =
  '{:block/_children [:block/uid]} {[:block/_refs :limit nil] [:block/uid :block/string :node/title]} {:block/page [:node/title]}';

/** The entity with its direct children (uids), referrers, and whether a block above hides it. */
export const SHALLOW = `[${FIELDS} ${ANCESTOR_TAGS_PULL} {[:block/children :limit nil] [:block/uid :block/order]} ${AROUND}]`;
/** Below the top of a deep pull: each level with its referrers. */
const SUBTREE = `[${FIELDS} {[:block/children :limit nil] ...} ${AROUND}]`;
/** The entity (with whether a block above hides it) and its whole subtree, each level with its referrers. */
export const DEEP = `[${FIELDS} ${ANCESTOR_TAGS_PULL} {[:block/children :limit nil] ${SUBTREE}} ${AROUND}]`;

/** The entity with its parent's children in order (a move's old neighbours). */
export const WITH_SIBLINGS = SHALLOW.replace(
  '{:block/_children [:block/uid]}',
  '{:block/_children [:block/uid {[:block/children :limit nil] [:block/uid :block/order]}]}',
);

/** One query for entities by uid or by page title. */
export function pullQuery(pattern: string): string {
  return `[:find (pull ?e ${pattern}) :in $ [?x ...] :where (or [?e :block/uid ?x] [?e :node/title ?x])]`;
}

/** A block or page as pulled. */
export interface PulledNode extends BlockLayout {
  eid?: number;
  uid: string;
  string?: string;
  title?: string;
  createTime?: number;
  editTime?: number;
  /** The display name of the user Roam says created it. */
  creator?: string;
  /** Nested under a block hidden from AI (src-mcp/roam/hidden-blocks.ts), when pulled so. */
  underHidden?: true;
  parent?: string;
  page?: string;
  /** The parent's children in order, when pulled WITH_SIBLINGS. */
  siblings?: string[];
  /** Children in order; `nodes` only when pulled deep. */
  children: string[];
  nodes?: PulledNode[];
  referrers: Referrer[];
}

type Raw = Record<string, unknown>;

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
const num = (v: unknown) => (typeof v === 'number' ? v : undefined);
/** Roam keywords may come back with or without their colon (`:numbered`). */
const keyword = (v: unknown) => (typeof v === 'string' ? v.replace(/^:/, '') : undefined);
const list = (v: unknown): Raw[] =>
  Array.isArray(v) ? (v as Raw[]) : v && typeof v === 'object' ? [v as Raw] : [];

function ordered(raw: Raw): Raw[] {
  return list(raw[':block/children']).sort(
    (a, b) => (num(a[':block/order']) ?? 0) - (num(b[':block/order']) ?? 0),
  );
}

/** A pulled map → PulledNode (`deep` when the children were pulled with the full pattern). */
export function readNode(raw: Raw, deep: boolean): PulledNode | undefined {
  const uid = str(raw[':block/uid']);
  if (!uid) return undefined;
  const children = ordered(raw);
  const node: PulledNode = {
    uid,
    children: children.map((c) => str(c[':block/uid'])).filter((u): u is string => !!u),
    referrers: list(raw[':block/_refs']).flatMap((r) => {
      const ref = str(r[':block/uid']);
      return ref ? [{ uid: ref, string: str(r[':block/string']), title: str(r[':node/title']) }] : [];
    }),
  };
  const set = <K extends keyof PulledNode>(key: K, value: PulledNode[K] | undefined) => {
    if (value !== undefined) node[key] = value;
  };
  set('eid', num(raw[':db/id']));
  set('string', str(raw[':block/string']));
  set('title', str(raw[':node/title']));
  set('order', num(raw[':block/order']));
  set('open', typeof raw[':block/open'] === 'boolean' ? (raw[':block/open'] as boolean) : undefined);
  set('heading', num(raw[':block/heading']));
  set('textAlign', keyword(raw[':block/text-align']));
  set('viewType', keyword(raw[':children/view-type']));
  set('blockViewType', keyword(raw[':block/view-type']));
  set('createTime', num(raw[':create/time']));
  set('editTime', num(raw[':edit/time']));
  set('creator', str(list(raw[':create/user'])[0]?.[':user/display-name']));
  if (hiddenByAncestor(raw)) node.underHidden = true;
  const parent = list(raw[':block/_children'])[0];
  set('parent', str(parent?.[':block/uid']));
  if (parent?.[':block/children'] !== undefined)
    node.siblings = ordered(parent)
      .map((c) => str(c[':block/uid']))
      .filter((u): u is string => !!u);
  set('page', str(list(raw[':block/page'])[0]?.[':node/title']));
  if (deep) node.nodes = children.map((c) => readNode(c, true)).filter((n): n is PulledNode => !!n);
  return node;
}

/** The rows of a pull query → nodes. */
export function readRows(result: unknown, deep: boolean): PulledNode[] {
  const rows = Array.isArray(result) ? result : [];
  return rows.flatMap((row) => {
    const raw = Array.isArray(row) ? row[0] : row;
    const node = raw && typeof raw === 'object' ? readNode(raw as Raw, deep) : undefined;
    return node ? [node] : [];
  });
}

/** Finds a node by uid, or a page by title, among pulled ones. */
export function findNode(nodes: readonly PulledNode[], key: { uid?: string; title?: string }) {
  return nodes.find((n) => (key.uid !== undefined ? n.uid === key.uid : n.title === key.title));
}

/** A pulled node with the given children → the tree the journal keeps (what data.block.create can recreate). */
export function treeOf(node: PulledNode, children: TreeNode[]): TreeNode & { uid: string } {
  const tree: TreeNode & { uid: string } = { uid: node.uid, string: node.string ?? '', children };
  if (node.eid !== undefined) tree.eid = node.eid;
  if (node.creator !== undefined) tree.by = node.creator;
  if (node.order !== undefined) tree.order = node.order;
  if (node.open !== undefined) tree.open = node.open;
  if (node.heading) tree.heading = node.heading;
  if (node.textAlign) tree.textAlign = node.textAlign;
  if (node.viewType) tree.viewType = node.viewType;
  if (node.blockViewType) tree.blockViewType = node.blockViewType;
  return tree;
}

/** A deep-pulled node → the tree the journal keeps. */
export function toTree(node: PulledNode): TreeNode & { uid: string } {
  return treeOf(node, (node.nodes ?? []).map(toTree));
}

/** Every node of a deep pull, pre-order. */
export function flatten(node: PulledNode): PulledNode[] {
  return [node, ...(node.nodes ?? []).flatMap(flatten)];
}

/**
 * Blocks and pages outside the subtree that refer to one inside it: Roam rewrites their text
 * when the subtree is deleted, so their text is kept to be put back.
 */
export function outsideReferrers(root: PulledNode): Referrer[] {
  const inside = new Set(flatten(root).map((n) => n.uid));
  const seen = new Map<string, Referrer>();
  for (const node of flatten(root))
    for (const r of node.referrers) if (!inside.has(r.uid) && !seen.has(r.uid)) seen.set(r.uid, r);
  return [...seen.values()];
}

/** The blocks just above and below `uid` among its siblings. */
export function neighbours(siblings: readonly string[], uid: string): { above?: string; below?: string } {
  const at = siblings.indexOf(uid);
  if (at < 0) return {};
  const above = siblings[at - 1];
  const below = siblings[at + 1];
  return { ...(above ? { above } : {}), ...(below ? { below } : {}) };
}

/** Roam's defaults for attributes a pull leaves out. */
export function fieldsOf(node: PulledNode, keys: ReadonlyArray<keyof BlockFields>): BlockFields {
  const all: Required<BlockFields> = {
    string: node.string ?? '',
    open: node.open ?? true,
    heading: node.heading ?? 0,
    textAlign: node.textAlign ?? 'left',
    viewType: node.viewType ?? 'bullet',
  };
  return Object.fromEntries(keys.map((k) => [k, all[k]])) as BlockFields;
}
