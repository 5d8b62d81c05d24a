/**
 * Every write tool of roam-mcp, with arguments that change the graph of test/reliability's
 * access tests: the graphs they run against, what counts as a write reaching the emulator, and
 * calling each write once (access-every-write.test.ts, access-every-write-tray.test.ts).
 */
import { requiredScope } from '../emulator/action-scopes.ts';
import type { Emulator, GraphSpec, PageSpec } from '../emulator/index.ts';
import { errorOf, type ToolErrorBody } from '../harness/mcp-bin.ts';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** Tools with a visible effect in Roam Desktop but no graph write (readOnlyHint false, no `writes`). */
export const UI_EFFECTS = new Set(['open_main_window', 'open_sidebar', 'setup_new_graph']);
/** Takes back this chat's own changes only: with none made there is nothing to refuse (test/mcp/changes). */
export const NOT_HERE = new Set(['undo_changes']);

const content = (): PageSpec[] => [
  {
    title: 'Notes',
    uid: 'notes-pg',
    sidebar: 0,
    children: [
      { string: 'to update', uid: 'b-update' },
      { string: 'to move', uid: 'b-move' },
      { string: 'to delete', uid: 'b-delete' },
      { string: 'to update in a batch', uid: 'b-batch-up' },
      { string: 'to delete in a batch', uid: 'b-batch-del' },
      { string: 'to comment on', uid: 'b-comment' },
    ],
  },
  { title: 'Target', uid: 'target-pg', children: [{ string: 'stays', uid: 'b-target' }] },
  { title: 'Rename Me', uid: 'rename-pg', children: [] },
  { title: 'Delete Me', uid: 'delete-pg', children: [] },
];
const extensionTools = [
  { tool: 'ext/append-note', description: 'appends', scope: 'append' as const, result: { ok: 1 } },
  { tool: 'ext/rewrite', description: 'rewrites', scope: 'edit' as const, result: { ok: 2 } },
];
export const graph = (name: string, token: string, ai = false): GraphSpec => ({
  name,
  content: content(),
  extensionTools,
  // ai: the token writes as the graph's AI user, so what it creates is an agent's.
  tokens: [{ token, accessLevel: 'full', ...(ai ? { ai } : {}) }],
});

/** One call per write (two for call_extension_tool: an append- and an edit-scoped tool). */
export const WRITES: Record<string, Array<Record<string, unknown>>> = {
  create_page: [{ title: 'Brand New Page' }],
  create_block: [{ pageTitle: 'Another New Page', markdown: '- one\n  - two' }],
  update_block: [{ uid: 'b-update', string: 'overwritten' }],
  move_block: [{ uid: 'b-move', parentUid: 'target-pg' }],
  delete_block: [{ uid: 'b-delete' }],
  update_page: [{ uid: 'rename-pg', title: 'Renamed' }],
  delete_page: [{ uid: 'delete-pg' }],
  update_blocks: [{ updates: [{ uid: 'b-batch-up', string: 'batch overwrite' }] }],
  delete_blocks: [{ uids: ['b-batch-del'] }],
  update_page_markdown: [{ title: 'Target', markdown: '- stays\n- added' }],
  add_comment: [{ blockUid: 'b-comment', comment: 'a comment' }],
  append_to_daily_note: [{ markdown: 'captured' }],
  add_shortcut: [{ uid: 'target-pg' }],
  remove_shortcut: [{ uid: 'notes-pg' }],
  file_upload: [{ base64: Buffer.from('hello').toString('base64'), filename: 'hello.txt' }],
  file_delete: [{ url: 'https://firebasestorage.googleapis.com/v0/b/x/o/y.png' }],
  call_extension_tool: [{ tool: 'ext/append-note' }, { tool: 'ext/rewrite' }],
  reload_dev_extensions: [{}],
};

/** Requests to `graph` that change it or run extension code. */
export const writesTo = (emulator: Emulator, graphName: string) =>
  emulator.requests.filter(
    (r) =>
      r.graph === graphName &&
      r.action !== undefined &&
      (requiredScope(r.action, (r.body as { args?: unknown[] })?.args) !== 'read' ||
        /extension/i.test(r.action)),
  );

/** The write tools a client is offered (tools/list), by name. */
export async function writeToolNames(client: {
  listTools(): Promise<{ tools: Array<{ name: string; annotations?: { readOnlyHint?: boolean } }> }>;
}): Promise<string[]> {
  const { tools } = await client.listTools();
  return tools
    .filter((t) => t.annotations?.readOnlyHint === false && !UI_EFFECTS.has(t.name) && !NOT_HERE.has(t.name))
    .map((t) => t.name)
    .sort();
}

/** Calls every write; returns each answer's error (none: it succeeded). */
export async function callEveryWrite(
  call: (tool: string, args: Record<string, unknown>) => Promise<CallToolResult>,
  tools: string[],
) {
  const answers: Array<{ tool: string; args: Record<string, unknown>; error?: ToolErrorBody }> = [];
  for (const tool of tools) {
    for (const args of WRITES[tool] ?? []) {
      const result = await call(tool, args);
      answers.push({ tool, args, ...(result.isError ? { error: errorOf(result) } : {}) });
    }
  }
  return answers;
}
