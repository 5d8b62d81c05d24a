/** Comments on a block's thread: add_comment and get_comments, named as the official server's. */
import * as z from 'zod';
import { fetchHiddenContent } from '../../roam/hidden-blocks.ts';
import { LIMITS, paginate, truncate } from '../../contract/limits.ts';
import { notFoundError, withMissingCheck } from '../../contract/not-found.ts';
import { defineTool, type ToolDefinition } from '../../contract/tool-definition.ts';
import { ToolError } from '../../contract/tool-errors.ts';
import { withoutHiddenTaggedBlocks } from '../../roam/hidden-blocks.ts';
import { callFeature } from '../../contract/roam-feature.ts';
import { refuseHidden } from './hidden-targets.ts';

const blockUid = z.string().min(1);

interface RoamComment {
  parentUid?: unknown;
  author?: unknown;
  createdTime?: unknown;
  editedTime?: unknown;
  markdown?: unknown;
  singleEditableUid?: unknown;
}

/** Roam sent epoch numbers before March 2026, ISO strings since. */
const iso = (value: unknown) =>
  typeof value === 'number' ? new Date(value).toISOString() : String(value ?? '');

export const commentTools: ToolDefinition[] = [
  defineTool({
    name: 'add_comment',
    title: 'Add comment',
    description:
      'Comments on a block (its thread, not a child block). `comment`: plain text, editable later with update_block; `commentMarkdown`: an outline. Same-day comments on a block extend yours.',
    toolset: 'core',
    feature: 'adding comments',
    actions: ['data.block.addComment', 'data.q'],
    scope: 'graph',
    writes: 'append',
    annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
    inputSchema: {
      blockUid,
      comment: z.string().min(1).optional(),
      commentMarkdown: z.string().min(1).optional(),
    },
    outputSchema: { uids: z.array(z.string()), parentUid: z.string().optional() },
    async handler(args, ctx) {
      if ((args.comment === undefined) === (args.commentMarkdown === undefined)) {
        throw new ToolError(
          'INVALID_PARAMS',
          'add_comment needs exactly one of `comment` and `commentMarkdown`.',
          {
            field: 'comment',
          },
        );
      }
      // A comment goes in the block's thread, under it: hidden when the block is.
      await refuseHidden(ctx, 'add_comment', { places: [args.blockUid] });
      const body =
        args.comment !== undefined
          ? { 'reply-string': args.comment }
          : { 'reply-markdown': args.commentMarkdown };
      const result = await withMissingCheck(
        ctx,
        [{ what: `Block uid '${args.blockUid}'`, ref: { uid: args.blockUid } }],
        () =>
          callFeature<{ uids?: unknown; parentUid?: unknown } | null>(ctx, 'data.block.addComment', [
            { 'block-uid': args.blockUid, ...body },
          ]),
      );
      return {
        uids: Array.isArray(result?.uids) ? result.uids.map(String) : [],
        ...(typeof result?.parentUid === 'string' ? { parentUid: result.parentUid } : {}),
      };
    },
  }),
  defineTool({
    name: 'get_comments',
    title: 'Get comments',
    description:
      "A block's comments, oldest first: author, createdTime, editedTime, markdown, singleEditableUid (editable with update_block).",
    toolset: 'core',
    feature: 'comments',
    actions: ['data.ai.getComments', 'data.q'],
    scope: 'graph',
    annotations: { idempotentHint: true, openWorldHint: false },
    inputSchema: {
      blockUid,
      maxDepth: z
        .number()
        .int()
        .min(0)
        .max(20)
        .optional()
        .describe('Child levels per comment (default: all)'),
      offset: z.number().int().min(0).default(0),
      limit: z.number().int().min(1).max(100).default(20),
    },
    async handler(args, ctx) {
      const what = `Block uid '${args.blockUid}'`;
      // Roam does not say it hides blocks in comments; we do (src-mcp/roam/hidden-blocks.ts).
      const [result, hidden] = await Promise.all([
        withMissingCheck(ctx, [{ what, ref: { uid: args.blockUid } }], () =>
          callFeature<{ comments?: unknown } | null>(ctx, 'data.ai.getComments', [
            { uid: args.blockUid, ...(args.maxDepth !== undefined ? { maxDepth: args.maxDepth } : {}) },
          ]),
        ),
        fetchHiddenContent(ctx),
      ]);
      if (hidden.uids.has(args.blockUid)) throw notFoundError(what, ctx.graph.nickname);
      const all = (Array.isArray(result?.comments) ? result.comments : []) as RoamComment[];
      let hiddenCount = 0;
      const comments = all.flatMap((c) => {
        const raw = String(c.markdown ?? '');
        const markdown = withoutHiddenTaggedBlocks(raw, hidden.uids);
        if (markdown !== raw) hiddenCount++;
        if (markdown.trim() === '') return [];
        const editable =
          typeof c.singleEditableUid === 'string' && markdown === raw ? c.singleEditableUid : null;
        return [
          {
            author: String(c.author ?? ''),
            createdTime: iso(c.createdTime),
            editedTime: iso(c.editedTime),
            markdown: truncate(markdown, LIMITS.listItem),
            parentUid: String(c.parentUid ?? ''),
            singleEditableUid: editable,
          },
        ];
      });
      return {
        blockUid: args.blockUid,
        ...paginate(comments, args.offset, args.limit),
        ...(hiddenCount > 0
          ? {
              hiddenNote: `${hiddenCount} comment(s) contain blocks the user hid from AI (#.rm-hide / #.rm-private); those blocks are left out.`,
            }
          : {}),
      };
    },
  }),
];
