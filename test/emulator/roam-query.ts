/**
 * `data.ai.roamQuery`: Roam's `{{query: }}` language, not Datalog.
 * Terms are page references (`[[Page]]`, `#Tag`, `#[[Tag]]`) combined with `{and: }`, `{or: }`
 * and `{not: }`. A block matches a term when it, one of its ancestors or its page references the
 * page (Roam's inherited references); results are the blocks that reference a term themselves.
 * Hidden blocks are left out.
 */
import { blockMarkdown, blockPath } from './ai-markdown.ts';
import { isHidden } from './hidden-blocks.ts';
import type { RoamGraph } from './roam-graph.ts';

type Expr = { op: 'and' | 'or' | 'not'; args: Expr[] } | { page: string };

function parse(source: string): Expr {
  let at = 0;
  const fail = (why: string): never => {
    throw new Error(
      `data.ai.roamQuery: ${why} at character ${at} of ${JSON.stringify(source)}. Roam query syntax looks like {and: [[TODO]] {not: [[DONE]]}}.`,
    );
  };
  const skip = () => {
    while (/\s/.test(source[at] ?? '')) at++;
  };
  const bracketed = (): string => {
    at += 2;
    let depth = 1;
    const start = at;
    while (at < source.length && depth > 0) {
      if (source.startsWith('[[', at)) depth++;
      else if (source.startsWith(']]', at)) depth--;
      else {
        at++;
        continue;
      }
      at += 2;
    }
    if (depth > 0) fail('unclosed [[');
    return source.slice(start, at - 2);
  };
  const expr = (): Expr => {
    skip();
    if (source.startsWith('[[', at)) return { page: bracketed() };
    if (source.startsWith('#[[', at)) return (at++, { page: bracketed() });
    if (source[at] === '#') {
      const match = /^#([^\s{}[\]]+)/.exec(source.slice(at)) ?? fail('empty tag');
      at += match[0].length;
      return { page: match[1] as string };
    }
    if (source[at] !== '{') fail('expected [[page]], #tag or {and: ...}');
    const head = /^\{\s*(and|or|not)\s*:/.exec(source.slice(at)) ?? fail('expected {and:, {or: or {not:');
    at += head[0].length;
    const args: Expr[] = [];
    for (skip(); source[at] !== '}'; skip()) {
      if (at >= source.length) fail('unclosed {');
      args.push(expr());
    }
    at++;
    return { op: head[1] as 'and' | 'or' | 'not', args };
  };
  const result = expr();
  skip();
  if (at < source.length) fail('unexpected text');
  return result;
}

/** The query inside a block's `{{query: ...}}` or `{{[[query]]: ...}}`. */
function savedQuery(graph: RoamGraph, uid: string): string {
  const eid = graph.eidByUid(uid);
  const text = eid === undefined ? undefined : graph.attr<string>(eid, ':block/string');
  if (text === undefined)
    throw new Error(`data.ai.roamQuery: no block with uid "${uid}" exists in graph '${graph.name}'.`);
  const match = /\{\{(?:query|\[\[query\]\]):(.*)\}\}/s.exec(text);
  if (!match) throw new Error(`data.ai.roamQuery: block "${uid}" holds no {{query: ...}} component.`);
  return (match[1] as string).trim();
}

function positivePages(expr: Expr, negated = false): string[] {
  if ('page' in expr) return negated ? [] : [expr.page];
  return expr.args.flatMap((arg) => positivePages(arg, negated !== (expr.op === 'not')));
}

function matches(expr: Expr, refs: ReadonlySet<number>, graph: RoamGraph): boolean {
  if ('page' in expr) {
    const eid = graph.eidByTitle(expr.page);
    return eid !== undefined && refs.has(eid);
  }
  if (expr.op === 'and') return expr.args.every((a) => matches(a, refs, graph));
  if (expr.op === 'or') return expr.args.some((a) => matches(a, refs, graph));
  return !expr.args.some((a) => matches(a, refs, graph));
}

function inheritedRefs(graph: RoamGraph, eid: number): Set<number> {
  const refs = new Set<number>([graph.pageOf(eid)]);
  for (const node of [eid, ...graph.ancestors(eid)])
    for (const r of graph.attrs<number>(node, ':block/refs')) refs.add(r);
  return refs;
}

/** Blocks holding a query are not results of it. */
const QUERY_BLOCK = /\{\{(?:query|\[\[query\]\]):/;

const SORT_ATTR: Record<string, string> = { 'created-date': ':create/time', 'edited-date': ':edit/time' };

export function roamQuery(graph: RoamGraph, args: unknown[]): unknown {
  const input = (args[0] ?? {}) as Record<string, unknown>;
  if ((input.uid === undefined) === (input.query === undefined)) {
    throw new Error('data.ai.roamQuery: pass exactly one of "uid" (a block with {{query: }}) and "query".');
  }
  const byUid = typeof input.uid === 'string';
  const expr = parse(byUid ? savedQuery(graph, input.uid as string) : String(input.query));
  const sort = byUid ? 'created-date' : String(input.sort ?? 'created-date');
  const descending = byUid || input.sortOrder !== 'asc';
  const key = (eid: number) =>
    sort === 'daily-note-date'
      ? (graph.attr<number>(graph.pageOf(eid), ':log/id') ?? -Infinity)
      : (graph.attr<number>(eid, SORT_ATTR[sort] ?? ':create/time') ?? 0);
  const candidates = new Set(
    positivePages(expr).flatMap((title) => {
      const page = graph.eidByTitle(title);
      return page === undefined ? [] : graph.referrers(page).filter((r) => !graph.isPage(r));
    }),
  );
  const hits = [...candidates]
    .filter(
      (eid) => !isHidden(graph, eid) && !QUERY_BLOCK.test(graph.attr<string>(eid, ':block/string') ?? ''),
    )
    .filter((eid) => matches(expr, inheritedRefs(graph, eid), graph))
    .sort((a, b) => (descending ? key(b) - key(a) : key(a) - key(b)) || b - a);
  const offset = Number(input.offset ?? 0);
  const limit = Number(input.limit ?? 20);
  return {
    queriedAt: new Date().toISOString(),
    total: hits.length,
    results: hits.slice(offset, offset + limit).map((eid) => ({
      uid: graph.attr<string>(eid, ':block/uid'),
      markdown: blockMarkdown(graph, eid, (input.maxDepth as number | undefined) ?? 1),
      ...(byUid || input.includePath !== false ? { path: blockPath(graph, eid) } : {}),
    })),
  };
}
