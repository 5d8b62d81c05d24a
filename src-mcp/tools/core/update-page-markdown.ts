/**
 * update_page_markdown (docs/mcp.md, "Rewriting a page"): makes a page read as a markdown outline
 * in the fewest writes, keeping the uid of every block that stays (page-plan.ts). One read of the
 * page, the access check on the plan, then its writes, the check repeated right before each delete
 * or move (a person may have added under the block meanwhile): one tool call, so one journaled
 * change that undo_changes takes back whole. `dryRun` answers the plan and writes nothing.
 */
import { randomBytes } from 'node:crypto';
import * as z from 'zod';
import { HIDING_TAGS } from '../../roam/hidden-blocks.ts';
import { LIMITS, truncate } from '../../contract/limits.ts';
import { notFoundError } from '../../contract/not-found.ts';
import { defineTool, type PlannedEdits, type ToolContext } from '../../contract/tool-definition.ts';
import { ToolError } from '../../contract/tool-errors.ts';
import { rewritesPage } from '../../gate/plan-readers.ts';
import { batchOutcome, readReport } from './batch-report.ts';
import { refuseHidden, type HiddenCheck } from './hidden-targets.ts';
import { eachBlock, parseOutline } from './page-outline.ts';
import { HiddenUnderDeletedError, planPage, type PageBlock, type Plan, type PlanStep } from './page-plan.ts';

/** The largest page (blocks read) and outline (lines) one call rewrites. */
export const MAX_PAGE_BLOCKS = 5000;
/** The most Local API writes one call makes (updates and deletes go 25 to a call). */
export const MAX_WRITE_CALLS = 300;
const BATCH = 25;
/** Items listed per kind in the answer; the counts are always whole. */
const LISTED = 50;

// Roam's pull returns at most 1,000 values of a to-many attribute unless told `:limit nil`.
const PULL =
  '[:block/uid :node/title :block/string :block/order :block/heading {:block/refs [:node/title]} {[:block/children :limit nil] ...}]';
const pageQuery = (attribute: string) =>
  `[:find (pull ?p ${PULL}) . :in $ ?x :where [?p ${attribute} ?x] [?p :node/title]]`;

type Raw = Record<string, unknown>;

const hidingTags = new Set<string>(HIDING_TAGS);
const list = (value: unknown): Raw[] => (Array.isArray(value) ? (value as Raw[]) : []);

/** The pulled page's blocks in order; a block referring to a hiding tag stands for its subtree. */
function pageBlocks(raw: Raw): PageBlock[] {
  return list(raw[':block/children'])
    .sort((a, b) => Number(a[':block/order'] ?? 0) - Number(b[':block/order'] ?? 0))
    .map((child) => {
      const hidden = list(child[':block/refs']).some((ref) => hidingTags.has(String(ref[':node/title'])));
      const heading = Number(child[':block/heading'] ?? 0);
      return {
        uid: String(child[':block/uid']),
        string: typeof child[':block/string'] === 'string' ? child[':block/string'] : '',
        ...(heading > 0 ? { heading } : {}),
        hidden,
        children: hidden ? [] : pageBlocks(child),
      };
    });
}

async function readPage(ctx: ToolContext, args: { title?: string; uid?: string }) {
  const [attribute, value, what] = args.uid
    ? [':block/uid', args.uid, `Page uid '${args.uid}'`]
    : [':node/title', args.title as string, `Page '${args.title}'`];
  const raw = await ctx.call<Raw | null>('data.q', [pageQuery(attribute), value]);
  if (!raw || typeof raw !== 'object' || typeof raw[':block/uid'] !== 'string')
    throw notFoundError(what, ctx.graph.nickname);
  return { uid: raw[':block/uid'], title: String(raw[':node/title'] ?? ''), blocks: pageBlocks(raw) };
}

/** A fresh uid in Roam's form (9 characters of [A-Za-z0-9_-]). */
function newUid(): string {
  return randomBytes(9).toString('base64url').slice(0, 9);
}

function tooLarge(what: string): ToolError {
  return new ToolError(
    'TOO_LARGE',
    `${what}. Nothing was changed. Rewrite the page in parts: edit blocks with update_blocks / create_block / move_block, or call update_page_markdown on a smaller page.`,
    { max_page_blocks: MAX_PAGE_BLOCKS, max_write_calls: MAX_WRITE_CALLS },
  );
}

/** The Local API calls the plan's steps take (consecutive updates and deletes batched). */
function writeCalls(steps: readonly PlanStep[]): PlanStep[][] {
  const calls: PlanStep[][] = [];
  for (const step of steps) {
    const last = calls[calls.length - 1];
    const batched = step.kind === 'update' || step.kind === 'delete';
    if (batched && last && last[0]?.kind === step.kind && last.length < BATCH) last.push(step);
    else calls.push([step]);
  }
  return calls;
}

