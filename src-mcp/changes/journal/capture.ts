/**
 * What the journal records for each Local API write, before it is sent (docs/undo.md, "What is
 * recorded"): at most one read of the state to restore (one `data.q` pull of every target, or
 * the file's bytes, or the shortcut list), none for creates. The reversal of each op kind is in
 * ./reverse.ts; this is the one table of which write becomes which op.
 */
import {
  DEEP,
  findNode,
  flatten,
  outsideReferrers,
  pullQuery,
  readRows,
  SHALLOW,
  toTree,
  WITH_SIBLINGS,
  neighbours,
  type PulledNode,
  fieldsOf,
} from './roam-pull.ts';
import { linkedTitles, markdownTree } from './roam-text.ts';
import type { BlockFields, Op, TreeNode } from './types.ts';

/** What the tool call tells the journal beyond the action (where, in a person's words). */
export interface Hints {
  where?: string;
}

export interface Read {
  action: string;
  args: unknown[];
}

export interface Capture {
  /** The one read before the write, when the write needs one. */
  read?: Read;
  /** The ops, from what the read answered. */
  plan(before: unknown): Op[] | Promise<Op[]>;
  /** The read after an applied write that says what it made (the uids of nested blocks). */
  confirm?(result: unknown, ops: Op[]): Read | undefined;
  /** Each op's outcome from Roam's answer and the read after it (default: all applied). */
  settle?(result: unknown, ops: Op[], made?: unknown): Settled[];
}

export interface Settled {
  ok: boolean;
  error?: string;
  patch?: Partial<Op>;
}

type Obj = Record<string, unknown>;

const obj = (v: unknown): Obj => (v && typeof v === 'object' ? (v as Obj) : {});
const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

const pull = (pattern: string, ids: string[]): Read => ({
  action: 'data.q',
  args: [pullQuery(pattern), ids],
});

/** Roam's kebab-case block fields → the journal's. */
function wireFields(block: Obj): BlockFields {
  const fields: BlockFields = {};
  if (typeof block.string === 'string') fields.string = block.string;
  if (typeof block.open === 'boolean') fields.open = block.open;
  if (typeof block.heading === 'number') fields.heading = block.heading;
  if (typeof block['text-align'] === 'string') fields.textAlign = block['text-align'];
  if (typeof block['children-view-type'] === 'string') fields.viewType = block['children-view-type'];
  return fields;
}

const unknownTarget = (action: string, uid: string): Op => ({
  kind: 'opaque',
  action,
  reason: `${uid} was not found before the write`,
});

/** A batch may name a block twice: one op per block, with what the last write leaves. */
function mergedByUid(listed: Obj[]): Obj[] {
  const byUid = new Map<string, Obj>();
  for (const item of listed) {
    const uid = String(item.uid ?? '');
    byUid.set(uid, { ...byUid.get(uid), ...item });
  }
  return [...byUid.values()];
}

function updates(action: string, listed: Obj[]): Capture {
  const items = mergedByUid(listed);
  const uids = items.map((b) => String(b.uid ?? ''));
  const titles = items.flatMap((b) => (typeof b.string === 'string' ? linkedTitles(b.string) : []));
  return {
    read: pull(SHALLOW, [...new Set([...uids, ...titles])]),
    plan(before) {
      const nodes = readRows(before, false);
      return items.map((block, i) => {
        const uid = uids[i] as string;
        const node = findNode(nodes, { uid });
        if (!node) return unknownTarget(action, uid);
        const after = wireFields(block);
        const linked = after.string === undefined ? [] : linkedTitles(after.string);
        const newPages = linked.filter((title) => !findNode(nodes, { title }));
        return {
          kind: 'update-block',
          uid,
          before: fieldsOf(node, Object.keys(after) as Array<keyof BlockFields>),
          after,
          ...(node.page ? { page: node.page } : {}),
          ...(newPages.length ? { newPages } : {}),
          ...(node.underHidden ? { hidden: true as const } : {}),
        };
      });
    },
  };
}

