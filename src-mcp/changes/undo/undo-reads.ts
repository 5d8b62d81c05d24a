/**
 * What the reversals of a run will read, read up front in one batch per depth (issue 40): the
 * targets with their subtrees (what creates made, pages), and the places and blocks they are
 * checked against (parents, moved blocks' old and new places, renamed pages and the titles they
 * go back to, deleted blocks' uids and parents, referrers). Each step then finds them in the
 * view (./roam-state.ts), which models what earlier steps wrote; anything not foreseen here is
 * still read when a step asks for it.
 */
import type { RoamState } from '../journal/roam-state.ts';
import { treeTitles } from '../journal/roam-text.ts';
import type { Op } from '../journal/types.ts';

type Key = { uid: string } | { title: string };

/** Keys a reversal of `op` reads with their subtrees (`deep`) or alone. */
function keysOf(op: Op): { deep: Key[]; shallow: Key[] } {
  const uids = (list: ReadonlyArray<string | undefined>) =>
    list.filter((u): u is string => !!u).map((uid) => ({ uid }));
  const titles = (list: readonly string[]) => list.map((title) => ({ title }));
  switch (op.kind) {
    case 'create-blocks':
      return {
        deep: [
          ...uids(op.uids ?? []),
          ...titles(treeTitles(op.tree)),
          ...(op.container?.page && !op.container.page.existed ? uids([op.container.page.uid]) : []),
        ],
        shallow: uids([op.parent, op.container?.page?.uid]),
      };
    case 'comment':
      return { deep: uids([...(op.uids ?? []), op.container]), shallow: uids([op.block]) };
    case 'create-page':
      return {
        deep: [...(op.uid ? uids([op.uid]) : titles([op.title])), ...titles(treeTitles(op.tree))],
        shallow: [],
      };
    case 'update-block':
      return { deep: titles(op.newPages ?? []), shallow: uids([op.uid]) };
    case 'move-block':
      return { deep: [], shallow: uids([op.uid, op.before.parent, op.after.parent]) };
    case 'rename-page':
      return {
        deep: [],
        shallow: [...uids([op.uid, ...(op.referrers ?? []).map((r) => r.uid)]), ...titles([op.before])],
      };
    case 'delete-blocks':
      return {
        deep: [],
        shallow: uids([
          ...op.items.flatMap((i) => [i.block.uid, i.parent]),
          ...op.referrers.map((r) => r.uid),
        ]),
      };
    case 'delete-page':
      return {
        deep: [],
        shallow: [...uids([op.uid, ...op.referrers.map((r) => r.uid)]), ...titles([op.title])],
      };
    case 'shortcut':
      return { deep: [], shallow: uids([op.page]) };
    default:
      return { deep: [], shallow: [] };
  }
}

const id = (key: Key) => ('uid' in key ? `u:${key.uid}` : `t:${key.title}`);

/** Reads what these ops' reversals will read: at most one round trip per depth. */
export async function readAhead(view: RoamState, ops: readonly Op[]): Promise<void> {
  const deep = new Map<string, Key>();
  const shallow = new Map<string, Key>();
  for (const op of ops) {
    const keys = keysOf(op);
    for (const key of keys.deep) deep.set(id(key), key);
    for (const key of keys.shallow) shallow.set(id(key), key);
  }
  for (const key of deep.keys()) shallow.delete(key);
  await Promise.all([view.load([...deep.values()], true), view.load([...shallow.values()])]);
}