function plannedEdits(plan: Plan): PlannedEdits {
  const deletes = plan.steps.flatMap((s) => (s.kind === 'delete' ? [s.uid] : []));
  const parts = [
    plan.updated.length ? `edit ${plan.updated.length}` : '',
    plan.moved.length ? `move ${plan.moved.length}` : '',
    plan.deleted.length ? `delete ${plan.deleted.length}` : '',
  ].filter(Boolean);
  const summary = `${parts.slice(0, -1).join(', ')}${parts.length > 1 ? ' and ' : ''}${parts.at(-1) ?? ''} existing block(s)`;
  return {
    summary,
    targets: [
      ...plan.updated.map((u) => ({ id: u.uid, kind: 'node' as const })),
      ...plan.moved.map((m) => ({ id: m.uid, kind: 'node' as const, subtree: true })),
      ...deletes.map((uid) => ({ id: uid, kind: 'node' as const, subtree: true })),
    ],
  };
}

/** The blocks a delete or a move takes with everything under them, for the check right before it. */
function carriedSubtrees(call: readonly PlanStep[]): PlannedEdits | undefined {
  const uids = call.flatMap((step) => (step.kind === 'delete' || step.kind === 'move' ? [step.uid] : []));
  if (uids.length === 0) return undefined;
  return {
    summary: `${call[0]?.kind === 'move' ? 'move' : 'delete'} ${uids.length} block(s) with what is under them`,
    targets: uids.map((id) => ({ id, kind: 'node' as const, subtree: true })),
  };
}

/**
 * The blocks the plan's writes address and the parents they put blocks under: asked again right
 * before the first write, as the person may have hidden one since the page was read (or while
 * they were asked about the rewrite).
 */
function addressed(plan: Plan): HiddenCheck {
  const blocks: string[] = [];
  const places: string[] = [];
  for (const step of plan.steps) {
    if (step.kind !== 'insert') blocks.push(step.uid);
    if (step.kind === 'move' || step.kind === 'create' || step.kind === 'insert') places.push(step.parent);
  }
  const created = new Set(plan.steps.flatMap((s) => (s.kind === 'create' ? [s.uid] : [])));
  const existing = (uid: string) => !created.has(uid) && !uid.startsWith('new:');
  return { blocks: blocks.filter(existing), places: places.filter(existing) };
}

/** A refusal between writes says what was done already and how to take it back. */
function stopped(error: unknown, done: number, total: number): never {
  if (!(error instanceof ToolError) || done === 0) throw error;
  throw new ToolError(
    error.code,
    `Stopped after ${done} of ${total} writes: ${error.message.replace('Nothing was changed.', 'That write was not made.')} What was written before stays; undo_changes takes it back.`,
    { ...error.details, writes_done: done },
  );
}

async function runCall(ctx: ToolContext, call: PlanStep[]): Promise<void> {
  const step = call[0] as PlanStep;
  const location = (parent: string, order: number) => ({ 'parent-uid': parent, order });
  switch (step.kind) {
    case 'update': {
      const updates = call.map((s) => s as Extract<PlanStep, { kind: 'update' }>);
      const answer = await ctx.call('data.block.updateBlocks', [
        { updates: updates.map((u) => ({ uid: u.uid, string: u.string, heading: u.heading })) },
      ]);
      batchOutcome(
        'updated',
        readReport(
          'data.block.updateBlocks',
          updates.map((u) => u.uid),
          answer,
        ),
      );
      return;
    }
    case 'delete': {
      const uids = call.map((s) => (s as Extract<PlanStep, { kind: 'delete' }>).uid);
      const answer = await ctx.call('data.block.deleteBlocks', [{ uids }]);
      batchOutcome('deleted', readReport('data.block.deleteBlocks', uids, answer));
      return;
    }
    case 'move':
      await ctx.call('data.block.move', [
        { location: location(step.parent, step.order), block: { uid: step.uid } },
      ]);
      return;
    case 'create':
      await ctx.call('data.block.create', [
        {
          location: location(step.parent, step.order),
          block: { uid: step.uid, string: step.string, ...(step.heading ? { heading: step.heading } : {}) },
        },
      ]);
      return;
    case 'insert':
      await ctx.call('data.block.fromMarkdown', [
        { location: location(step.parent, step.order), 'markdown-string': step.markdown },
      ]);
      return;
  }
}

const cut = (text: string) => truncate(text, LIMITS.context);
const some = <T, U>(items: readonly T[], map: (item: T) => U) => items.slice(0, LISTED).map(map);

