/**
 * The left sidebar's shortcuts (local-api-actions.md §8): positional args, graph data stored as
 * `:page/sidebar` (the position) on each starred page, reported as getGraphGuidelines' starredPages.
 */
import datascript from 'datascript';
import type { RoamGraph } from './roam-graph.ts';

const SIDEBAR = ':page/sidebar';

/** Starred page eids in sidebar order. */
function starred(graph: RoamGraph): number[] {
  return [...datascript.datoms(graph.db, ':aevt', SIDEBAR)]
    .sort((a, b) => (a.v as number) - (b.v as number) || a.e - b.e)
    .map((d) => d.e);
}

export function starredPages(graph: RoamGraph): string[] {
  return starred(graph).map((eid) => graph.attr<string>(eid, ':node/title') ?? '');
}

function pageOf(graph: RoamGraph, uid: unknown, what: string): number {
  if (typeof uid !== 'string' || uid === '')
    throw new Error(`${what}: the first argument must be a page uid.`);
  const eid = graph.eidByUid(uid);
  if (eid === undefined)
    throw new Error(`${what}: no page with uid "${uid}" exists in graph '${graph.name}'.`);
  if (!graph.isPage(eid)) throw new Error(`${what}: "${uid}" is a block; only pages can be shortcuts.`);
  return eid;
}

function write(graph: RoamGraph, before: number[], after: number[]): void {
  const ops: unknown[] = before
    .filter((eid) => !after.includes(eid))
    .map((eid) => [':db/retract', eid, SIDEBAR, graph.attr(eid, SIDEBAR)]);
  after.forEach((eid, index) => {
    if (graph.attr(eid, SIDEBAR) !== index) ops.push([':db/add', eid, SIDEBAR, index]);
  });
  if (ops.length) graph.transactOps(ops);
}

/** `data.page.addShortcut(uid, index?)`: appends, or with an index inserts (moving an existing entry). */
export function addShortcut(graph: RoamGraph, args: unknown[]): null {
  const what = 'data.page.addShortcut';
  const eid = pageOf(graph, args[0], what);
  const index = args[1];
  const before = starred(graph);
  if (index === undefined || index === null) {
    if (!before.includes(eid)) write(graph, before, [...before, eid]);
    return null;
  }
  if (typeof index !== 'number' || !Number.isInteger(index)) {
    throw new Error(`${what}: the index must be an integer, got ${JSON.stringify(index)}.`);
  }
  const after = before.filter((e) => e !== eid);
  after.splice(Math.min(Math.max(index, 0), after.length), 0, eid);
  write(graph, before, after);
  return null;
}

/** `data.page.removeShortcut(uid)`: removes the entry (the page stays); nothing when not starred. */
export function removeShortcut(graph: RoamGraph, args: unknown[]): null {
  const eid = pageOf(graph, args[0], 'data.page.removeShortcut');
  const before = starred(graph);
  write(
    graph,
    before,
    before.filter((e) => e !== eid),
  );
  return null;
}
