/**
 * Roam Desktop's UI actions: they read and change what the user sees
 * (the main view, the right sidebar, focus, multi-selection), never graph data. Not filtered for
 * hidden blocks: the hiding rule covers only the data.ai.* reads.
 */
import { extrasOf } from './graph-extras.ts';
import type { RoamGraph } from './roam-graph.ts';

const SIDEBAR_TYPES = ['block', 'outline', 'mentions'];

function object(args: unknown[], what: string, example: string): Record<string, unknown> {
  const value = args[0];
  if (!value || typeof value !== 'object') throw new Error(`${what}: pass ${example}.`);
  return value as Record<string, unknown>;
}

function outlineView(graph: RoamGraph, eid: number) {
  const uid = graph.attr<string>(eid, ':block/uid') as string;
  return graph.isPage(eid)
    ? { type: 'outline', uid, title: graph.attr<string>(eid, ':node/title') }
    : { type: 'outline', uid, 'block-string': graph.attr<string>(eid, ':block/string') ?? '' };
}

function existing(graph: RoamGraph, eid: number | undefined, what: string, name: string): number {
  if (eid === undefined) throw new Error(`${what}: nothing matches ${name} in graph '${graph.name}'.`);
  return eid;
}

export const uiActions: Record<string, (graph: RoamGraph, args: unknown[]) => unknown> = {
  'ui.mainWindow.getOpenView': (graph) => extrasOf(graph).ui.mainView,
  'ui.rightSidebar.getWindows': (graph) => extrasOf(graph).ui.sidebar,
  'ui.getFocusedBlock': (graph) => extrasOf(graph).ui.focused,
  'ui.multiselect.getSelected': (graph) => extrasOf(graph).ui.selected.map((uid) => ({ 'block-uid': uid })),
  'ui.mainWindow.openBlock': (graph, args) => {
    const what = 'ui.mainWindow.openBlock';
    const uid = (object(args, what, '{"block": {"uid": "..."}}').block as { uid?: unknown })?.uid;
    const eid = existing(
      graph,
      typeof uid === 'string' ? graph.eidByUid(uid) : undefined,
      what,
      `uid ${JSON.stringify(uid)}`,
    );
    extrasOf(graph).ui.mainView = outlineView(graph, eid);
    return null;
  },
  'ui.mainWindow.openPage': (graph, args) => {
    const what = 'ui.mainWindow.openPage';
    const page = (object(args, what, '{"page": {"title": "..."}}').page ?? {}) as {
      title?: unknown;
      uid?: unknown;
    };
    const eid =
      typeof page.uid === 'string'
        ? graph.eidByUid(page.uid)
        : typeof page.title === 'string'
          ? graph.eidByTitle(page.title)
          : undefined;
    extrasOf(graph).ui.mainView = outlineView(graph, existing(graph, eid, what, JSON.stringify(page)));
    return null;
  },
  'ui.rightSidebar.addWindow': (graph, args) => {
    const what = 'ui.rightSidebar.addWindow';
    const window = (object(args, what, '{"window": {"type": "outline", "block-uid": "..."}}').window ??
      {}) as Record<string, unknown>;
    const type = String(window.type ?? '');
    if (!SIDEBAR_TYPES.includes(type))
      throw new Error(`${what}: "type" must be one of ${SIDEBAR_TYPES.join(', ')}.`);
    const uid = window['block-uid'];
    existing(
      graph,
      typeof uid === 'string' ? graph.eidByUid(uid) : undefined,
      what,
      `block-uid ${JSON.stringify(uid)}`,
    );
    const ui = extrasOf(graph).ui;
    // Not idempotent: every call opens another pane, on top.
    for (const pane of ui.sidebar) pane.order = (pane.order as number) + 1;
    ui.sidebar.unshift({
      type,
      'window-id': `sidebar-${type}-${uid as string}-${ui.sidebar.length + 1}`,
      [type === 'mentions' ? 'mentions-uid' : 'block-uid']: uid,
      order: 0,
      'pinned-to-top?': false,
      collapsed: false,
    });
    return null;
  },
};
