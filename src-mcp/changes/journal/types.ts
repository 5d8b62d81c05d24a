/**
 * What the change journal records (docs/undo.md): one JSON record per line, grouped by entry id.
 * An entry is one tool call (or one undo run) on one graph; it holds one op per Local API write,
 * each op carrying what is needed to reverse it. Never a token.
 */
import type { ChatRef } from '../../contract/chat.ts';

export type { ChatRef };

/** How Roam lays a block out, as it is read and written back. */
export interface BlockLayout {
  order?: number;
  open?: boolean;
  heading?: number;
  textAlign?: string;
  viewType?: string;
  blockViewType?: string;
}

/** A block or page as the journal keeps it: enough to recreate it with data.block.create. */
export interface TreeNode extends BlockLayout {
  /** Absent for blocks created from markdown below the top level (Roam returns only top uids). */
  uid?: string;
  string: string;
  /** Roam's entity id when it was read: ids only grow, so it tells what existed before what. */
  eid?: number;
  /**
   * Who Roam said created it when it was read (a user's display name): a delete keeps it, so an
   * undo that brings the block back knows whose it was (created.ts), not whose token restored it.
   */
  by?: string;
  children: TreeNode[];
}

/** A block or page that referred to a deleted one: its text before Roam rewrote it. */
export interface Referrer {
  uid: string;
  string?: string;
  title?: string;
}

export interface DeletedBlock {
  block: TreeNode & { uid: string };
  parent: string;
  page?: string;
}

export interface BlockFields {
  string?: string;
  open?: boolean;
  heading?: number;
  textAlign?: string;
  viewType?: string;
}

export type Op =
  | {
      kind: 'create-blocks';
      parent?: string;
      /** Top-level uids (from Roam's answer, or given by us). */
      uids?: string[];
      /** What was written; `exact` when every uid is known (an undo restoring a delete). */
      tree: TreeNode[];
      exact?: boolean;
      /** Containers this write may have made: the daily note page, the nest-under section. */
      container?: {
        /** `title` when it was named by title: Roam made its uid, unknown before the write. */
        page?: { uid: string; existed: boolean; title?: string };
        section?: { string: string; existed: boolean };
      };
      /** Where the blocks were put, as the tool named it (summaries). */
      where?: string;
    }
  | { kind: 'create-page'; uid?: string; title: string; tree: TreeNode[]; exact?: boolean }
  | {
      kind: 'update-block';
      uid: string;
      before: BlockFields;
      after: BlockFields;
      page?: string;
      /** Pages the new text links to that did not exist before the write (Roam made them). */
      newPages?: string[];
      /** Nested under a block hidden from AI when read: never quoted to an agent. */
      hidden?: true;
    }
  | {
      kind: 'move-block';
      uid: string;
      string?: string;
      /** `above`/`below`: the old neighbours, so the undo puts it back between them. */
      before: { parent: string; order: number; above?: string; below?: string; page?: string };
      after: { parent: string; order: number | 'last' };
      /** Nested under a block hidden from AI when read: never quoted to an agent. */
      hidden?: true;
    }
  | {
      /** Blocks deleted together (one delete, or one batch), each with its subtree. */
      kind: 'delete-blocks';
      items: DeletedBlock[];
      /** Blocks and pages outside all of them that referred into them, with their text then. */
      referrers: Referrer[];
      /** Nested under a block hidden from AI when read: never quoted to an agent. */
      hidden?: true;
    }
  | {
      kind: 'delete-page';
      uid: string;
      title: string;
      eid?: number;
      viewType?: string;
      children: TreeNode[];
      referrers: Referrer[];
    }
  | { kind: 'rename-page'; uid: string; before: string; after: string; referrers?: Referrer[] }
  | {
      kind: 'comment';
      block: string;
      text: string;
      markdown?: boolean;
      uids?: string[];
      container?: string;
      /** The comment's blocks with every uid, read back after the write (nested markdown). */
      tree?: TreeNode[];
      exact?: boolean;
    }
  | { kind: 'shortcut'; page: string; add: boolean; index?: number; before?: string[] }
  | { kind: 'upload'; url?: string; bytes: number; filename?: string; mimetype?: string }
  | {
      kind: 'delete-file';
      url: string;
      kept?: { file: string; mimetype: string; filename?: string; bytes: number };
      notKept?: string;
    }
  | { kind: 'opaque'; action: string; reason: string; detail?: string };

export type OpKind = Op['kind'];

export type JournalRecord =
  | {
      v: 1;
      k: 'begin';
      id: string;
      at: number;
      graph: string;
      graphType?: 'hosted' | 'offline';
      /** The graph's nickname where the change was made (the config's or Roam Companion's). */
      nickname?: string;
      chat: ChatRef;
      tool: string;
      pid: number;
      /** For an undo run: the entries it set out to undo. */
      undoes?: string[];
    }
  | { v: 1; k: 'op'; id: string; n: number; at: number; op: Op; reverses?: { id: string; n: number } }
  | {
      v: 1;
      k: 'done';
      id: string;
      at: number;
      items: Array<{ n: number; ok: boolean; error?: string; patch?: Partial<Op> }>;
    }
  | {
      v: 1;
      k: 'end';
      id: string;
      at: number;
      ok: boolean;
      summary: string;
      error?: string;
      results?: StepResult[];
    };

/** One op's fate in an undo run (kept on the undo entry, shown on the undone entry). */
export interface StepResult {
  id: string;
  n: number;
  status: StepStatus;
  /** What changed, what was in the way, or why nothing was done: one line for a person. */
  detail: string;
  /** Parts left alone although the rest was taken back (a referring block edited since). */
  conflicts?: string[];
}

export type StepStatus =
  'undone' | 'would-undo' | 'already-undone' | 'conflict' | 'not-undoable' | 'nothing-to-undo' | 'failed';

export type OpOutcome = 'applied' | 'failed' | 'unconfirmed' | 'pending';

export interface ChangeOp {
  n: number;
  op: Op;
  outcome: OpOutcome;
  /** When the journal recorded Roam's answer (epoch ms): what the write made is older. */
  answeredAt?: number;
  error?: string;
  /** The undo entry whose op took this one back (and is itself in force). */
  undoneBy?: string;
  reverses?: { id: string; n: number };
  /**
   * Touched a block hidden from AI by a block above it when recorded, or reverses an op that did
   * (so the undo's own entry keeps the secret too).
   */
  hidden?: true;
}

/** An entry as readers see it (listChanges). */
export interface Change {
  id: string;
  at: string;
  graph: string;
  graphType?: 'hosted' | 'offline';
  nickname?: string;
  chat: ChatRef;
  tool: string;
  summary: string;
  status: 'applied' | 'failed' | 'partial' | 'unconfirmed' | 'pending';
  error?: string;
  ops: ChangeOp[];
  /** Something here can still be taken back. */
  undoable: boolean;
  /** Everything that could be taken back has been. */
  undone: boolean;
  /** For an undo run: the entries it set out to undo, and what happened to each op. */
  undoes?: string[];
  results?: StepResult[];
  /** The latest undo run's results for this entry's ops (conflicts stay visible here). */
  lastUndo?: { id: string; at: string; results: StepResult[] };
}
