/** Writes a parsed markdown tree under a parent, as Roam's fromMarkdown actions do. */
import type { ParsedBlock } from './markdown-blocks.ts';
import type { BlockLocation, RoamGraph } from './roam-graph.ts';

/**
 * Creates `blocks` (and their children) under `parentUid` from position `order`; returns the
 * uids of the top-level blocks. `open: false` collapses only those top-level blocks.
 */
export function insertBlocks(
  graph: RoamGraph,
  parentUid: string,
  blocks: ParsedBlock[],
  order: BlockLocation['order'],
  open = true,
): string[] {
  return blocks.map((block, index) => {
    const uid = graph.createBlock(
      { 'parent-uid': parentUid, order: typeof order === 'number' ? order + index : 'last' },
      { string: block.string, open, ...(block.heading ? { heading: block.heading } : {}) },
    );
    insertBlocks(graph, uid, block.children, 'last');
    return uid;
  });
}
