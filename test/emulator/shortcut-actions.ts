/**
 * The left sidebar's shortcuts: positional args; the list is graph data
 * (`RoamGraph.shortcuts`, page uids in order), the same list getGraphGuidelines reports as
 * starredPages.
 */
import type { RoamGraph } from './roam-graph.ts';
import type { PageSpec } from './types.ts';

/** The shortcuts a graph starts with: pages with `PageSpec.sidebar`, in that order. */
export function seedShortcuts(graph: RoamGraph, content: readonly PageSpec[]): void {
  graph.shortcuts = content
    .filter((page) => page.sidebar !== undefined)
    .sort((a, b) => (a.sidebar ?? 0) - (b.sidebar ?? 0))
    .flatMap((page) => {
      const eid = graph.eidByTitle(page.title);
      return eid === undefined ? [] : [graph.attr<string>(eid, ':block/uid') as string];
    });
}

function pageUid(graph: RoamGraph, uid: unknown, what: string): string {
  if (typeof uid !== 'string' || uid === '')
    throw new Error(`${what}: the first argument must be a page uid.`);
  const eid = graph.eidByUid(uid);
  if (eid === undefined)
    throw new Error(`${what}: no page with uid "${uid}" exists in graph '${graph.name}'.`);
  if (!graph.isPage(eid)) throw new Error(`${what}: "${uid}" is a block; only pages can be shortcuts.`);
  return uid;
}

/** `data.page.addShortcut(uid, index?)`: appends, or with an index inserts (moving an existing entry). */
export function addShortcut(graph: RoamGraph, args: unknown[]): null {
  const what = 'data.page.addShortcut';
  const uid = pageUid(graph, args[0], what);
  const index = args[1];
  if (index === undefined || index === null) {
    if (!graph.shortcuts.includes(uid)) graph.shortcuts = [...graph.shortcuts, uid];
    return null;
  }
  if (typeof index !== 'number' || !Number.isInteger(index)) {
    throw new Error(`${what}: the index must be an integer, got ${JSON.stringify(index)}.`);
  }
  const after = graph.shortcuts.filter((u) => u !== uid);
  after.splice(Math.min(Math.max(index, 0), after.length), 0, uid);
  graph.shortcuts = after;
  return null;
}

/** `data.page.removeShortcut(uid)`: removes the entry (the page stays); nothing when not starred. */
export function removeShortcut(graph: RoamGraph, args: unknown[]): null {
  const uid = pageUid(graph, args[0], 'data.page.removeShortcut');
  graph.shortcuts = graph.shortcuts.filter((u) => u !== uid);
  return null;
}
