/**
 * What the change-review app shows beyond the text of list_changes and undo_changes: each
 * change's ops as describeChange gives them (hidden texts replaced, as agents see them), a move's
 * places and a conflicting block's text now, read from the graph, by page title and block text,
 * never by uid.
 *
 * It travels in the tool result's `_meta` (MCP Apps: "`_meta`: not intended for model context";
 * hosts hand the whole result to the app). That costs the chat nothing: the text the model reads
 * and tools/list stay as they were. `structuredContent` would be read by the model in some
 * clients, and an app-only tool (`_meta.ui.visibility: ['app']`) would add to tools/list for every
 * host that does not filter it (every host without apps), and a round trip per view.
 */
import { graphId } from '../../src-shared/constants.ts';
import { HIDDEN_TEXT, isHiddenText, type HiddenNow } from '../changes/undo/agent-view.ts';
import { describeChange, type OpDescription, type OutlineBlock } from '../changes/undo/describe.ts';
import type { Change, Op } from '../changes/journal/types.ts';
import { carriesHidingTag } from '../roam/hidden-blocks.ts';
import { agentText } from './change-review/conflict-text.ts';
import type { AppBlock, AppChange, AppOp, AppPlace, AppStep } from './change-review/data-types.ts';
import { CHANGE_REVIEW_DATA_KEY } from './change-review/data-key.ts';

export type ChangeReviewData = Record<typeof CHANGE_REVIEW_DATA_KEY, { changes: Record<string, AppChange> }>;

/** A Local API read on the change's graph. */
export type GraphRead = (change: Change, action: string, args: unknown[]) => Promise<unknown>;

/** Outlines are cut after this many blocks: an app page, not a dump of a deleted page. */
const MAX_BLOCKS = 200;

const PAGE_TITLE = '[:find ?t . :in $ ?u :where [?e :block/uid ?u] [?e :node/title ?t]]';
const BLOCK_PLACE =
  '[:find ?t ?s :in $ ?u :where [?e :block/uid ?u] [?e :block/page ?p] [?p :node/title ?t] [?e :block/string ?s]]';
const BLOCK_TEXT = '[:find ?s . :in $ ?u :where [?e :block/uid ?u] [?e :block/string ?s]]';

function hiddenNow(change: Change, uid: string, text: string, hidden: HiddenNow): boolean {
  return hidden.uids.has(uid) || carriesHidingTag(text) || isHiddenText(change, text, hidden);
}

/** What describeChange puts for a text hidden from AI. */
const HIDDEN = HIDDEN_TEXT.slice(1, -1);

/**
 * The outline as the app shows it: cut after MAX_BLOCKS, and nothing under a hidden block (Roam
 * hides a block with everything under it; the children's own texts carry no tag).
 */
function cutOutline(tree: readonly OutlineBlock[]): { blocks: AppBlock[]; more: number } {
  let left = MAX_BLOCKS;
  let more = 0;
  const walk = (nodes: readonly OutlineBlock[]): AppBlock[] =>
    nodes.flatMap((node) => {
      if (left === 0) {
        more += 1 + count(node.children);
        return [];
      }
      left--;
      const hidden = node.string === HIDDEN || carriesHidingTag(node.string);
      return [
        hidden ? { string: HIDDEN, children: [] } : { string: node.string, children: walk(node.children) },
      ];
    });
  return { blocks: walk(tree), more };
}

/**
 * The blocks an op wrote or read under, by uid. When Roam hides one now, every text of the op is
 * hidden: describeChange passes a short text (under 16 characters) of a block hidden since.
 */
function uidsOf(op: Op): string[] {
  switch (op.kind) {
    case 'update-block':
      return [op.uid];
    case 'move-block':
      return [op.uid, op.before.parent, op.after.parent];
    case 'create-blocks':
      return [...(op.parent ? [op.parent] : []), ...(op.uids ?? [])];
    case 'delete-blocks':
      return op.items.flatMap((i) => [i.block.uid, i.parent]);
    case 'comment':
      return [op.block, ...(op.uids ?? [])];
    default:
      return [];
  }
}

function hideAll(op: AppOp): AppOp {
  const hide = (value: string | undefined) => (value === undefined ? undefined : HIDDEN);
  const { before, after, blocks, more: _more, ...rest } = op;
  return {
    ...rest,
    ...(before !== undefined ? { before: hide(before) } : {}),
    ...(after !== undefined ? { after: hide(after) } : {}),
    ...(blocks ? { blocks: [{ string: HIDDEN, children: [] }] } : {}),
  };
}

const DRAWN: ReadonlySet<OpDescription['kind']> = new Set([
  'create',
  'edit',
  'move',
  'delete',
  'rename',
  'comment',
]);

const count = (nodes: readonly OutlineBlock[]): number =>
  nodes.reduce((sum, n) => sum + 1 + count(n.children), 0);

