/**
 * What a write would take away, read from Roam before it runs (the `takes` of a write tool's
 * declaration): one or two `data.q` round trips per call, unless the policy is `never`
 * (src-mcp/gate/consent.ts). Hidden blocks (src-mcp/roam/hidden-blocks.ts) are counted by uid,
 * never quoted.
 */
import { carriesHidingTag, HIDING_TAGS } from '../roam/hidden-blocks.ts';
import type { ToolContext } from '../contract/tool-definition.ts';
import { NOTHING_TAKEN, type HiddenBlock, type PlacedBlock, type TakenAway } from '../contract/taken-away.ts';

type Row = unknown[];
const rowsOf = (value: unknown): Row[] => (Array.isArray(value) ? (value as Row[]) : []);
const HIDING =
  '[?t :node/title ?tag] (or-join [?b ?t] [?b :block/refs ?t] (and [?b :block/parents ?h] [?h :block/refs ?t]))';
const SELF_OR_UNDER = '[?rb :block/uid ?r] (or-join [?rb ?b] [(identity ?rb) ?b] [?b :block/parents ?rb])';
const TEXT_AND_PAGE =
  '[?b :block/uid ?u] [(get-else $ ?b :block/string "") ?s] [?b :block/page ?p] [?p :node/title ?pt]';

const SUBTREES = `[:find ?u ?s ?pt :in $ [?r ...] :where ${SELF_OR_UNDER} ${TEXT_AND_PAGE}]`;
const HIDDEN_IN_SUBTREES = `[:find ?u :in $ [?r ...] [?tag ...] :where ${SELF_OR_UNDER} [?b :block/uid ?u] ${HIDING}]`;
const BLOCKS = `[:find ?u ?s ?pt :in $ [?u ...] :where ${TEXT_AND_PAGE}]`;
const HIDDEN_BLOCKS = `[:find ?u :in $ [?u ...] [?tag ...] :where [?b :block/uid ?u] ${HIDING}]`;
const PAGE_BLOCKS = `[:find ?u ?s ?o ?top :in $ ?pu :where [?p :block/uid ?pu] [?b :block/page ?p] [?b :block/uid ?u] [(get-else $ ?b :block/string "") ?s] [(get-else $ ?b :block/order 0) ?o] [?par :block/children ?b] [(= ?par ?p) ?top]]`;
const HIDDEN_ON_PAGE = `[:find ?u :in $ ?pu [?tag ...] :where [?p :block/uid ?pu] [?b :block/page ?p] [?b :block/uid ?u] ${HIDING}]`;
const TITLE_BY_UID = '[:find ?t . :in $ ?u :where [?p :block/uid ?u] [?p :node/title ?t]]';
const LINKS_TO =
  '[:find ?bu ?t :in $ ?u :where [?p :block/uid ?u] [?b :block/refs ?p] [?b :block/uid ?bu] [?b :block/page ?lp] [?lp :node/title ?t]]';
const PAGE_OF =
  '[:find ?t . :in $ ?u :where [?b :block/uid ?u] (or-join [?b ?p] [?b :block/page ?p] (and [?b :node/title] [(identity ?b) ?p])) [?p :node/title ?t]]';

/** Visible blocks first in the order given (the roots), then the rest; hidden ones by uid and page only. */
function split(rows: Row[], hiddenRows: Row[], first: readonly string[]) {
  const hidden = new Set(hiddenRows.map(([u]) => String(u)));
  const rank = new Map(first.map((uid, i) => [uid, i]));
  const blocks: PlacedBlock[] = [];
  const hiddenBlocks: HiddenBlock[] = [];
  for (const [uid, text, page] of rows) {
    const u = String(uid);
    const t = typeof text === 'string' ? text : '';
    const on = typeof page === 'string' ? { page } : {};
    // A tag typed in the text hides a block even before Roam has indexed its refs.
    if (hidden.has(u) || carriesHidingTag(t)) hiddenBlocks.push({ uid: u, ...on });
    else blocks.push({ uid: u, text: t, ...on });
  }
  blocks.sort((a, b) => (rank.get(a.uid) ?? Infinity) - (rank.get(b.uid) ?? Infinity));
  return { blocks, hidden: hiddenBlocks };
}