function deletes(action: string, listed: string[]): Capture {
  // A batch may name a block twice: Roam deletes it once, and it is restored once.
  const uids = [...new Set(listed)];
  return {
    read: pull(DEEP, uids),
    plan(before) {
      const nodes = readRows(before, true);
      // Listed under another listed block: restoring that one brings it back.
      const below = new Set(
        nodes.flatMap((n) =>
          flatten(n)
            .slice(1)
            .map((d) => d.uid),
        ),
      );
      const missing = uids.filter((uid) => !findNode(nodes, { uid }));
      const roots = uids.flatMap((uid) => {
        const node = findNode(nodes, { uid });
        return node && !below.has(uid) ? [node] : [];
      });
      const inside = new Set(roots.flatMap((n) => flatten(n).map((d) => d.uid)));
      const outside = roots.flatMap((n) => outsideReferrers(n)).filter((r) => !inside.has(r.uid));
      const referrers = [...new Map(outside.map((r) => [r.uid, r])).values()];
      const ops: Op[] = missing.map((uid) => unknownTarget(action, uid));
      if (roots.length === 0) return ops;
      const items = roots.map((node) => ({
        block: toTree(node),
        parent: node.parent ?? '',
        ...(node.page ? { page: node.page } : {}),
      }));
      const hidden = roots.some((n) => n.underHidden) ? { hidden: true as const } : {};
      return [...ops, { kind: 'delete-blocks', items, referrers, ...hidden }];
    },
  };
}

/** Per-item outcome of a batch (`{results: [{uid, ok}]}`, in input order): a delete keeps what went. */
function batchSettle(result: unknown, ops: Op[], uids: string[]): Settled[] {
  const results = Array.isArray(obj(result).results) ? (obj(result).results as Obj[]) : [];
  const failed = (uid: string) => results[uids.indexOf(uid)]?.ok === false;
  const why = (uid: string) => {
    const item = results[uids.indexOf(uid)] ?? {};
    return str(item.message) ?? str(item.code) ?? 'not applied';
  };
  return ops.map((op): Settled => {
    if (op.kind === 'update-block') return failed(op.uid) ? { ok: false, error: why(op.uid) } : { ok: true };
    if (op.kind !== 'delete-blocks') return { ok: true };
    const items = op.items.filter((item) => !failed(item.block.uid));
    if (items.length === 0) return { ok: false, error: why(op.items[0]?.block.uid ?? '') };
    return items.length === op.items.length ? { ok: true } : { ok: true, patch: { items } };
  });
}

/** `{deleted: false}` means nothing was deleted. */
function deletionSettle(result: unknown, ops: Op[]): Settled[] {
  const failed = obj(result).deleted === false;
  return ops.map(() => (failed ? { ok: false, error: 'nothing was deleted' } : { ok: true }));
}

function fromMarkdown(input: Obj, hints: Hints): Capture {
  const location = obj(input.location);
  const parent = str(location['parent-uid']);
  const pageTitle = location['page-title'];
  const daily = str(obj(pageTitle)['daily-note-page']);
  const section = str(location['nest-under-str']);
  const tree = markdownTree(String(input['markdown-string'] ?? ''));
  if (input.open === false) for (const node of tree) node.open = false;
  const target = parent ?? daily ?? str(pageTitle);
  const plan = (before: unknown): Op[] => {
    const [node] = readRows(before, false);
    const container: Extract<Op, { kind: 'create-blocks' }>['container'] = {};
    if (daily || typeof pageTitle === 'string')
      container.page = {
        uid: node?.uid ?? daily ?? '',
        existed: !!node,
        ...(typeof pageTitle === 'string' ? { title: pageTitle } : {}),
      };
    if (section !== undefined)
      container.section = { string: section, existed: !!node && sectionExists(before, section) };
    return [
      {
        kind: 'create-blocks',
        ...((parent ?? daily) ? { parent: parent ?? daily } : {}),
        tree,
        ...(container.page || container.section ? { container } : {}),
        ...(hints.where ? { where: hints.where } : {}),
      },
    ];
  };
  const needsRead = target !== undefined && (parent === undefined || section !== undefined);
  return {
    ...(needsRead
      ? { read: pull('[:block/uid :node/title {[:block/children :limit nil] [:block/string]}]', [target]) }
      : {}),
    plan,
    confirm: (result) => (nested(tree) ? pull(MADE, uidsOf(result)) : undefined),
    settle: (result, _ops, made) => {
      const uids = uidsOf(result);
      return [{ ok: true, patch: { uids, ...readBackTree(made, uids, tree) } }];
    },
  };
}

