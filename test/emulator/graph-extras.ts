/**
 * What a Roam graph window holds besides its database: the AI user agent writes are attributed
 * to, the extension tools and developer extensions loaded in it, and the desktop UI state (main
 * view, right sidebar, focused block, multi-selection). Kept per graph, looked up by the actions.
 */
import type { RoamGraph } from './roam-graph.ts';
import type { ExtensionToolSpec, UiState } from './types.ts';

export interface GraphExtras {
  /** Display name of the AI user comments are attributed to (local-api-actions.md §7). */
  aiUserDisplayName: string;
  extensionTools: readonly ExtensionToolSpec[];
  developerExtensions: ReadonlyArray<{ id: string; name: string }>;
  ui: UiState;
}

export const DEFAULT_AI_USER = 'Roam Assistant (AI)';

const extras = new WeakMap<RoamGraph, GraphExtras>();

export function newUiState(): UiState {
  return { mainView: { type: 'log' }, sidebar: [], focused: null, selected: [] };
}

export function setExtras(graph: RoamGraph, value: Partial<GraphExtras>): GraphExtras {
  const full: GraphExtras = {
    aiUserDisplayName: value.aiUserDisplayName ?? DEFAULT_AI_USER,
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