async function subtrees(ctx: ToolContext, uids: readonly string[]) {
  const [rows, hidden] = await Promise.all([
    ctx.call('data.q', [SUBTREES, uids]),
    ctx.call('data.q', [HIDDEN_IN_SUBTREES, uids, [...HIDING_TAGS]]),
  ]);
  return split(rowsOf(rows), rowsOf(hidden), uids);
}

/** delete_block(s): each block with everything under it. */
export async function removesBlocks(ctx: ToolContext, uids: readonly string[]): Promise<TakenAway> {
  return { ...NOTHING_TAKEN, ...(await subtrees(ctx, [...new Set(uids)])) };
}

/** delete_page: the page, its blocks, and the blocks elsewhere whose links to it would lead nowhere. */
export async function removesPage(ctx: ToolContext, uid: string): Promise<TakenAway> {
  const title = await ctx.call('data.q', [TITLE_BY_UID, uid]);
  if (typeof title !== 'string') return NOTHING_TAKEN; // the delete answers NOT_FOUND
  const [rows, hiddenRows, links] = await Promise.all([
    ctx.call('data.q', [PAGE_BLOCKS, uid]),
    ctx.call('data.q', [HIDDEN_ON_PAGE, uid, [...HIDING_TAGS]]),
    linksTo(ctx, uid, title),
  ]);
  // First lines: the page's top blocks in their order, then the rest.
  const ordered = rowsOf(rows).sort(([, , oa, ta], [, , ob, tb]) =>
    ta === tb ? Number(oa) - Number(ob) : ta ? -1 : 1,
  );
  const { blocks, hidden } = split(
    ordered.map(([u, s]) => [u, s, title]),
    rowsOf(hiddenRows),
    [],
  );
  const count = blocks.length + hidden.length;
  return {
    ...NOTHING_TAKEN,
    blocks,
    hidden,
    pages: [
      {
        uid,
        title,
        blocks: count,
        hidden: hidden.length,
        linkedFrom: links,
      },
    ],
  };
}

async function linksTo(ctx: ToolContext, uid: string, title: string) {
  const rows = rowsOf(await ctx.call('data.q', [LINKS_TO, uid]));
  const pages = [...new Set(rows.map(([, t]) => String(t)).filter((t) => t !== title))].sort();
  return { blocks: rows.length, pages, uids: rows.map(([u]) => String(u)) };
}

/** update_page: a rename rewrites the links of every block that links to the page. */
export async function renamesPage(ctx: ToolContext, uid: string, to: string): Promise<TakenAway> {
  const title = await ctx.call('data.q', [TITLE_BY_UID, uid]);
  if (typeof title !== 'string' || title === to) return NOTHING_TAKEN;
  const links = await linksTo(ctx, uid, title);
  return {
    ...NOTHING_TAKEN,
    renames: [{ uid, from: title, to, links: links.blocks, linkPages: links.pages }],
  };
}

/** update_block(s): the blocks whose text would be replaced by a different one. */
export async function replacesTexts(
  ctx: ToolContext,
  updates: ReadonlyArray<{ uid: string; string?: string | undefined }>,
): Promise<TakenAway> {
  const changing = updates.filter((u) => u.string !== undefined);
  if (!changing.length) return NOTHING_TAKEN;
  const uids = [...new Set(changing.map((u) => u.uid))];
  const [rows, hiddenRows] = await Promise.all([
    ctx.call('data.q', [BLOCKS, uids]),
    ctx.call('data.q', [HIDDEN_BLOCKS, uids, [...HIDING_TAGS]]),
  ]);
  const next = new Map(changing.map((u) => [u.uid, u.string]));
  const differs = rowsOf(rows).filter(([u, s]) => next.get(String(u)) !== s);
  const { blocks, hidden } = split(differs, rowsOf(hiddenRows), uids);
  for (const block of blocks) block.newText = next.get(block.uid) ?? '';
  const stays = new Set(
    rowsOf(rows)
      .filter(([u, s]) => next.get(String(u)) === s)
      .map(([u]) => String(u)),
  );
  return { ...NOTHING_TAKEN, replaced: blocks, hidden: hidden.filter((h) => !stays.has(h.uid)) };
}