/** What a read back of created blocks pulls: uids and text, all the way down. */
const MADE = '[:block/uid :block/string :node/title :block/order {[:block/children :limit nil] ...}]';

const nested = (tree: readonly TreeNode[]) => tree.some((node) => node.children.length > 0);

/**
 * The outline as Roam made it, every uid known, when the read back matches what was written
 * block for block; otherwise nothing (the undo then knows nested blocks by position only).
 */
/** The tree as written under the created blocks `uids`, from the read-back (`made`) when there is one. */
function readBackTree(
  made: unknown,
  uids: readonly string[],
  written: readonly TreeNode[],
): { tree?: TreeNode[]; exact?: true } {
  if (made === undefined) return {};
  const nodes = readRows(made, true);
  return exactTree(
    uids.map((uid) => findNode(nodes, { uid })),
    written,
  );
}

function exactTree(
  tops: ReadonlyArray<PulledNode | undefined>,
  written: readonly TreeNode[],
): { tree?: TreeNode[]; exact?: true } {
  const shape = (node: PulledNode | undefined, w: TreeNode): TreeNode | undefined => {
    const kids = node?.nodes ?? [];
    if (!node || kids.length !== w.children.length) return undefined;
    const children = kids.map((k, i) => shape(k, w.children[i] as TreeNode));
    if (children.some((c) => !c)) return undefined;
    return { ...w, uid: node.uid, string: node.string ?? w.string, children: children as TreeNode[] };
  };
  if (tops.length !== written.length) return {};
  const tree = written.map((w, i) => shape(tops[i], w));
  return tree.every((t) => t) ? { tree: tree as TreeNode[], exact: true } : {};
}

function sectionExists(before: unknown, section: string): boolean {
  const raw = obj((before as unknown[][])[0]?.[0]);
  const children = Array.isArray(raw[':block/children']) ? (raw[':block/children'] as Obj[]) : [];
  return children.some((c) => c[':block/string'] === section);
}

const uidsOf = (result: unknown) =>
  Array.isArray(obj(result).uids) ? (obj(result).uids as unknown[]).map(String) : [];

/** Roam's answer to an upload: the URL, wrapped as `![](url)`. */
function uploadUrl(answer: unknown): string | undefined {
  if (typeof answer !== 'string' || !answer.trim()) return undefined;
  const wrapped = /^!?\[[^\]]*\]\((.+)\)$/.exec(answer.trim());
  return wrapped ? wrapped[1] : answer.trim();
}

function pageCreate(input: Obj, markdown: boolean): Capture {
  const page = obj(input.page);
  const tree = markdown ? markdownTree(String(input['markdown-string'] ?? '')) : [];
  const uid = str(page.uid);
  const pageUid = (result: unknown) => uid ?? str(obj(result).uid);
  return {
    plan: () => [{ kind: 'create-page', ...(uid ? { uid } : {}), title: String(page.title ?? ''), tree }],
    confirm: (result) => {
      const made = pageUid(result);
      // A page's blocks are all known by position only: read them back.
      return tree.length > 0 && made ? pull(MADE, [made]) : undefined;
    },
    settle: (result, _ops, made) => {
      const answered = pageUid(result);
      const pageNode = made && answered ? findNode(readRows(made, true), { uid: answered }) : undefined;
      const exact = pageNode ? exactTree(pageNode.nodes ?? [], tree) : {};
      return [{ ok: true, patch: { ...(answered && !uid ? { uid: answered } : {}), ...exact } }];
    },
  };
}

