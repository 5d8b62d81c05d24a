/**
 * What a write would take away, in a person's units (docs/mcp.md, "Consent before a write takes
 * much away"): a write tool's plan reader (`takes` in its declaration, or the plan
 * update_page_markdown hands `ctx.allowEdits`) answers it before anything is written, and the
 * gate (src-mcp/gate/consent.ts) decides from it alone whether the person must say yes.
 */

/** A block as a person knows it: its text and the page it is on (never shown by uid). */
export interface PlacedBlock {
  uid: string;
  text: string;
  page?: string;
  /** For a replaced text: the text that comes instead (the question shows it beside `text`). */
  newText?: string;
}

/** A block hidden from AI, by uid and the page it is on (a decline of the page covers it). */
export interface HiddenBlock {
  uid: string;
  page?: string;
}

/** A graph by its key (`graphId`: type and name) and the nickname a person knows it by. */
export interface GraphRef {
  id: string;
  nickname: string;
}

export interface TakenAway {
  /** Visible blocks removed, each block of a removed subtree listed (a removed page's too). */
  blocks: PlacedBlock[];
  /** Removed or overwritten blocks hidden from AI: counted, never named or quoted. */
  hidden: HiddenBlock[];
  /**
   * Pages removed: title, blocks on it (`hidden` of them hidden), the blocks elsewhere that link
   * to it (`uids`: which, so a yes covers those links and no others).
   */
  pages: Array<{
    uid: string;
    title: string;
    blocks: number;
    hidden: number;
    linkedFrom: { blocks: number; pages: string[]; uids: string[] };
  }>;
  /** Blocks whose text would be replaced (`text`: the text that goes; `newText`: what comes). */
  replaced: PlacedBlock[];
  /**
   * Blocks a rewrite writes new beside what it takes (update_page_markdown): not counted as taken,
   * but shown in its question, so a yes covers what comes too.
   */
  added?: Array<{ text: string; page?: string }>;
  /** Blocks moved off their page (each block of the moved subtree). */
  moved: PlacedBlock[];
  /** Page renames: the blocks whose links Roam rewrites. */
  renames: Array<{ uid: string; from: string; to: string; links: number; linkPages: string[] }>;
  /**
   * Files removed from Roam's storage: `name` as a person knows it (the last part of its address),
   * and the blocks that show it (they would show a broken link; the undo uploads the file again
   * under a new address, which they do not point to).
   */
  files: Array<{ url: string; name: string; shownIn: { blocks: number; pages: string[] } }>;
  /** An undo: the changes it takes back. */
  changes?: number;
  /** Code whose effects are unknown and cannot be undone (an extension tool that may write). */
  unknown?: string;
  /**
   * A call that names no graph itself (an undo): each graph's part, judged on its own; the fields
   * above are their sum, as the person is shown it.
   */
  byGraph?: Array<{ graph: GraphRef; taken: TakenAway }>;
}

export const NOTHING_TAKEN: TakenAway = {
  blocks: [],
  hidden: [],
  pages: [],
  replaced: [],
  moved: [],
  renames: [],
  files: [],
};
