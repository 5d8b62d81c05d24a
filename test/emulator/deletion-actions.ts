/**
 * Deletes with Roam's deletion report: newer builds answer
 * `{deleted: true}` or, for a uid that does not exist, `{deleted: false, reason: "not-found"}`
 * inside a success envelope. Older builds (GraphSpec.olderShapes) answer null and fail on a
 * missing uid.
 */
import type { RoamGraph } from './roam-graph.ts';

type Handler = (graph: RoamGraph, args: unknown[]) => unknown;

function target(args: unknown[], key: 'block' | 'page', action: string): { uid?: string } | undefined {
  const input = args[0];
  if (!input || typeof input !== 'object')
    throw new Error(`${action}: the first argument must be an object, e.g. {"${key}": {"uid": "..."}}.`);
  return (input as Record<string, { uid?: string } | undefined>)[key];
}

const missing = (graph: RoamGraph, uid: unknown) =>
  typeof uid === 'string' && uid !== '' && graph.eidByUid(uid) === undefined;

/** Newer builds: a deletion report. */
export const DELETION_ACTIONS: Record<string, Handler> = {
  'data.block.delete': (graph, args) => {
    const block = target(args, 'block', 'data.block.delete');
    if (missing(graph, block?.uid)) return { deleted: false, reason: 'not-found' };
    graph.deleteBlock(block);
    return { deleted: true };
  },
  'data.page.delete': (graph, args) => {
    const page = target(args, 'page', 'data.page.delete');
    if (missing(graph, page?.uid)) return { deleted: false, reason: 'not-found' };
    graph.deletePage(page);
    return { deleted: true };
  },
};

/** Older builds: no report (null), and a missing uid is an error. */
export const OLDER_DELETION_ACTIONS: Record<string, Handler> = {
  'data.block.delete': (graph, args) => void graph.deleteBlock(target(args, 'block', 'data.block.delete')),
  'data.page.delete': (graph, args) => void graph.deletePage(target(args, 'page', 'data.page.delete')),
};
