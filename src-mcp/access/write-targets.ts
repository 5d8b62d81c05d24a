/**
 * What each editing tool changes, for `read-edit-own` (docs/mcp.md, Access levels): the blocks,
 * pages or files whose creator decides whether an agent may change them. A delete takes the whole
 * subtree with it, and so does a move: every block under the target must be an agent’s too. An editing tool missing
 * here cannot be limited to agents' content and is refused under `read-edit-own`
 * (test/mcp/access/access-levels.test.ts lists every `writes: 'edit'` tool).
 */

export interface WriteTarget {
  /** A block or page uid; for a file, its URL. */
  id: string;
  kind: 'node' | 'file';
  /** The change takes everything under the target with it (deletes, moves). */
  subtree?: boolean;
}

type Args = Record<string, unknown>;

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const node = (id: unknown, subtree = false): WriteTarget => ({
  id: text(id),
  kind: 'node',
  ...(subtree ? { subtree } : {}),
});
const items = (value: unknown): Args[] => (Array.isArray(value) ? (value as Args[]) : []);

export const EDIT_TARGETS: Record<string, (args: Args) => WriteTarget[]> = {
  update_block: (args) => [node(args.uid)],
  // A move carries the subtree: a person's block under the agent's would go with it.
  move_block: (args) => [node(args.uid, true)],
  delete_block: (args) => [node(args.uid, true)],
  update_page: (args) => [node(args.uid)],
  delete_page: (args) => [node(args.uid, true)],
  update_blocks: (args) => items(args.updates).map((update) => node(update.uid)),
  delete_blocks: (args) =>
    (Array.isArray(args.uids) ? (args.uids as unknown[]) : []).map((uid) => node(uid, true)),
  file_delete: (args) => [{ id: text(args.url), kind: 'file' }],
};

/** Runs extension code: allowed by the scope the extension declares for the tool it names. */
export const EXTENSION_TOOL = 'call_extension_tool';

/** What a write tool does, in a refusal: its kind of write, unless it is special. */
export function whatItDoes(tool: { name: string; writes?: 'append' | 'edit' }): string {
  if (tool.name === 'reload_dev_extensions')
    return 'reload_dev_extensions runs extension code, which can change anything';
  return tool.writes === 'append'
    ? `${tool.name} adds to the graph`
    : `${tool.name} edits, moves or deletes existing content`;
}
