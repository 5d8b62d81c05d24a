/**
 * `linkedReferences` beside `markdown` in data.ai.getPage / getBlock results on newer builds:
 * the first few references, shallow, in getBacklinks' order, hidden
 * blocks left out; `note` only when more remain; an explicit zero for an unreferenced target.
 * Older builds (GraphSpec.olderShapes) answer without the key.
 */
import { getBacklinks, getBlock, getPage } from './ai-actions.ts';
import type { RoamGraph } from './roam-graph.ts';

/** How many references the preview holds (Roam's number is not documented). */
const PREVIEW = 5;

interface Page {
  total: number;
  shown: number;
  results: unknown[];
  nextOffset?: number;
}

function preview(graph: RoamGraph, uid: string): Record<string, unknown> {
  const page = getBacklinks(graph, [{ uid, limit: PREVIEW, maxDepth: 0 }]) as Page;
  return {
    total: page.total,
    shown: page.shown,
    results: page.results,
    ...(page.nextOffset !== undefined
      ? { note: `More linked references: getBacklinks with offset ${page.nextOffset}.` }
      : {}),
  };
}

export function getPageWithReferences(graph: RoamGraph, args: unknown[]): unknown {
  const result = getPage(graph, args) as { markdown: string } | null;
  if (!result) return result;
  const input = (args[0] ?? {}) as { uid?: string; title?: string };
  const eid = input.uid ? graph.eidByUid(input.uid) : graph.eidByTitle(String(input.title));
  const uid = graph.attr<string>(eid as number, ':block/uid') as string;
  return { uid, ...result, linkedReferences: preview(graph, uid) };
}

export function getBlockWithReferences(graph: RoamGraph, args: unknown[]): unknown {
  const result = getBlock(graph, args) as { markdown: string } | null;
  if (!result) return result;
  const uid = String((args[0] as { uid: string }).uid);
  return { uid, ...result, linkedReferences: preview(graph, uid) };
}
