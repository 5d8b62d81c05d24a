/**
 * Writing Roam content, named and shaped like the official Roam MCP server's: pages and blocks
 * through data.page.* / data.block.*, each naming a missing uid as NOT_FOUND.
 */
import {
  movesBlock,
  removesBlocks,
  removesPage,
  renamesPage,
  replacesTexts,
} from '../../gate/plan-readers.ts';
import * as z from 'zod';
import { withMissingCheck } from '../../contract/not-found.ts';
import { defineTool, type ToolContext } from '../../contract/tool-definition.ts';
import { ToolError } from '../../contract/tool-errors.ts';
import {
  markdownLocation,
  nestUnder,
  newUid,
  open,
  order,
  pageUidByTitle,
  roamOrder,
} from './block-location.ts';
import { blockFields, blockWire } from './block-fields.ts';
import { checkDeletionReport } from './deletion-report.ts';
import { refuseHidden, refuseHidingTagPage, type HiddenCheck } from './hidden-targets.ts';
import { DAILY_DATE_HINT, isDailyDate } from '../../roam/roam-dates.ts';

const uid = z.string().min(1);

/** NOT_FOUND instead of "Roam failed" when a write names a uid that does not exist. */
function writeTo<T>(ctx: ToolContext, uids: Record<string, string>, run: () => Promise<T>): Promise<T> {
  const refs = Object.entries(uids).map(([what, uid]) => ({ what: `${what} '${uid}'`, ref: { uid } }));
  return withMissingCheck(ctx, refs, run);
}

/**
 * What the consent gate reads before asking, after the hidden check: the person is never asked
 * about a write that will be refused.
 */
function seenFirst<A, T>(
  tool: string,
  check: (args: A) => HiddenCheck,
  read: (args: A, ctx: ToolContext) => Promise<T>,
): (args: A, ctx: ToolContext) => Promise<T> {
  return async (args, ctx) => {
    await refuseHidden(ctx, tool, check(args));
    return read(args, ctx);
  };
}

/** delete_block / delete_page: one Roam delete, NOT_FOUND for a missing uid, Roam's report checked. */
async function deleteOne(ctx: ToolContext, kind: 'block' | 'page', target: string) {
  const what = kind === 'block' ? 'Block uid' : 'Page uid';
  // A page is never hidden itself and goes with its hidden blocks intact, but a tag's own page
  // takes the hiding away from every block tagged with it.
  if (kind === 'block') await refuseHidden(ctx, 'delete_block', { blocks: [target] });
  else await refuseHidingTagPage(ctx, 'delete_page', target);
  const report = await writeTo(ctx, { [what]: target }, () =>
    ctx.call(kind === 'block' ? 'data.block.delete' : 'data.page.delete', [{ [kind]: { uid: target } }]),
  );
  checkDeletionReport(report, kind, target, ctx.graph.nickname);
  return { deleted: kind, uid: target };
}

/** A hidden block moved out from under its tag would show; one moved under a hidden block would vanish. */
const moveCheck = (args: { uid: string; parentUid: string }): HiddenCheck => ({
  blocks: [args.uid],
  places: [args.parentUid],
});

