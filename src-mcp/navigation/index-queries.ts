/**
 * The datalog behind the link index: five plain queries, aggregated on our side (aggregates
 * inside DataScript cost several times more), read row by row into a LinkIndexBuilder: two
 * rounds of requests whatever the graph's size.
 */
import { fetchHiddenBlocks, HIDDEN_BLOCKS_QUERY, HIDING_TAGS } from '../roam/hidden-blocks.ts';
import type { ToolContext } from '../contract/tool-definition.ts';
import { LinkIndexBuilder } from './link-index-builder.ts';
import type { LinkIndex } from './link-index.ts';

export const PAGES_QUERY =
  '[:find ?p ?title ?uid ?t ?log :where [?p :node/title ?title] [?p :block/uid ?uid]' +
  ' [(get-else $ ?p :edit/time 0) ?t] [(get-else $ ?p :log/id 0) ?log]]';

/** Every block with its page and edit time: block counts, last edits, and the block → page join. */
export const BLOCKS_QUERY = '[:find ?b ?p ?t :where [?b :block/page ?p] [(get-else $ ?b :edit/time 0) ?t]]';

/** Every reference; those to blocks (`((uid))`) are dropped on our side. */
export const REFERENCES_QUERY = '[:find ?b ?d :where [?b :block/refs ?d]]';

/**
 * Every attribute reference: a block `role:: engineer` refers to `role` as its attribute (Roam
 * makes it a `:block/refs` like any link). Only blocks holding `::` are looked at.
 */
export const ATTRIBUTES_QUERY =
  '[:find ?b ?a :where [?b :block/string ?s] [(clojure.string/includes? ?s "::")] [?b :block/refs ?a]' +
  ' [?a :node/title ?t] [(str ?t "::") ?attribute] [(clojure.string/starts-with? ?s ?attribute)]]';

/** A built index and the row counts its freshness check compares later (index-freshness.ts). */
export interface BuiltIndex {
  index: LinkIndex;
  /** Page rows and block rows the index was built from (hidden blocks included). */
  pages: number;
  blocks: number;
}

/** Rows of one query into `onRow`: streamed when the context can, else read whole. */
export async function queryRows(
  ctx: ToolContext,
  args: unknown[],
  onRow: (row: readonly unknown[]) => void,
): Promise<void> {
  if (ctx.callRows) return ctx.callRows('data.q', args, onRow);
  for (const row of (await ctx.call<unknown[][] | null>('data.q', args)) ?? []) onRow(row);
}

/**
 * Five requests: pages, blocks and the blocks hidden from AI (whose references and counts the
 * index leaves out) sent together, then the references and the attribute references, which the builder turns into link keys
 * as they arrive once it knows every page and block (Roam answers one request at a time anyway).
 */
export async function fetchLinkIndex(ctx: ToolContext): Promise<BuiltIndex> {
  const builder = new LinkIndexBuilder();
  let pages = 0;
  let blocks = 0;
  await Promise.all([
    queryRows(ctx, [PAGES_QUERY], (row) => {
      pages++;
      builder.addPage(row);
    }),
    queryRows(ctx, [BLOCKS_QUERY], (row) => {
      blocks++;
      builder.addBlock(row);
    }),
    ctx.callRows
      ? queryRows(ctx, [HIDDEN_BLOCKS_QUERY, [...HIDING_TAGS]], builder.addHidden)
      : fetchHiddenBlocks(ctx).then((rows) => rows.forEach(builder.addHidden)),
  ]);
  builder.prepare();
  await Promise.all([
    queryRows(ctx, [REFERENCES_QUERY], builder.addReference),
    queryRows(ctx, [ATTRIBUTES_QUERY], builder.addAttribute),
  ]);
  return { index: builder.finish(), pages, blocks };
}
