/**
 * Whose blocks are whose, per the journal, for `read-edit-own` (src-mcp/access/own-content.ts
 * asks through the server's `agentCreations`, made in src-mcp/process/run-server.ts) and the tray. An agent's: pages, every block of each create
 * (the top ones from Roam's answer, the nested ones read back after the write), comment blocks,
 * uploaded files' URLs, not undone since. And a block an undo or redo recreates keeps the owner
 * it had when it was deleted, whoever's token restored it (Roam then names that token's user as
 * its creator): the journal, not Roam, is the authority on it.
 */
import { graphId } from '../../../src-shared/constants.ts';
import type { Journal } from './journal.ts';
import type { Change, Op, TreeNode } from './types.ts';

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

/** Every block (and page) a delete op removed, with what Roam said of its creator then. */
function deletedNodes(op: Op): Array<{ uid: string; by?: string }> {
  const walk = (nodes: readonly TreeNode[]): Array<{ uid: string; by?: string }> =>
    nodes.flatMap((n) => [
      ...(n.uid ? [{ uid: n.uid, ...(n.by ? { by: n.by } : {}) }] : []),
      ...walk(n.children),
    ]);
  if (op.kind === 'delete-blocks') return walk(op.items.map((i) => i.block));
  if (op.kind === 'delete-page') return [{ uid: op.uid }, ...walk(op.children)];
  return [];
}

/** What an undo's (or redo's) create put back, every uid known. */
function recreatedIds(op: Op): string[] {
  if (op.kind === 'create-blocks') return [...(op.uids ?? []), ...uidsIn(op.tree)];
  if (op.kind === 'create-page') return [...(op.uid ? [op.uid] : []), ...uidsIn(op.tree)];
  return [];
}

const counts = (outcome: string) => outcome === 'applied' || outcome === 'unconfirmed';

export interface OwnershipOptions {
  journal: Journal;
  graphType?: 'hosted' | 'offline';
  /**
   * The graph's AI user (getGraphGuidelines' `aiUserDisplayName`): a block deleted before the
   * journal knew it was an agent's when Roam named this user its creator then.
   */
  aiUser?: string | null;
}

/**
 * Of `ids` (uids, file URLs), those the journal has a say on: true an agent's, false not an
 * agent's although an undo's token may have recreated it. The journal's changes are played
 * oldest first: creates make an agent's, deletes remember whose each block was, and a create
 * that reverses a delete gives each block back that owner.
 */
export async function agentOwnership(
  graphName: string,
  ids: Iterable<string>,
  options: OwnershipOptions,
): Promise<Map<string, boolean>> {
  const { journal } = options;
  const owner = new Map<string, boolean>();
  const atDelete = new Map<string, Map<string, boolean>>();
  const typed = options.graphType && graphId({ name: graphName, type: options.graphType });
  const onGraph = (c: Change) =>
    c.graph === graphName && (!typed || graphId({ name: c.graph, type: c.graphType }) === typed);
  for (const change of (await journal.changes()).filter(onGraph)) {
    const byAgent = !change.undoes && change.chat.kind !== 'person';
    for (const { n, op, outcome, undoneBy, reverses } of change.ops) {
      if (!counts(outcome)) continue;
      const deleted = deletedNodes(op);
      if (deleted.length > 0) {
        const then = new Map<string, boolean>();
        for (const { uid, by } of deleted) {
          then.set(uid, owner.get(uid) ?? (by !== undefined && by === options.aiUser));
          owner.delete(uid);
        }
        atDelete.set(`${change.id}#${n}`, then);
      } else if (byAgent) {
        if (!undoneBy) for (const id of createdIds(op)) owner.set(id, true);
      } else if (reverses) {
        const then = atDelete.get(`${reverses.id}#${reverses.n}`);
        for (const uid of recreatedIds(op)) owner.set(uid, then?.get(uid) ?? false);
      }
    }
  }
  const said = new Map<string, boolean>();
  for (const id of ids) {
    const verdict = owner.get(id);
    if (verdict !== undefined) said.set(id, verdict);
  }
  return said;
}

/** Of `ids` (uids, file URLs), those an agent created on this graph (and not undone since). */
export async function createdByAgent(
  graphName: string,
  ids: Iterable<string>,
  options: OwnershipOptions,
): Promise<Set<string>> {
  const said = await agentOwnership(graphName, ids, options);
  return new Set([...said].filter(([, own]) => own).map(([id]) => id));
}