/** move_block: a subtree moved onto another page is taken from its page. */
export async function movesBlock(ctx: ToolContext, uid: string, parentUid: string): Promise<TakenAway> {
  const [from, to] = await Promise.all([
    ctx.call('data.q', [PAGE_OF, uid]),
    ctx.call('data.q', [PAGE_OF, parentUid]),
  ]);
  if (typeof from !== 'string' || from === to) return NOTHING_TAKEN;
  const { blocks, hidden } = await subtrees(ctx, [uid]);
  return { ...NOTHING_TAKEN, moved: blocks, hidden };
}

const SHOWN_IN =
  '[:find ?b ?t :in $ ?a :where [?b :block/string ?s] [(clojure.string/includes? ?s ?a)] [?b :block/page ?p] [?p :node/title ?t]]';

/** Where a file lives, without its query (which carries an access token): what blocks contain. */
const addressOf = (url: string) => url.split('?')[0] ?? url;

/** A file as a person knows it: the last part of its address ("report.pdf"), never its token. */
export function fileName(url: string): string {
  const last = addressOf(url).split('/').pop() ?? '';
  let name = last;
  try {
    name = decodeURIComponent(last);
  } catch {
    // Not percent-encoded: the last part as it is.
  }
  return name.split('/').pop() || 'a file';
}

/** file_delete: the file, and the blocks that show it (they would show a broken link). */
export async function removesFile(ctx: ToolContext, url: string): Promise<TakenAway> {
  const rows = rowsOf(await ctx.call('data.q', [SHOWN_IN, addressOf(url)]));
  const pages = [...new Set(rows.map(([, t]) => String(t)))].sort();
  return { ...NOTHING_TAKEN, files: [{ url, name: fileName(url), shownIn: { blocks: rows.length, pages } }] };
}

/**
 * The plan reader of a write that takes nothing away, with why (it only adds, or only changes
 * what the undo puts back exactly): declared, so every write tool is seen to have been considered
 * (test/mcp/gate/every-write-considered.test.ts).
 */
export function takesNothing(why: string): { read: () => Promise<TakenAway>; nothing: string } {
  return { read: () => Promise.resolve(NOTHING_TAKEN), nothing: why };
}

/** call_extension_tool: a tool that may write (declared edit scope, or unlisted) changes what it likes. */
export async function runsExtension(ctx: ToolContext, tool: string): Promise<TakenAway> {
  const guidelines = await ctx.call<{ extensionTools?: unknown } | null>('data.ai.getGraphGuidelines', []);
  const listed = Array.isArray(guidelines?.extensionTools) ? guidelines.extensionTools : [];
  const entry = listed.find((t: { tool?: unknown }) => t?.tool === tool) as { scope?: unknown } | undefined;
  if (entry?.scope === 'read' || entry?.scope === 'append') return NOTHING_TAKEN;
  return { ...NOTHING_TAKEN, unknown: `the extension tool '${tool}'` };
}

/**
 * update_page_markdown's plan, already read: the blocks it deletes (every one of each subtree),
 * the ones whose text it replaces, and the ones it writes new. Hidden blocks are never in its
 * plan (it refuses instead).
 */
export function rewritesPage(
  title: string,
  deleted: ReadonlyArray<{ uid: string; string: string }>,
  updated: ReadonlyArray<{ uid: string; before: string; after: string }>,
  created: ReadonlyArray<{ string: string }> = [],
): TakenAway {
  return {
    ...NOTHING_TAKEN,
    ...(created.length ? { added: created.map((c) => ({ text: c.string, page: title })) } : {}),
    blocks: deleted.map((d) => ({ uid: d.uid, text: d.string, page: title })),
    replaced: updated.map((u) => ({ uid: u.uid, text: u.before, page: title, newText: u.after })),
  };
}
