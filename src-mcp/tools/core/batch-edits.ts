/**
 * update_blocks and delete_blocks (docs/mcp.md, Batch edits): up to 25 blocks in one Local API
 * call, named and shaped like the official server's, reported per item in input order.
 */
import { removesBlocks, replacesTexts } from '../../gate/plan-readers.ts';
import * as z from 'zod';
import { defineTool } from '../../contract/tool-definition.ts';
import { batchOutcome, readReport } from './batch-report.ts';
import { blockFields, blockWire } from './block-fields.ts';
import { refuseHidden } from './hidden-targets.ts';

const uid = z.string().min(1);
const update = z.object({ uid, ...blockFields }).strict();

const resultItem = z.object({
  uid: z.string(),
  ok: z.boolean(),
  deleted: z.boolean().optional(),
  note: z.string().optional(),
});
const reportOutput = {
  success: z.boolean(),
  succeeded: z.number(),
  failed: z.number(),
  results: z.array(resultItem),
};

/** Roam's kebab-case block fields, only those set (a missing key leaves the attribute alone). */
const wireFields = (item: z.infer<typeof update>, index: number) =>
  blockWire(item, `updates[${index}]`, `updates.${index}`);

/** A batch not done (declined, waiting for the person): its report, with nothing changed. */
const nothingDone = (uids: string[], note: string) => ({
  success: false,
  succeeded: 0,
  failed: 0,
  results: uids.map((uid) => ({ uid, ok: false, note })),
});
const blocksNotDeleted = (args: { uids: string[] }) =>
  nothingDone(args.uids, 'not deleted: the person did not approve it (yet)');
const blocksNotUpdated = (args: { updates: Array<{ uid: string }> }) =>
  nothingDone(
    args.updates.map((u) => u.uid),
    'not updated: the person did not approve it (yet)',
  );

export const batchEditTools = [
  defineTool({
    name: 'update_blocks',
    title: 'Update blocks',
    description:
      'update_block for many blocks at once. Per-item report in order; any failure is an error listing what was applied.',
    toolset: 'core',
    feature: 'batch block updates',
    actions: [
      {
        action: 'data.block.updateBlocks',
        needs: 'a Roam Desktop build with batch edits; until then use update_block once per block',
      },
    ],
    scope: 'graph',
    writes: 'edit',
    editTargets: (args) => args.updates.map((item) => ({ id: item.uid, kind: 'node' })),
    takes: {
      async read(args, ctx) {
        await refuseHidden(ctx, 'update_blocks', { blocks: args.updates.map((u) => u.uid) });
        return replacesTexts(ctx, args.updates);
      },
      nothingDone: blocksNotUpdated,
    },
    annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
    inputSchema: { updates: z.array(update).min(1).max(25) },
    outputSchema: reportOutput,
    async handler(args, ctx) {
      const updates = args.updates.map(wireFields);
      // The whole batch or nothing: a visible item is not written when another one is hidden.
      await refuseHidden(ctx, 'update_blocks', { blocks: args.updates.map((u) => u.uid) });
      const answer = await ctx.call('data.block.updateBlocks', [{ updates }]);
      const uids = args.updates.map((u) => u.uid);
      return batchOutcome('updated', readReport('data.block.updateBlocks', uids, answer));
    },
  }),
  defineTool({
    name: 'delete_blocks',
    title: 'Delete blocks',
    description: 'Deletes blocks, each with its children. Reports as update_blocks does.',
    toolset: 'core',
    feature: 'batch block deletes',
    actions: [
      {
        action: 'data.block.deleteBlocks',
        needs: 'a Roam Desktop build with batch edits; until then use delete_block once per block',
      },
    ],
    scope: 'graph',
    writes: 'edit',
    editTargets: (args) => args.uids.map((id) => ({ id, kind: 'node', subtree: true })),
    takes: {
      async read(args, ctx) {
        await refuseHidden(ctx, 'delete_blocks', { blocks: args.uids });
        return removesBlocks(ctx, args.uids);
      },
      nothingDone: blocksNotDeleted,
    },
    annotations: { destructiveHint: true, idempotentHint: false, openWorldHint: false },
    inputSchema: { uids: z.array(uid).min(1).max(25) },
    outputSchema: reportOutput,
    async handler(args, ctx) {
      await refuseHidden(ctx, 'delete_blocks', { blocks: args.uids });
      const answer = await ctx.call('data.block.deleteBlocks', [{ uids: args.uids }]);
      return batchOutcome('deleted', readReport('data.block.deleteBlocks', args.uids, answer));
    },
  }),
];
