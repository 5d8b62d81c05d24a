import * as z from 'zod';
import { defineTool } from '../../contract/tool-definition.ts';
import { loadLinkIndex } from '../../navigation/index-cache.ts';
import { walkedLinks } from '../../navigation/link-index.ts';
import { findPage, pageNotFound } from '../../navigation/page-lookup.ts';
import { GRAPH_ANNOTATIONS, includeAttributesField, pageOutput } from '../../navigation/schemas.ts';
import { shortestPath, type PathResult } from '../../navigation/shortest-path.ts';

const inputSchema = {
  source: z.string().min(1),
  target: z.string().min(1),
  maxLength: z.number().int().min(1).max(10).default(6),
  followBacklinks: z.boolean().default(true).describe('Also walk links backwards, as Roam shows both'),
  includeAttributes: includeAttributesField,
};

/** Bounded BFS over the cached link index: 1 round trip (the freshness check). */
export const findPath = defineTool({
  name: 'find_path',
  title: 'Shortest link path between pages',
  description:
    'A shortest chain of links between two pages (title or uid), each hop with its direction; when there is none, says why and what to try.',
  inputSchema,
  outputSchema: {
    found: z.boolean(),
    reason: z
      .enum(['disconnected', 'longer-than-max-length'])
      .optional()
      .describe('Why no path was found (only when found is false).'),
    hint: z.string().optional().describe('What to try next (only when found is false).'),
    source: pageOutput,
    target: pageOutput,
    path: z
      .array(pageOutput.extend({ via: z.enum(['out', 'in']).optional() }))
      .nullable()
      .describe(
        'Pages from source to target; `via` says how the page was reached: out = linked from the previous page, in = links to it.',
      ),
    length: z.number().int().nullable().describe('Number of links in the path.'),
  },
  annotations: GRAPH_ANNOTATIONS,
  toolset: 'navigation',
  feature: 'paths between pages',
  actions: ['data.q'],
  scope: 'graph',
  async handler(args, ctx) {
    const index = await loadLinkIndex(ctx);
    const lookup = (name: string) => {
      const id = findPage(index, name);
      if (id === undefined) throw pageNotFound(index, name, ctx.graph.nickname);
      return id;
    };
    const source = lookup(args.source);
    const target = lookup(args.target);
    const links = walkedLinks(index, args.includeAttributes);
    // Reversed links only for a walk that follows backlinks (derived rows are reversed on demand).
    const incoming = args.followBacklinks ? links.in : undefined;
    const found = shortestPath(links.out, incoming, source, target, args.maxLength);
    const summary = (id: number) => ({ uid: index.pages[id]!.uid, title: index.pages[id]!.title });
    const ends = { source: summary(source), target: summary(target) };
    if (found) {
      const path = found.nodes.map((id, k) =>
        k === 0 ? summary(id) : { ...summary(id), via: found.hops[k - 1] },
      );
      return { found: true, ...ends, path, length: found.hops.length };
    }
    // Unbounded search only to explain the miss: it costs no round trip.
    const longer = shortestPath(links.out, incoming, source, target, index.pages.length);
    return { found: false, ...missReason(longer, args), ...ends, path: null, length: null };
  },
});

/** Why no path was found within maxLength, and what to try next. */
function missReason(
  longer: PathResult | null,
  args: { maxLength: number; followBacklinks: boolean; includeAttributes: boolean },
): { reason: 'disconnected' | 'longer-than-max-length'; hint: string } {
  if (longer) {
    const links = longer.hops.length;
    return {
      reason: 'longer-than-max-length',
      hint:
        links <= 10
          ? `The shortest path has ${links} links: call find_path again with maxLength ${links}.`
          : `The shortest path has ${links} links, more than find_path shows (10): walk it in steps with get_neighbors.`,
    };
  }
  const attributes = args.includeAttributes
    ? ''
    : ' Links that are only attributes (role:: x → role) were left out: includeAttributes true walks them too.';
  return {
    reason: 'disconnected',
    hint:
      (args.followBacklinks
        ? 'No chain of links joins these pages (links from blocks hidden from AI do not count). Try get_neighbors on each page, or search for a page that mentions both.'
        : 'No chain of forward links joins these pages. Retry with followBacklinks true to also walk links backwards.') +
      attributes,
  };
}