export const contentWriteTools = [
  defineTool({
    name: 'create_page',
    title: 'Create page',
    description:
      'Creates a page, optionally with content as a markdown outline ("- item\\n  - child"). Returns its uid.',
    toolset: 'core',
    feature: 'page creation',
    actions: ['data.q', 'data.page.fromMarkdown', 'data.page.create'],
    scope: 'graph',
    writes: 'append',
    annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
    inputSchema: { title: z.string().trim().min(1), markdown: z.string().optional() },
    async handler(args, ctx) {
      if (await pageUidByTitle(ctx, args.title)) {
        throw new ToolError(
          'PAGE_EXISTS',
          `A page titled '${args.title}' already exists. Add to it with create_block {pageTitle}.`,
          {
            suggested_next_tool: 'create_block',
          },
        );
      }
      const page = { title: args.title, uid: newUid() };
      if (args.markdown !== undefined)
        await ctx.call('data.page.fromMarkdown', [{ page, 'markdown-string': args.markdown }]);
      else await ctx.call('data.page.create', [{ page }]);
      return { created: 'page', uid: page.uid, title: page.title };
    },
  }),
  defineTool({
    name: 'create_block',
    title: 'Create block',
    description:
      'Adds markdown (a block or an outline) under a parent uid, a page title or a daily note page (created if missing).',
    toolset: 'core',
    feature: 'block creation',
    actions: ['data.block.fromMarkdown', 'data.q'],
    scope: 'graph',
    writes: 'append',
    annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
    inputSchema: {
      markdown: z.string().min(1),
      parentUid: uid.optional(),
      pageTitle: z.string().trim().min(1).optional(),
      dailyNotePage: z
        .union([z.boolean(), z.string().refine(isDailyDate, DAILY_DATE_HINT)])
        .optional()
        .describe('true, today, yesterday, tomorrow, MM-DD-YYYY or YYYY-MM-DD'),
      nestUnder,
      order,
      open,
    },
    async handler(args, ctx) {
      // One call: Roam finds or creates the page itself.
      const target = markdownLocation(args);
      const location = {
        ...target.location,
        order: roamOrder(args.order),
        ...(args.nestUnder === undefined ? {} : { 'nest-under-str': args.nestUnder }),
      };
      const write = () =>
        ctx.call<{ uids?: unknown } | null>('data.block.fromMarkdown', [
          {
            location,
            'markdown-string': args.markdown,
            ...(args.open === undefined ? {} : { open: args.open }),
          },
        ]);
      // The agent cannot see a hidden block's children, so it cannot choose a place among them.
      await refuseHidden(ctx, 'create_block', {
        places: args.parentUid ? [args.parentUid] : [],
        section: args.nestUnder,
      });
      const result = args.parentUid
        ? await writeTo(ctx, { 'Parent uid': args.parentUid }, write)
        : await write();
      return {
        created: 'blocks',
        ...(Array.isArray(result?.uids) ? { uids: result.uids.map(String) } : {}),
        ...(target.parentUid ? { parentUid: target.parentUid } : {}),
        ...(target.page ? { page: target.page } : {}),
      };
    },
  }),
  defineTool({
    name: 'update_block',
    title: 'Update block',
    description: "Changes one block's fields: string is stored literally, heading 0 removes the heading.",
    toolset: 'core',
    feature: 'block updates',
    actions: ['data.block.update', 'data.q'],
    scope: 'graph',
    writes: 'edit',
    editTargets: (args) => [{ id: args.uid, kind: 'node' }],
    takes: {
      read: seenFirst(
        'update_block',
        (args) => ({ blocks: [args.uid] }),
        (args, ctx) => replacesTexts(ctx, [args]),
      ),
    },
    annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
    inputSchema: { uid, ...blockFields },
    async handler(args, ctx) {
      const block = blockWire(args, 'update_block');
      await refuseHidden(ctx, 'update_block', { blocks: [args.uid] });
      await writeTo(ctx, { 'Block uid': args.uid }, () => ctx.call('data.block.update', [{ block }]));
      return { updated: 'block', uid: args.uid };
    },
  }),
  defineTool({
    name: 'move_block',
    title: 'Move block',
    description: 'Moves a block (with its children) under another parent block or page.',
    toolset: 'core',
    feature: 'block moves',
    actions: ['data.block.move', 'data.q'],
    scope: 'graph',
    writes: 'edit',
    // A move carries the subtree: a person's block under the agent's would go with it.
    editTargets: (args) => [{ id: args.uid, kind: 'node', subtree: true }],
    takes: {
      read: seenFirst('move_block', moveCheck, (args, ctx) => movesBlock(ctx, args.uid, args.parentUid)),
    },
    annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
    inputSchema: { uid, parentUid: uid, order },
    async handler(args, ctx) {
      await refuseHidden(ctx, 'move_block', moveCheck(args));
      await writeTo(ctx, { 'Block uid': args.uid, 'Parent uid': args.parentUid }, () =>
        ctx.call('data.block.move', [
          {
            location: { 'parent-uid': args.parentUid, order: roamOrder(args.order) },
            block: { uid: args.uid },
          },
        ]),
      );
      return { moved: 'block', uid: args.uid, parentUid: args.parentUid };
    },
  }),
  defineTool({
    name: 'delete_block',
    title: 'Delete block',
    description: 'Deletes a block and all its children.',
    toolset: 'core',
    feature: 'block deletes',
    actions: ['data.block.delete', 'data.q'],
    scope: 'graph',
    writes: 'edit',
    editTargets: (args) => [{ id: args.uid, kind: 'node', subtree: true }],
    takes: {
      read: seenFirst(
        'delete_block',
        (args) => ({ blocks: [args.uid] }),
        (args, ctx) => removesBlocks(ctx, [args.uid]),
      ),
    },
    annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
    inputSchema: { uid },
    handler: (args, ctx) => deleteOne(ctx, 'block', args.uid),
  }),
  defineTool({
    name: 'update_page',
    title: 'Rename page',
    description: "Changes a page's title (references to it follow).",
    toolset: 'core',
    feature: 'page renames',
    actions: ['data.page.update', 'data.q'],
    scope: 'graph',
    writes: 'edit',
    editTargets: (args) => [{ id: args.uid, kind: 'node' }],
    takes: {
      async read(args, ctx) {
        await refuseHidingTagPage(ctx, 'update_page', args.uid);
        return renamesPage(ctx, args.uid, args.title);
      },
    },
    annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
    inputSchema: { uid, title: z.string().trim().min(1) },
    async handler(args, ctx) {
      await refuseHidingTagPage(ctx, 'update_page', args.uid);
      await writeTo(ctx, { 'Page uid': args.uid }, () =>
        ctx.call('data.page.update', [{ page: { uid: args.uid, title: args.title } }]),
      );
      return { updated: 'page', uid: args.uid, title: args.title };
    },
  }),
  defineTool({
    name: 'delete_page',
    title: 'Delete page',
    description: 'Deletes a page and all its blocks.',
    toolset: 'core',
    feature: 'page deletes',
    actions: ['data.page.delete', 'data.q'],
    scope: 'graph',
    writes: 'edit',
    editTargets: (args) => [{ id: args.uid, kind: 'node', subtree: true }],
    takes: {
      async read(args, ctx) {
        await refuseHidingTagPage(ctx, 'delete_page', args.uid);
        return removesPage(ctx, args.uid);
      },
    },
    annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
    inputSchema: { uid },
    handler: (args, ctx) => deleteOne(ctx, 'page', args.uid),
  }),
];
