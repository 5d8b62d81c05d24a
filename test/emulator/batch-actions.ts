/**
 * `data.block.updateBlocks` / `data.block.deleteBlocks`: 1–25 items,
 * each applied on its own, answered `{results}` in input order with `{uid, ok}` plus `code` and
 * `message` (or the deletion report's `deleted`/`reason`/`note`) per item. The CHANGELOG's names
 * `updateMany`/`deleteMany` are accepted too.
 */
import type { BlockFields, RoamGraph } from './roam-graph.ts';

type Handler = (graph: RoamGraph, args: unknown[]) => unknown;
type ItemReport = { uid: string; ok: boolean } & Record<string, unknown>;

const MAX_ITEMS = 25;

function list(args: unknown[], key: 'updates' | 'uids', action: string): unknown[] {
  const items = (args[0] as Record<string, unknown> | undefined)?.[key];
  if (!Array.isArray(items) || items.length < 1 || items.length > MAX_ITEMS)
    throw new Error(`${action}: "${key}" must be an array of 1 to ${MAX_ITEMS} items.`);
  return items;
}

/** Why `uid` cannot be edited as a block, or undefined when it can. */
function blockProblem(graph: RoamGraph, uid: unknown): { code: string; message: string } | undefined {
  if (typeof uid !== 'string' || uid === '') return { code: 'VALIDATION_ERROR', message: 'uid is required' };
  const eid = graph.eidByUid(uid);
  if (eid === undefined) return { code: 'NOT_FOUND', message: `no block with uid "${uid}"` };
  if (graph.isPage(eid)) return { code: 'VALIDATION_ERROR', message: `"${uid}" is a page, not a block` };
  return undefined;
}

function updateBlocks(graph: RoamGraph, args: unknown[]): unknown {
  const items = list(args, 'updates', 'data.block.updateBlocks') as BlockFields[];
  const results: ItemReport[] = items.map((item) => {
    const uid = String(item?.uid ?? '');
    const problem = blockProblem(graph, item?.uid);
    if (problem) return { uid, ok: false, ...problem };
    try {
      graph.updateBlock(item);
      return { uid, ok: true };
    } catch (error) {
      return { uid, ok: false, code: 'VALIDATION_ERROR', message: (error as Error).message };
    }
  });
  return { results };
}

function deleteBlocks(graph: RoamGraph, args: unknown[]): unknown {
  const uids = list(args, 'uids', 'data.block.deleteBlocks');
  const goneWith = new Map<string, string>();
  const results: ItemReport[] = uids.map((value) => {
    const uid = String(value ?? '');
    const ancestor = goneWith.get(uid);
    if (ancestor) return { uid, ok: true, deleted: true, note: `deleted with its ancestor ${ancestor}` };
    const problem = blockProblem(graph, value);
    if (problem?.code === 'NOT_FOUND') return { uid, ok: false, deleted: false, reason: 'not-found' };
    if (problem) return { uid, ok: false, ...problem };
    const eid = graph.eidByUid(uid) as number;
    for (const e of graph.subtree(eid).slice(1))
      goneWith.set(graph.attr<string>(e, ':block/uid') as string, uid);
    graph.deleteBlock({ uid });
    return { uid, ok: true, deleted: true };
  });
  return { results };
}

export const BATCH_ACTIONS: Record<string, Handler> = {
  'data.block.updateBlocks': updateBlocks,
  'data.block.deleteBlocks': deleteBlocks,
  'data.block.updateMany': updateBlocks,
  'data.block.deleteMany': deleteBlocks,
};