/** Where a block's parent is now: its page, and its text when it is a block an agent may see. */
async function placeOf(change: Change, uid: string, hidden: HiddenNow, read: GraphRead): Promise<AppPlace> {
  const title = (await read(change, 'data.q', [PAGE_TITLE, uid]).catch(() => null)) as string | null;
  if (typeof title === 'string') return { page: title };
  const rows = (await read(change, 'data.q', [BLOCK_PLACE, uid]).catch(() => null)) as Array<
    [string, string]
  > | null;
  const [page, text] = rows?.[0] ?? [];
  if (page === undefined) return {};
  return text !== undefined && !hiddenNow(change, uid, text, hidden) ? { page, block: text } : { page };
}

/** The app's view of one change: its ops, a move's places read now. */
async function appChange(change: Change, hidden: HiddenNow, read: GraphRead): Promise<AppChange> {
  const described = describeChange(change, { hidden });
  const ops = await Promise.all(
    described.map(async (d, i): Promise<AppOp> => {
      // Only what the app draws: never a uid, nor the tool's own words (they may name one).
      const { kind, page, before, after, blocks, from, to, summary } = d;
      const { n, op: recorded } = change.ops[i]!;
      const op: AppOp = {
        n,
        kind,
        ...(page !== undefined ? { page } : {}),
        ...(before !== undefined ? { before } : {}),
        ...(after !== undefined ? { after } : {}),
        ...(recorded.kind === 'create-page' || recorded.kind === 'delete-page' ? { target: 'page' } : {}),
        ...(DRAWN.has(d.kind) ? {} : { summary }),
      };
      if (blocks) {
        const cut = cutOutline(blocks);
        op.blocks = cut.blocks;
        if (cut.more > 0) op.more = cut.more;
      }
      if (from) {
        const now = await placeOf(change, from.parent, hidden, read);
        op.from = now.page !== undefined ? now : from.page !== undefined ? { page: from.page } : {};
      }
      if (to) op.to = await placeOf(change, to.parent, hidden, read);
      const underHidden = hidden.unknown === true || uidsOf(recorded).some((uid) => hidden.uids.has(uid));
      return underHidden && op.kind !== 'rename' ? hideAll(op) : op;
    }),
  );
  return { ops };
}

/** Each read once per call: many moves share their places. */
function memo(read: GraphRead): GraphRead {
  const seen = new Map<string, Promise<unknown>>();
  return (change, action, args) => {
    const key = JSON.stringify([graphId({ name: change.graph, type: change.graphType }), action, args]);
    let answer = seen.get(key);
    if (!answer) seen.set(key, (answer = read(change, action, args)));
    return answer;
  };
}

/** `_meta` for list_changes: the shown changes' ops. */
export async function listData(
  changes: readonly Change[],
  hiddenFor: (change: Change) => HiddenNow,
  read: GraphRead,
): Promise<ChangeReviewData> {
  const out: Record<string, AppChange> = {};
  const once = memo(read);
  for (const change of changes) out[change.id] = await appChange(change, hiddenFor(change), once);
  return { [CHANGE_REVIEW_DATA_KEY]: { changes: out } };
}

interface ReportLike {
  changes: ReadonlyArray<{ id: string; steps: ReadonlyArray<{ n: number; status: string }> }>;
}

/** The one block whose text a conflict is about: an edited block, or a lone block the agent added. */
function conflictUid(change: Change, n: number): string | undefined {
  const op = change.ops.find((o) => o.n === n)?.op;
  if (op?.kind === 'update-block' && op.after.string !== undefined) return op.uid;
  if (op?.kind === 'create-blocks' && op.tree.length === 1 && op.uids?.length === 1) return op.uids[0];
  return undefined;
}

/**
 * `_meta` for undo_changes: the ops of each change in the report, and for a block the dry run
 * found changed since (edited, or added by the agent), its text now (beside the agent's in the app).
 */
export async function undoData(
  report: ReportLike,
  changeById: ReadonlyMap<string, Change>,
  hiddenFor: (change: Change) => HiddenNow,
  read: GraphRead,
): Promise<ChangeReviewData> {
  const out: Record<string, AppChange> = {};
  const once = memo(read);
  for (const reported of report.changes) {
    const change = changeById.get(reported.id);
    if (!change) continue;
    const hidden = hiddenFor(change);
    const described = await appChange(change, hidden, once);
    const steps: AppStep[] = [];
    for (const step of reported.steps) {
      const uid = step.status === 'conflict' ? conflictUid(change, step.n) : undefined;
      const wrote = described.ops.find((o) => o.n === step.n);
      const now =
        uid && wrote && ![undefined, HIDDEN].includes(agentText(wrote))
          ? ((await once(change, 'data.q', [BLOCK_TEXT, uid]).catch(() => null)) as string | null)
          : null;
      steps.push(
        uid && typeof now === 'string' && !hiddenNow(change, uid, now, hidden)
          ? { n: step.n, now }
          : { n: step.n },
      );
    }
    out[change.id] = { ...described, steps };
  }
  return { [CHANGE_REVIEW_DATA_KEY]: { changes: out } };
}
