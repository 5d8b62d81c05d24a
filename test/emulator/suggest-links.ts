/**
 * `data.ai.suggestLinks`: existing pages whose title occurs in the
 * passage (whole words, any case) and is not linked there yet, longest title first. Nothing is
 * written.
 */
import datascript from 'datascript';
import type { RoamGraph } from './roam-graph.ts';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function suggestLinks(graph: RoamGraph, args: unknown[]): unknown {
  const what = 'data.ai.suggestLinks';
  const input = (args[0] ?? {}) as { text?: unknown; maxResults?: unknown };
  if (typeof input.text !== 'string') throw new Error(`${what}: "text" is required (a string).`);
  const max = input.maxResults ?? 20;
  if (typeof max !== 'number' || !Number.isInteger(max) || max < 1) {
    throw new Error(`${what}: "maxResults" must be a positive integer, got ${JSON.stringify(max)}.`);
  }
  const text = input.text;
  const suggestions: Array<{ title: string; uid: string; text: string }> = [];
  for (const datom of datascript.datoms(graph.db, ':aevt', ':node/title')) {
    const title = datom.v as string;
    if (title.length < 3 || text.includes(`[[${title}]]`) || text.includes(`#${title}`)) continue;
    const match = new RegExp(`(?<![\\p{L}\\p{N}])${escape(title)}(?![\\p{L}\\p{N}])`, 'iu').exec(text);
    if (match)
      suggestions.push({ title, uid: graph.attr<string>(datom.e, ':block/uid') as string, text: match[0] });
  }
  suggestions.sort((a, b) => b.title.length - a.title.length || a.title.localeCompare(b.title));
  return { suggestions: suggestions.slice(0, max) };
}
