/**
 * What a destructive call would take away, read before it runs, as the question put to the person
 * (src-mcp/gate/confirm.ts). Each answers undefined when too little is at stake to interrupt:
 *
 * - delete_page of a page with content (its title, its blocks, the pages that link to it);
 * - delete_block / delete_blocks removing more than ASK_ABOVE blocks in all (children included);
 * - update_page renaming a page that more than ASK_ABOVE blocks link to;
 * - undo_changes of the whole chat with more than ASK_ABOVE changes to take back (its dry run).
 *
 * Only counts and page titles, never a block's text: a question must not show what the hidden-block
 * rule keeps from the agent (#.rm-hide, #.rm-private).
 */
import { currentChat } from '../contract/chat.ts';
import { defaultJournal } from '../changes/journal/journal.ts';
import { runUndo, type Caller } from '../changes/undo/undo-engine.ts';
import type { SessionContext, ToolContext } from '../contract/tool-definition.ts';

export const ASK_ABOVE = 10;

const TITLE_BY_UID = '[:find ?t . :in $ ?u :where [?p :block/uid ?u] [?p :node/title ?t]]';
const BLOCKS_ON_PAGE = '[:find (count ?b) . :in $ ?u :where [?p :block/uid ?u] [?b :block/page ?p]]';
const BLOCKS_UNDER =
  '[:find (count ?d) . :in $ [?u ...] :where [?b :block/uid ?u] (or-join [?b ?d] [(identity ?b) ?d] [?d :block/parents ?b])]';
const LINKS_TO =
  '[:find ?b ?t :in $ ?u :where [?p :block/uid ?u] [?b :block/refs ?p] [?b :block/page ?lp] [?lp :node/title ?t]]';

const count = (value: unknown) => (typeof value === 'number' ? value : 0);
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Blocks that link to the page, and the titles of the pages they are on (itself excluded). */
async function linksTo(ctx: ToolContext, uid: string, title: string) {
  const rows = (await ctx.call<Array<[number, string]>>('data.q', [LINKS_TO, uid])) ?? [];
  const pages = [...new Set(rows.map(([, t]) => t).filter((t) => t !== title))].sort();
  return { blocks: rows.length, pages };
}

function pageList(pages: string[]): string {
  const shown = pages.slice(0, 3).map((t) => `'${t}'`);
  return pages.length > 3 ? `${shown.join(', ')} and ${pages.length - 3} more` : shown.join(', ');
}

/** delete_page: a page with content, its blocks and the pages linking to it. */
export async function deletePageQuestion(ctx: ToolContext, uid: string): Promise<string | undefined> {
  const title = await ctx.call('data.q', [TITLE_BY_UID, uid]);
  if (typeof title !== 'string') return undefined; // the delete answers NOT_FOUND
  const blocks = count(await ctx.call('data.q', [BLOCKS_ON_PAGE, uid]));
  if (blocks === 0) return undefined;
  const links = await linksTo(ctx, uid, title);
  const linked =
    links.pages.length > 0
      ? ` It is linked from ${plural(links.blocks, 'block')} on ${plural(links.pages.length, 'other page')} (${pageList(links.pages)}); those links would lead nowhere.`
      : '';
  return `Delete the page '${title}' and its ${plural(blocks, 'block')} from graph '${ctx.graph.nickname}'?${linked} It can be undone from this chat.`;
}

/** delete_block(s): more than ASK_ABOVE blocks in all, children included. */
export async function deleteBlocksQuestion(ctx: ToolContext, uids: string[]): Promise<string | undefined> {
  const blocks = count(await ctx.call('data.q', [BLOCKS_UNDER, uids]));
  if (blocks <= ASK_ABOVE) return undefined;
  const what = uids.length === 1 ? 'a block and its children' : `${uids.length} blocks and their children`;
  return `Delete ${plural(blocks, 'block')} in all (${what}) from graph '${ctx.graph.nickname}'? It can be undone from this chat.`;
}

/** update_page renaming a page more than ASK_ABOVE blocks link to. */
export async function renameQuestion(ctx: ToolContext, uid: string, to: string): Promise<string | undefined> {
  const title = await ctx.call('data.q', [TITLE_BY_UID, uid]);
  if (typeof title !== 'string') return undefined;
  const links = await linksTo(ctx, uid, title);
  if (links.blocks <= ASK_ABOVE) return undefined;
  const on =
    links.pages.length > 0 ? ` on ${plural(links.pages.length, 'page')} (${pageList(links.pages)})` : '';
  return `Rename the page '${title}' to '${to}' in graph '${ctx.graph.nickname}'? It is linked from ${plural(links.blocks, 'block')}${on}; their links would change with it.`;
}

/** A whole-chat undo (`all: true`, not a dry run): its own dry run says what would be taken back. */
export async function undoQuestion(
  args: { all?: boolean; dryRun?: boolean },
  ctx: SessionContext,
): Promise<string | undefined> {
  if (args.all !== true || args.dryRun === true) return undefined;
  const chat = currentChat();
  const report = await runUndo(
    { dryRun: true },
    {
      journal: await defaultJournal(),
      caller: readCaller(ctx),
      actor: { chat, tool: 'undo_changes', onlyChat: chat.id },
    },
  );
  if (report.undone <= ASK_ABOVE) return undefined;
  const graphs = [...new Set(report.changes.map((c) => nicknameOf(ctx, c.graph)))];
  const conflicts =
    report.conflicts > 0
      ? ` ${plural(report.conflicts, 'part')} changed by someone since would be left alone.`
      : '';
  return `Undo ${plural(report.undone, 'change')} this chat made on graph ${graphs.map((g) => `'${g}'`).join(', ')}?${conflicts}`;
}

const nicknameOf = (ctx: SessionContext, name: string) =>
  ctx.gateway.session.list().find((g) => g.name === name)?.nickname ?? name;

/** The dry run's reads, on the graph each change was made on (a dry run writes nothing). */
function readCaller(ctx: SessionContext): Caller {
  return (name, action, args, type) => {
    const graph = ctx.gateway.session
      .list()
      .find((g) => g.name === name && (type === undefined || g.type === type));
    if (!graph) return Promise.resolve(null);
    return ctx.gateway.callGraph(graph, action, args, ctx);
  };
}

/** delete_blocks declined: its report, with nothing deleted. */
export function blocksNotDeleted(args: { uids: string[] }): Record<string, unknown> {
  const uids = args.uids;
  return {
    success: false,
    succeeded: 0,
    failed: 0,
    results: uids.map((uid) => ({ uid, ok: false, deleted: false, note: 'not deleted: not confirmed' })),
  };
}
