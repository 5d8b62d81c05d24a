/**
 * What an undo would take away, from its own dry run (src-mcp/changes/): the changes it takes
 * back, the blocks and pages their creates made (an undo deletes them: what an agent made is often
 * what the person asked for and kept), the texts their edits wrote, the blocks their moves put
 * elsewhere, the links their renames rewrote. Only the steps the dry run would take back count.
 */
import { carriesHidingTag } from '../roam/hidden-blocks.ts';
import { currentChat } from '../contract/chat-scope.ts';
import { fileName } from './plan-readers.ts';
import {
  UndoError,
  undoCaller,
  undoChanges,
  type Change,
  type Op,
  type TreeNode,
  type UndoReport,
} from '../changes/index.ts';
import type { SessionContext } from '../contract/tool-definition.ts';
import { ToolError } from '../contract/tool-errors.ts';
import { graphId } from '../../src-shared/constants.ts';
import { NOTHING_TAKEN, type GraphRef, type PlacedBlock, type TakenAway } from '../contract/taken-away.ts';

const TAKEN_BACK = new Set(['would-undo', 'partly-undone']);

/** The dry run of `undo_changes` as the agent asked it, on the graph each change was made on. */
async function undoDryRun(args: { ids?: string[] }, ctx: SessionContext): Promise<UndoReport> {
  const chat = currentChat();
  const reads = undoCaller({
    graphs: () => ctx.gateway.session.list(),
    // A dry run only reads.
    call: (graph, action, callArgs) => ctx.gateway.callGraph(graph, action, callArgs, ctx),
    missing: (name) =>
      new ToolError(
        'GRAPH_NOT_FOUND',
        `The change was made on graph '${name}', which this roam-mcp no longer has configured. Add it back, or undo with 'roam-mcp undo' in a terminal.`,
      ),
  });
  return undoChanges({ ...(args.ids ? { ids: args.ids } : {}), dryRun: true }, reads, {
    journal: await ctx.journal(),
    actor: { chat, tool: 'undo_changes', onlyChat: chat.id },
  }).catch((error: unknown) => {
    // Nothing to undo (an unknown id, another chat's): answered as the undo itself answers it.
    if (error instanceof UndoError)
      throw new ToolError(error.code, error.message, { suggested_next_tool: 'list_changes' });
    throw error;
  });
}

/** The blocks of written trees, hidden ones (tagged, or under a tagged one) by uid. */
function treeBlocks(
  nodes: readonly TreeNode[],
  page: string | undefined,
  into: TakenAway,
  hidden = false,
): void {
  for (const node of nodes) {
    const isHidden = hidden || carriesHidingTag(node.string);
    const uid = node.uid ?? '';
    if (isHidden) into.hidden.push({ uid, ...(page ? { page } : {}) });
    else into.blocks.push({ uid, text: node.string, ...(page ? { page } : {}) });
    treeBlocks(node.children, page, into, isHidden);
  }
}

function opTakes(op: Op, into: TakenAway): void {
  switch (op.kind) {
    case 'create-blocks': {
      const page = op.container?.page?.title;
      // Roam's answer names the top blocks' uids when the tree does not.
      const tree = op.tree.map((node, i) => (node.uid ? node : { ...node, uid: op.uids?.[i] }));
      treeBlocks(tree, page, into);
      return;
    }
    case 'create-page': {
      const before = { blocks: into.blocks.length, hidden: into.hidden.length };
      treeBlocks(op.tree, op.title, into);
      const hidden = into.hidden.length - before.hidden;
      const blocks = into.blocks.length - before.blocks + hidden;
      if (blocks > 0)
        into.pages.push({
          uid: op.uid ?? '',
          title: op.title,
          blocks,
          hidden,
          linkedFrom: { blocks: 0, pages: [], uids: [] },
        });
      return;
    }
    case 'comment':
      if (op.tree) treeBlocks(op.tree, undefined, into);
      else into.blocks.push({ uid: op.uids?.[0] ?? '', text: op.text });
      return;
    case 'update-block': {
      if (op.after.string === undefined) return;
      const block: PlacedBlock = {
        uid: op.uid,
        text: op.after.string,
        ...(op.page ? { page: op.page } : {}),
        ...(op.before.string !== undefined && !carriesHidingTag(op.before.string)
          ? { newText: op.before.string }
          : {}),
      };
      if (carriesHidingTag(op.after.string))
        into.hidden.push({ uid: op.uid, ...(op.page ? { page: op.page } : {}) });
      else into.replaced.push(block);
      return;
    }
    case 'move-block':
      if (op.before.page) into.moved.push({ uid: op.uid, text: op.string ?? '', page: op.before.page });
      return;
    case 'rename-page':
      into.renames.push({
        uid: op.uid,
        from: op.after,
        to: op.before,
        links: op.referrers?.length ?? 0,
        linkPages: [],
      });
      return;
    case 'upload':
      // Taken back only when no block shows it (else a conflict): the file goes.
      if (op.url)
        into.files.push({
          url: op.url,
          name: op.filename ?? fileName(op.url),
          shownIn: { blocks: 0, pages: [] },
        });
      return;
    default:
      // Deletes come back (a deleted file too, under a new address), shortcuts go back: nothing taken.
      return;
  }
}

