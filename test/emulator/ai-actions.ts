/** The `data.ai.*` actions: markdown views of pages, blocks, backlinks, search and templates. */
import datascript from 'datascript';
import { blockMarkdown, blockPath, pageMarkdown } from './ai-markdown.ts';
import { isHidden } from './hidden-blocks.ts';
import type { RoamGraph } from './roam-graph.ts';

interface Target {
  uid?: string;
  title?: string;
}

function options<T>(args: unknown[]): T & Record<string, unknown> {
  const first = args[0];
  return (first && typeof first === 'object' ? first : {}) as T & Record<string, unknown>;
}

function findTarget(graph: RoamGraph, target: Target, what: string): number | undefined {
  if (typeof target.uid === 'string') return graph.eidByUid(target.uid);
  if (typeof target.title === 'string') return graph.eidByTitle(target.title);
  throw new Error(`${what}: pass {"uid": "..."} or {"title": "..."}.`);
}

function nonNegative(value: unknown, fallback: number, what: string, name: string): number {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new Error(`${what}: "${name}" must be a non-negative integer, got ${JSON.stringify(value)}.`);
  }
  return value;
}

function markdownOf(graph: RoamGraph, eid: number, maxDepth: number | null | undefined): string {
  return graph.isPage(eid) ? pageMarkdown(graph, eid, maxDepth) : blockMarkdown(graph, eid, maxDepth);
}

/** `data.ai.getPage` → {markdown} or null. */
export function getPage(graph: RoamGraph, args: unknown[]): unknown {
  const input = options<Target & { maxDepth?: number | null }>(args);
  const eid = findTarget(graph, input, 'data.ai.getPage');
  if (eid === undefined || !graph.isPage(eid)) return null;
  return { markdown: pageMarkdown(graph, eid, input.maxDepth) };
}

/** `data.ai.getBlock` → {markdown, path} or null. */
export function getBlock(graph: RoamGraph, args: unknown[]): unknown {
  const input = options<{ uid?: string; maxDepth?: number | null }>(args);
  if (typeof input.uid !== 'string') throw new Error('data.ai.getBlock: pass {"uid": "..."}.');
  const eid = graph.eidByUid(input.uid);
  // A hidden block reads as missing.
  if (eid === undefined || isHidden(graph, eid)) return null;
  return { markdown: markdownOf(graph, eid, input.maxDepth), path: blockPath(graph, eid) };
}

const SORTS = ['created-date', 'edited-date', 'daily-note-date'] as const;

/** `data.ai.getBacklinks` → {total, results: [{uid, markdown, path, type}]}. */
export function getBacklinks(graph: RoamGraph, args: unknown[]): unknown {
  const what = 'data.ai.getBacklinks';
  const input = options<Target>(args);
  const eid = findTarget(graph, input, what);
  if (eid === undefined) {
    throw new Error(
      `${what}: no page or block matches ${JSON.stringify(input.uid ?? input.title)} in graph '${graph.name}'.`,
    );
  }
  const offset = nonNegative(input.offset, 0, what, 'offset');
  const limit = nonNegative(input.limit, 20, what, 'limit');
  const sort = (input.sort ?? 'created-date') as (typeof SORTS)[number];
  if (!SORTS.includes(sort)) throw new Error(`${what}: "sort" must be one of ${SORTS.join(', ')}.`);
  const descending = (input.sortOrder ?? 'desc') !== 'asc';
  const search = typeof input.search === 'string' ? input.search.toLowerCase() : '';
  const maxDepth = (input.maxDepth as number | null | undefined) ?? 1;

  const sortKey = (referrer: number): number => {
    if (sort === 'edited-date') return graph.attr<number>(referrer, ':edit/time') ?? 0;
    if (sort === 'daily-note-date') return graph.attr<number>(graph.pageOf(referrer), ':log/id') ?? -Infinity;
    return graph.attr<number>(referrer, ':create/time') ?? 0;
  };
  const matching = graph
    .referrers(eid)
    .filter((r) => !search || (graph.attr<string>(r, ':block/string') ?? '').toLowerCase().includes(search))
    .map((r) => ({ r, key: sortKey(r) }))
    .sort((a, b) => (descending ? b.key - a.key : a.key - b.key) || a.r - b.r);
  // Roam filters hidden blocks after paging, so `shown` can be below `limit`.
  const window = matching.slice(offset, offset + limit);
  const results = window
    .filter(({ r }) => !isHidden(graph, r))
    .map(({ r }) => ({
      uid: graph.attr<string>(r, ':block/uid'),
      ...(graph.isPage(r) ? { type: 'page' } : {}),
      markdown: markdownOf(graph, r, maxDepth),
      ...(input.includePath === false ? {} : { path: blockPath(graph, r) }),
    }));
  const next = offset + window.length;
  return {
    total: matching.length,
    shown: results.length,
    results,
    ...(window.length > 0 && next < matching.length
      ? { note: `More backlinks remain: pass offset ${next}.`, nextOffset: next }
      : {}),
  };
}