function pageUpdate(input: Obj): Capture {
  const page = obj(input.page);
  const uid = String(page.uid ?? '');
  const title = str(page.title);
  return {
    read: pull(SHALLOW, [uid]),
    plan(before) {
      const node = findNode(readRows(before, false), { uid });
      if (!node?.title) return [unknownTarget('data.page.update', uid)];
      if (title === undefined)
        return [
          { kind: 'opaque', action: 'data.page.update', reason: "a page's display type is not recorded" },
        ];
      const referrers = node.referrers.filter((r) => r.string !== undefined);
      return [
        {
          kind: 'rename-page',
          uid,
          before: node.title,
          after: title,
          ...(referrers.length ? { referrers } : {}),
        },
      ];
    },
  };
}

function pageDelete(input: Obj): Capture {
  const uid = String(obj(input.page).uid ?? '');
  return {
    read: pull(DEEP, [uid]),
    plan(before) {
      const node = findNode(readRows(before, true), { uid });
      if (!node?.title) return [unknownTarget('data.page.delete', uid)];
      return [
        {
          kind: 'delete-page',
          uid,
          title: node.title,
          ...(node.eid !== undefined ? { eid: node.eid } : {}),
          ...(node.viewType ? { viewType: node.viewType } : {}),
          children: (node.nodes ?? []).map(toTree),
          referrers: outsideReferrers(node),
        },
      ];
    },
    settle: deletionSettle,
  };
}

function move(input: Obj): Capture {
  const uid = String(obj(input.block).uid ?? '');
  const location = obj(input.location);
  return {
    read: pull(WITH_SIBLINGS, [uid]),
    plan(before) {
      const node = findNode(readRows(before, false), { uid });
      if (!node?.parent) return [unknownTarget('data.block.move', uid)];
      const order = location.order;
      return [
        {
          kind: 'move-block',
          uid,
          ...(node.string !== undefined ? { string: node.string } : {}),
          before: {
            parent: node.parent,
            order: node.order ?? 0,
            ...neighbours(node.siblings ?? [], uid),
            ...(node.page ? { page: node.page } : {}),
          },
          after: {
            parent: String(location['parent-uid'] ?? ''),
            order: typeof order === 'number' ? order : 'last',
          },
          ...(node.underHidden ? { hidden: true as const } : {}),
        },
      ];
    },
  };
}

function comment(input: Obj): Capture {
  const markdown = typeof input['reply-markdown'] === 'string';
  const text = String(input['reply-markdown'] ?? input['reply-string'] ?? '');
  const tree = markdown ? markdownTree(text) : [];
  return {
    plan: () => [
      { kind: 'comment', block: String(input['block-uid'] ?? ''), text, ...(markdown ? { markdown } : {}) },
    ],
    confirm: (result) => (nested(tree) ? pull(MADE, uidsOf(result)) : undefined),
    settle: (result, _ops, made) => {
      const container = str(obj(result).parentUid);
      const uids = uidsOf(result);
      return [
        { ok: true, patch: { uids, ...(container ? { container } : {}), ...readBackTree(made, uids, tree) } },
      ];
    },
  };
}

function shortcut(args: unknown[], add: boolean): Capture {
  const page = String(args[0] ?? '');
  const index = typeof args[1] === 'number' ? args[1] : undefined;
  return {
    read: { action: 'data.ai.getGraphGuidelines', args: [] },
    plan(before) {
      const list = obj(before).starredPages;
      const titles = Array.isArray(list) ? list.map(String) : [];
      return [{ kind: 'shortcut', page, add, ...(index !== undefined ? { index } : {}), before: titles }];
    },
  };
}

function upload(input: Obj): Capture {
  const base64 = String(input.base64 ?? '');
  const filename = str(input.filename);
  const mimetype = str(input.mimetype);
  const op: Op = {
    kind: 'upload',
    bytes: Buffer.byteLength(base64, 'base64'),
    ...(filename ? { filename } : {}),
    ...(mimetype ? { mimetype } : {}),
  };
  return {
    plan: () => [op],
    settle: (result) => {
      const url = uploadUrl(result);
      return [{ ok: true, ...(url ? { patch: { url } } : {}) }];
    },
  };
}

