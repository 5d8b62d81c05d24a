/**
 * The hiding rule (docs/navigation.md "Hidden blocks") for `data.ai.*`-style markdown Roam does
 * not filter for us (comments): per block, in src-mcp/roam/hidden-blocks.ts.
 */
export { withoutHiddenTaggedBlocks as withoutHiddenBlocks } from './hidden-blocks.ts';