function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** `data.ai.search`: every query word must occur (case-insensitive); pages first, then blocks by edit time. */
export function search(graph: RoamGraph, args: unknown[]): unknown {
  const what = 'data.ai.search';
  const input = options<{ query?: string }>(args);
  if (typeof input.query !== 'string' || input.query.trim() === '') {
    throw new Error(`${what}: "query" is required (a non-empty string).`);
  }
  const offset = nonNegative(input.offset, 0, what, 'offset');
  const limit = nonNegative(input.limit, 20, what, 'limit');
  const scope = (input.scope ?? 'all') as string;
  if (!['all', 'pages', 'blocks'].includes(scope))
    throw new Error(`${what}: "scope" must be all, pages or blocks.`);
  const maxDepth = (input.maxDepth as number | null | undefined) ?? 0;
  const needles = input.query.toLowerCase().split(/\s+/).filter(Boolean);
  const matches = (text: string) => {
    const lower = text.toLowerCase();
    return needles.every((needle) => lower.includes(needle));
  };
  const hits: Array<{ eid: number; page: boolean; key: number }> = [];
  if (scope !== 'blocks') {
    for (const datom of datascript.datoms(graph.db, ':aevt', ':node/title')) {
      if (matches(datom.v as string))
        hits.push({ eid: datom.e, page: true, key: (datom.v as string).length });
    }
    hits.sort((a, b) => a.key - b.key || a.eid - b.eid);
  }
  if (scope !== 'pages') {
    const blocks: typeof hits = [];
    for (const datom of datascript.datoms(graph.db, ':aevt', ':block/string')) {
      if (matches(datom.v as string) && !isHidden(graph, datom.e))
        blocks.push({ eid: datom.e, page: false, key: graph.attr<number>(datom.e, ':edit/time') ?? 0 });
    }
    hits.push(...blocks.sort((a, b) => b.key - a.key || a.eid - b.eid));
  }
  return {
    total: hits.length,
    results: hits.slice(offset, offset + limit).map(({ eid, page }) => ({
      uid: graph.attr<string>(eid, ':block/uid'),
      markdown: markdownOf(graph, eid, maxDepth),
      ...(input.includePath === false ? {} : { path: page ? '' : blockPath(graph, eid) }),
      type: page ? 'page' : 'block',
    })),
  };
}

/** Children as plain markdown (no uid tags): what a template inserts. */
function plainOutline(graph: RoamGraph, eid: number, level = 0): string[] {
  return graph
    .children(eid)
    .flatMap((child) => [
      `${'  '.repeat(level)}- ${graph.attr<string>(child, ':block/string') ?? ''}`,
      ...plainOutline(graph, child, level + 1),
    ]);
}

/**
 * `data.ai.searchTemplates` → [{name, uid, content}] for blocks tagged [[roam/templates]]. Roam
 * does NOT apply the hiding rule here, so neither does the emulator.
 */
export function searchTemplates(graph: RoamGraph, args: unknown[]): unknown {
  const query = String(options<{ query?: string }>(args).query ?? '').toLowerCase();
  const tag = graph.eidByTitle('roam/templates');
  if (tag === undefined) return [];
  return graph
    .referrers(tag)
    .filter((eid) => !graph.isPage(eid))
    .map((eid) => ({
      name: (graph.attr<string>(eid, ':block/string') ?? '')
        .replace(/#?\[\[roam\/templates\]\]|#roam\/templates/g, '')
        .trim(),
      uid: graph.attr<string>(eid, ':block/uid') as string,
      content: plainOutline(graph, eid).join('\n'),
    }))
    .filter((template) => template.name.toLowerCase().includes(query))
    .sort((a, b) => a.name.localeCompare(b.name));
}

function vector(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const word of words(text)) counts.set(word, (counts.get(word) ?? 0) + 1);
  return counts;
}

/** `data.ai.semanticSearch`: lexical bag-of-words cosine similarity standing in for embeddings. */
export function semanticSearch(graph: RoamGraph, args: unknown[]): unknown {
  const what = 'data.ai.semanticSearch';
  const input = options<{ query?: string }>(args);
  if (typeof input.query !== 'string' || input.query.trim() === '') {
    throw new Error(`${what}: "query" is required (a non-empty string).`);
  }
  const limit = nonNegative(input.limit, 10, what, 'limit');
  const query = vector(input.query);
  const queryNorm = Math.hypot(...query.values());
  const scored: Array<{ eid: number; score: number }> = [];
  for (const datom of datascript.datoms(graph.db, ':aevt', ':block/string')) {
    if (isHidden(graph, datom.e)) continue;
    const doc = vector(datom.v as string);
    let dot = 0;
    for (const [word, count] of query) dot += count * (doc.get(word) ?? 0);
    if (dot > 0) scored.push({ eid: datom.e, score: dot / (queryNorm * Math.hypot(...doc.values())) });
  }
  scored.sort((a, b) => b.score - a.score || a.eid - b.eid);
  return {
    results: scored.slice(0, limit).map(({ eid, score }) => ({
      uid: graph.attr<string>(eid, ':block/uid'),
      markdown: blockMarkdown(graph, eid, 0),
      path: blockPath(graph, eid),
      score: Math.round(score * 1000) / 1000,
    })),
  };
}