function blockCreate(input: Obj): Capture {
  const block = obj(input.block);
  const parent = str(obj(input.location)['parent-uid']);
  const uid = str(block.uid);
  const node = { ...(uid ? { uid } : {}), string: String(block.string ?? ''), children: [] };
  return {
    plan: () => [
      {
        kind: 'create-blocks',
        ...(parent ? { parent } : {}),
        ...(uid ? { uids: [uid] } : {}),
        tree: [node],
        ...(uid ? { exact: true } : {}),
      },
    ],
  };
}

const opaque = (action: string, reason: string, detail?: string): Capture => ({
  plan: () => [{ kind: 'opaque', action, reason, ...(detail ? { detail } : {}) }],
});

/** The capture for one Local API write (`keep` stores a deleted file's bytes). */
export function captureFor(
  action: string,
  args: unknown[],
  hints: Hints,
  keep: (base64: string) => Promise<string>,
): Capture {
  const input = obj(args[0]);
  switch (action) {
    case 'data.block.fromMarkdown':
      return fromMarkdown(input, hints);
    case 'data.block.create':
      return blockCreate(input);
    case 'data.page.create':
      return pageCreate(input, false);
    case 'data.page.fromMarkdown':
      return pageCreate(input, true);
    case 'data.block.update':
      return updates(action, [obj(input.block)]);
    case 'data.block.updateBlocks':
    case 'data.block.updateMany': {
      const items = (Array.isArray(input.updates) ? input.updates : []).map(obj);
      const uids = items.map((b) => String(b.uid ?? ''));
      return { ...updates(action, items), settle: (result, ops) => batchSettle(result, ops, uids) };
    }
    case 'data.block.move':
      return move(input);
    case 'data.block.delete':
      return { ...deletes(action, [String(obj(input.block).uid ?? '')]), settle: deletionSettle };
    case 'data.block.deleteBlocks':
    case 'data.block.deleteMany': {
      const uids = (Array.isArray(input.uids) ? input.uids : []).map(String);
      return { ...deletes(action, uids), settle: (result, ops) => batchSettle(result, ops, uids) };
    }
    case 'data.page.update':
      return pageUpdate(input);
    case 'data.page.delete':
      return pageDelete(input);
    case 'data.block.addComment':
      return comment(input);
    case 'data.page.addShortcut':
      return shortcut(args, true);
    case 'data.page.removeShortcut':
      return shortcut(args, false);
    case 'file.upload':
      return upload(input);
    case 'file.delete':
      return fileDelete(String(input.url ?? ''), keep);
    case 'data.ai.callExtensionTool':
      return opaque(
        action,
        "an extension tool's effects are unknown",
        `Called extension tool ${String(input.tool ?? '')}`,
      );
    default:
      return opaque(action, `${action} is not something the journal knows how to take back`);
  }
}

function fileDelete(url: string, keep: (base64: string) => Promise<string>): Capture {
  return {
    read: { action: 'file.get', args: [{ url, format: 'base64' }] },
    async plan(before) {
      const file = obj(before);
      const base64 = str(file.base64);
      if (!base64) return [{ kind: 'delete-file', url, notKept: 'Roam sent no bytes for it' }];
      const bytes = Buffer.byteLength(base64, 'base64');
      if (bytes > MAX_KEPT_BYTES)
        return [{ kind: 'delete-file', url, notKept: `it is over ${MAX_KEPT_BYTES / 1048576} MB` }];
      const mimetype = str(file.mimetype) ?? 'application/octet-stream';
      const filename = str(file.filename);
      return [
        {
          kind: 'delete-file',
          url,
          kept: { file: await keep(base64), mimetype, bytes, ...(filename ? { filename } : {}) },
        },
      ];
    },
  };
}

const MAX_KEPT_BYTES = 10 * 1024 * 1024;