/**
 * What the undo of `report`'s changes takes away (changes: the journal's entries), each graph's
 * part on its own (`byGraph`, keyed by graph id; `nickname` names a graph id for a person), and
 * their sum.
 */
export function undoTakes(
  report: UndoReport,
  changes: readonly Change[],
  nickname: (id: string) => string = (id) => id,
): TakenAway {
  const byId = new Map(changes.map((c) => [c.id, c]));
  const parts = new Map<string, { graph: GraphRef; taken: TakenAway; count: number }>();
  for (const changeReport of report.changes) {
    if (!TAKEN_BACK.has(changeReport.result)) continue;
    const change = byId.get(changeReport.id);
    const id = change
      ? graphId({ name: change.graph, type: change.graphType })
      : graphId({ name: changeReport.graph });
    let part = parts.get(id);
    if (!part) {
      // Filled below: its own arrays, never NOTHING_TAKEN's.
      part = { graph: { id, nickname: nickname(id) }, taken: structuredClone(NOTHING_TAKEN), count: 0 };
      parts.set(id, part);
    }
    part.count += 1;
    const steps = new Set(changeReport.steps.filter((s) => s.status === 'would-undo').map((s) => s.n));
    for (const op of change?.ops ?? []) if (steps.has(op.n)) opTakes(op.op, part.taken);
  }
  const byGraph = [...parts.values()].map(({ graph, taken, count }) => ({
    graph,
    taken: { ...taken, changes: count },
  }));
  const sum: TakenAway = structuredClone(NOTHING_TAKEN);
  for (const { taken } of byGraph)
    for (const field of ['blocks', 'hidden', 'pages', 'replaced', 'moved', 'renames', 'files'] as const)
      (sum[field] as unknown[]).push(...taken[field]);
  const count = byGraph.reduce((n, p) => n + (p.taken.changes ?? 0), 0);
  return { ...sum, ...(count ? { changes: count } : {}), ...(byGraph.length ? { byGraph } : {}) };
}

/** undo_changes (not a dry run): its dry run says what it would take back. */
export async function undoesChanges(
  args: { ids?: string[]; all?: boolean; dryRun?: boolean },
  ctx: SessionContext,
): Promise<TakenAway> {
  if (args.dryRun === true || (args.ids === undefined && args.all !== true)) return NOTHING_TAKEN;
  const report = await undoDryRun(args, ctx);
  const graphs = ctx.gateway.session.list();
  const nickname = (id: string) =>
    graphs.find((g) => graphId(g) === id)?.nickname ?? id.replace(/^[^:]*:/, '');
  const taken = undoTakes(report, await (await ctx.journal()).changes(), nickname);
  for (const part of taken.byGraph ?? []) {
    const graph = graphs.find((g) => graphId(g) === part.graph.id);
    if (graph)
      await placeBlocks(part.taken, (uids) => ctx.gateway.callGraph(graph, 'data.q', [PAGES_OF, uids], ctx));
  }
  return taken;
}

const PAGES_OF =
  '[:find ?u ?t :in $ [?u ...] :where [?b :block/uid ?u] [?b :block/page ?p] [?p :node/title ?t]]';

/**
 * The page of each block the undo would remove whose change did not record it (made under a
 * parent uid): read now, while the blocks still stand, so a decline of the page covers them.
 */
async function placeBlocks(taken: TakenAway, query: (uids: string[]) => Promise<unknown>): Promise<void> {
  const unplaced = [...taken.blocks, ...taken.hidden].filter((b) => !b.page && b.uid);
  if (!unplaced.length) return;
  const rows = await query(unplaced.map((b) => b.uid));
  const pages = new Map(
    (Array.isArray(rows) ? (rows as unknown[][]) : []).map(([u, t]) => [String(u), String(t)]),
  );
  for (const block of unplaced) {
    const page = pages.get(block.uid);
    if (page) block.page = page;
  }
}