function answer(page: { uid: string; title: string }, plan: Plan, calls: number, dryRun: boolean) {
  const { uid, title } = page;
  const counts = {
    kept: plan.kept.length,
    moved: plan.moved.length,
    updated: plan.updated.length,
    created: plan.created.length,
    deleted: plan.deleted.length,
    writeCalls: calls,
  };
  return {
    page: { uid, title },
    dryRun,
    counts,
    moved: some(plan.moved, (m) => ({ uid: m.uid, text: cut(m.string) })),
    updated: some(plan.updated, (u) => ({ uid: u.uid, before: cut(u.before), after: cut(u.after) })),
    created: some(plan.created, (c) => cut(c.string)),
    deleted: some(plan.deleted, (d) => ({ uid: d.uid, text: cut(d.string) })),
    ...(Object.values(counts).some((n) => n > LISTED)
      ? { note: `Lists show the first ${LISTED} of each kind.` }
      : {}),
  };
}

export const updatePageMarkdownTools = [
  defineTool({
    name: 'update_page_markdown',
    title: 'Rewrite page from markdown',
    description:
      'Makes a page read as a nested "- " outline (get_page output may be pasted back) in the fewest writes: unchanged blocks keep their uid, changed ones are edited in place. dryRun: the plan only.',
    toolset: 'core',
    feature: 'page rewrites',
    actions: [
      'data.q',
      'data.block.create',
      'data.block.fromMarkdown',
      'data.block.move',
      {
        action: 'data.block.updateBlocks',
        needs:
          'a Roam Desktop build with batch edits; until then use update_block, create_block, move_block and delete_block',
      },
      { action: 'data.block.deleteBlocks', needs: 'a Roam Desktop build with batch edits' },
    ],
    scope: 'graph',
    writes: 'edit',
    editTargets: 'planned',
    annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
    inputSchema: {
      title: z.string().trim().min(1).optional(),
      uid: z.string().trim().min(1).optional(),
      markdown: z.string(),
      dryRun: z.boolean().optional(),
    },
    async handler(args, ctx) {
      if ((args.title === undefined) === (args.uid === undefined))
        throw new ToolError('INVALID_PARAMS', 'Give the page as exactly one of title or uid.');
      const outline = parseOutline(args.markdown);
      const lines = [...eachBlock(outline)].length;
      if (lines > MAX_PAGE_BLOCKS)
        throw tooLarge(`The markdown has ${lines} blocks, more than ${MAX_PAGE_BLOCKS}`);
      const page = await readPage(ctx, args);
      const blocks = [...eachBlock(page.blocks)].length;
      if (blocks > MAX_PAGE_BLOCKS)
        throw tooLarge(`The page has ${blocks} blocks, more than ${MAX_PAGE_BLOCKS}`);
      let plan: Plan;
      try {
        plan = planPage(page.uid, page.blocks, outline, newUid);
      } catch (error) {
        if (!(error instanceof HiddenUnderDeletedError)) throw error;
        throw new ToolError(
          'HIDDEN_CONTENT',
          `The markdown leaves out ${error.blocks.map((b) => `'${b.uid}' (${cut(b.string)})`).join(', ')}, which hold blocks hidden from agents (#.rm-hide / #.rm-private); deleting them would delete those too. Nothing was changed. Keep those lines (with their <roam uid> tags) in the markdown.`,
          { blocks: error.blocks.map((b) => b.uid) },
        );
      }
      const calls = writeCalls(plan.steps);
      if (calls.length > MAX_WRITE_CALLS)
        throw tooLarge(`This rewrite needs ${calls.length} Local API writes, more than ${MAX_WRITE_CALLS}`);
      // Fail closed: without the planned-edits check (server/tool-call.ts) nothing is written.
      if (!ctx.allowEdits)
        throw new ToolError(
          'INTERNAL_ERROR',
          'update_page_markdown could not check its plan against the graph’s access level, so nothing was changed. Report this; meanwhile use update_blocks, create_block, move_block and delete_blocks.',
        );
      const allowEdits = ctx.allowEdits;
      await allowEdits({
        ...plannedEdits(plan),
        takes: rewritesPage(page.title, plan.deleted, plan.updated, plan.created),
      });
      if (args.dryRun) return answer(page, plan, calls.length, true);
      if (calls.length > 0) await refuseHidden(ctx, 'update_page_markdown', addressed(plan));
      for (const [i, call] of calls.entries()) {
        ctx.progress(`write ${i + 1} of ${calls.length}`);
        // A person may have added under a block since the plan was checked: check again, against
        // what Roam answers now, right before a write that takes a subtree with it.
        const carried = carriedSubtrees(call);
        if (carried) await allowEdits(carried).catch((error: unknown) => stopped(error, i, calls.length));
        await runCall(ctx, call);
      }
      return answer(page, plan, calls.length, false);
    },
  }),
];
