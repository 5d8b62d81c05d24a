/**
 * The data the server hands the change-review app in a tool result's `_meta`
 * (src-mcp/apps/change-review-data.ts builds it; the app reads it in results.ts).
 */
import type { OpDescription } from '../../changes/undo/describe.ts';

/** A block as the app shows it: its text and what is under it, no uid. */
export interface AppBlock {
  string: string;
  children: AppBlock[];
}

/** A place in the graph as a person names it: the page, and the parent block's text if any. */
export interface AppPlace {
  page?: string;
  block?: string;
}

export interface AppOp {
  /** The op's number in its change (undo steps name it). */
  n: number;
  kind: OpDescription['kind'];
  /** Only for what the app does not draw itself (shortcuts, files, other): summaries name uids. */
  summary?: string;
  page?: string;
  /** A create or delete of the page itself (not of blocks on it). */
  target?: 'page';
  before?: string;
  after?: string;
  blocks?: AppBlock[];
  /** Blocks left out of `blocks` (a large outline is cut). */
  more?: number;
  from?: AppPlace;
  to?: AppPlace;
}

/** One undo step's extra: for an edit someone changed since, the block's text now. */
export interface AppStep {
  n: number;
  now?: string;
}

export interface AppChange {
  ops: AppOp[];
  /** Only for undo_changes: per step of the report, in its order. */
  steps?: AppStep[];
}
