/**
 * What agents created, per the journal, for `read-edit-own` (src-mcp/access/own-content.ts asks
 * through `setAgentCreations`) and the tray: pages, every block of each create (the top ones
 * from Roam's answer, the nested ones read back after the write), comment blocks, uploaded
 * files' URLs; not what was undone since.
 */
import { graphId } from '../../../src-shared/constants.ts';
import { defaultJournal, type Journal } from './journal.ts';
import type { Op, TreeNode } from './types.ts';

function createdIds(op: Op): string[] {
  if (op.kind === 'create-blocks') {
    // A page the write made on the way (a daily note, or a title Roam created in the same call).
    const page = op.container?.page;
    // Read back after the write: every block of the outline is known by uid.
    const nested = op.exact ? uidsIn(op.tree) : [];
    return [...(op.uids ?? []), ...nested, ...(page && !page.existed && page.uid ? [page.uid] : [])];
  }
  if (op.kind === 'create-page') return [...(op.uid ? [op.uid] : []), ...(op.exact ? uidsIn(op.tree) : [])];
  if (op.kind === 'comment') return [...(op.uids ?? []), ...(op.container ? [op.container] : [])];
  if (op.kind === 'upload') return op.url ? [op.url] : [];
  return [];
}

const uidsIn = (tree: readonly TreeNode[]): string[] =>
  tree.flatMap((n) => [...(n.uid ? [n.uid] : []), ...uidsIn(n.children)]);

/** Of `ids` (uids, file URLs), those an agent created on this graph. */
export async function createdByAgent(
  graphName: string,
  ids: Iterable<string>,
  options: { journal?: Journal; graphType?: 'hosted' | 'offline' } = {},
): Promise<Set<string>> {
  const wanted = new Set(ids);
  const found = new Set<string>();
  const journal = options.journal ?? (await defaultJournal());
  const typed = options.graphType && graphId({ name: graphName, type: options.graphType });
  for (const change of await journal.changes()) {
    if (change.graph !== graphName || change.undoes || change.chat.kind === 'person') continue;
    if (typed && graphId({ name: change.graph, type: change.graphType }) !== typed) continue;
    for (const { op, outcome, undoneBy } of change.ops) {
      if (undoneBy || (outcome !== 'applied' && outcome !== 'unconfirmed')) continue;
      for (const id of createdIds(op)) if (wanted.has(id)) found.add(id);
    }
  }
  return found;
}
