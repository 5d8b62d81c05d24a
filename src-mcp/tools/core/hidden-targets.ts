/**
 * An agent cannot change what it cannot see (docs/mcp.md, Hidden blocks): an edit, move or delete
 * addressed to a block hidden from AI (tagged `#.rm-hide` / `#.rm-private`, or nested under such a
 * block), or new or moved blocks placed under one, is refused before anything is written. The
 * refusal names the uids the agent gave, never what they hold. A visible block or page moved or
 * deleted carries its hidden subtree intact: that stays allowed.
 */
import type { ToolContext } from '../../contract/tool-definition.ts';
import { ToolError } from '../../contract/tool-errors.ts';
import { carriesHidingTag, hiddenAmong, hidingTagPagesAmong } from '../../roam/hidden-blocks.ts';

export interface HiddenCheck {
  /** Blocks the write changes, moves or deletes. */
  blocks?: readonly string[];
  /** Parents the write puts blocks under. */
  places?: readonly string[];
  /**
   * The text of the section the blocks go under (`nestUnder`): a child with a hiding tag in its
   * text is hidden, found or made.
   */
  section?: string | undefined;
}

const WHY = 'it or a block above it is tagged #.rm-hide or #.rm-private';

/** Throws HIDDEN_CONTENT (nothing changed) when any block or place is hidden from AI now. */
export async function refuseHidden(
  ctx: Pick<ToolContext, 'call'>,
  tool: string,
  { blocks = [], places = [], section }: HiddenCheck,
): Promise<void> {
  if (section !== undefined && carriesHidingTag(section))
    throw new ToolError(
      'HIDDEN_CONTENT',
      `${tool} was refused: \`nestUnder\` carries a hiding tag (#.rm-hide / #.rm-private), so the section is hidden from AI, and an agent cannot put blocks where it cannot see. Nothing was changed. Name a section without the tag, or leave nestUnder out.`,
      { field: 'nestUnder' },
    );
  const hidden = await hiddenAmong(ctx, [...blocks, ...places]);
  if (hidden.size === 0) return;
  const named = (uids: readonly string[]) => [...new Set(uids.filter((uid) => hidden.has(uid)))];
  const hiddenBlocks = named(blocks);
  const hiddenPlaces = named(places);
  const list = (uids: string[]) => uids.map((uid) => `'${uid}'`).join(', ');
  const reason =
    hiddenBlocks.length > 0
      ? `${hiddenBlocks.length === 1 ? 'block' : 'blocks'} ${list(hiddenBlocks)} ${hiddenBlocks.length === 1 ? 'is' : 'are'} hidden from AI (${WHY}), and an agent cannot change, move or delete what it cannot see`
      : `${hiddenPlaces.length === 1 ? 'parent' : 'parents'} ${list(hiddenPlaces)} ${hiddenPlaces.length === 1 ? 'is' : 'are'} hidden from AI (${WHY}), and an agent cannot put blocks where it cannot see`;
  throw new ToolError(
    'HIDDEN_CONTENT',
    `${tool} was refused: ${reason}. Nothing was changed. Leave hidden blocks to the person; work on visible blocks (get_page shows them).`,
    { hidden_uids: [...new Set([...hiddenBlocks, ...hiddenPlaces])], suggested_next_tool: 'get_page' },
  );
}

/** Throws HIDDEN_CONTENT (nothing changed) when the page is a hiding tag's own page. */
export async function refuseHidingTagPage(
  ctx: Pick<ToolContext, 'call'>,
  tool: string,
  pageUid: string,
): Promise<void> {
  if ((await hidingTagPagesAmong(ctx, [pageUid])).size === 0) return;
  throw new ToolError(
    'HIDDEN_CONTENT',
    `${tool} was refused: page '${pageUid}' is a hiding tag (.rm-hide / .rm-private), and renaming or deleting it would rewrite every tag that hides blocks from AI, showing them. Nothing was changed. Leave the tag pages to the person.`,
    { hidden_uids: [pageUid] },
  );
}
