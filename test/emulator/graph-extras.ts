/**
 * What a Roam graph window holds besides its database: the extension tools and developer
 * extensions loaded in it, and the desktop UI state (main view, right sidebar, focused block,
 * multi-selection). Kept per graph, looked up by the actions.
 */
import type { RoamGraph } from './roam-graph.ts';
import type { ExtensionToolSpec, UiState } from './types.ts';

export interface GraphExtras {
  extensionTools: readonly ExtensionToolSpec[];
  developerExtensions: ReadonlyArray<{ id: string; name: string }>;
  ui: UiState;
}

const extras = new WeakMap<RoamGraph, GraphExtras>();

export function newUiState(): UiState {
  return { mainView: { type: 'log' }, sidebar: [], focused: null, selected: [] };
}

export function setExtras(graph: RoamGraph, value: Partial<GraphExtras>): GraphExtras {
  const full: GraphExtras = {
    extensionTools: value.extensionTools ?? [],
    developerExtensions: value.developerExtensions ?? [],
    ui: value.ui ?? newUiState(),
  };
  extras.set(graph, full);
  return full;
}

export function extrasOf(graph: RoamGraph): GraphExtras {
  return extras.get(graph) ?? setExtras(graph, {});
}
