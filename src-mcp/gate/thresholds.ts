/**
 * When the person is asked before a write (docs/mcp.md, "Consent before a write takes much
 * away"): every threshold in one place. What a call takes away adds up, per graph, with what
 * agents took from it in the last WINDOW_MS in every chat and process (consent-ledger.ts), so a
 * deletion split into small calls, or across chats, is asked like one call.
 */
import type { TakenAway } from '../contract/taken-away.ts';

/** More than this many blocks removed, overwritten or moved off their page (window included). */
export const ASK_ABOVE_BLOCKS = 10;
/** A rename that rewrites the links of more than this many blocks. */
export const ASK_ABOVE_LINKS = 10;
/**
 * Files removed from Roam's storage, any at all: the undo cannot give one back as it was (it
 * uploads the kept bytes under a new address, so the blocks that showed it stay broken, and keeps
 * none over 10 MB), and a file is whole, like a page with content, never a small change.
 */
export const ASK_ABOVE_FILES = 0;
/** An undo taking back more than this many changes at once. */
export const ASK_ABOVE_CHANGES = 10;
/** How long what agents took from a graph adds up, and a proposal waits for the person. */
export const WINDOW_MS = 10 * 60_000;
/** How long a decline is remembered for its pages. */
export const DECLINE_MEMORY_MS = 60 * 60_000;

/** Blocks a call takes away: removed (hidden ones too), overwritten, moved off their page. */
export function blocksTaken(taken: TakenAway): number {
  return taken.blocks.length + taken.hidden.length + taken.replaced.length + taken.moved.length;
}

/** Whether it takes anything away at all. */
export function takesAnything(taken: TakenAway): boolean {
  return (
    blocksTaken(taken) > 0 ||
    taken.pages.length > 0 ||
    taken.renames.length > 0 ||
    taken.files.length > 0 ||
    (taken.changes ?? 0) > 0 ||
    taken.unknown !== undefined
  );
}

/**
 * Why this call must be asked, given what the chat took in the window, or undefined. `declined`:
 * it takes from a page whose change the person declined.
 */
export function reasonToAsk(
  taken: TakenAway,
  windowBlocks: number,
  declined: boolean,
): 'page' | 'file' | 'rename' | 'changes' | 'unknown' | 'blocks' | 'declined' | undefined {
  if (!takesAnything(taken)) return undefined;
  if (taken.pages.some((p) => p.blocks > 0)) return 'page';
  if (taken.files.length > ASK_ABOVE_FILES) return 'file';
  if (taken.renames.some((r) => r.links > ASK_ABOVE_LINKS)) return 'rename';
  if ((taken.changes ?? 0) > ASK_ABOVE_CHANGES) return 'changes';
  if (taken.unknown !== undefined) return 'unknown';
  if (blocksTaken(taken) + windowBlocks > ASK_ABOVE_BLOCKS) return 'blocks';
  if (declined) return 'declined';
  return undefined;
}
