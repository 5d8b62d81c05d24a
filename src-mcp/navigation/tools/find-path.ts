import * as z from 'zod';
import type { ToolDefinition } from '../../tool-definition.ts';
import { loadLinkIndex } from '../index-cache.ts';
import { inNeighborLists, outNeighborLists } from '../link-index.ts';
import { findPage, pageNotFound } from '../page-lookup.ts';
import { GRAPH_ANNOTATIONS, pageOutput } from '../schemas.ts';
import { shortestPath } from '../shortest-path.ts';

const inputSchema = {
  source: z.string().min(1).describe('Start page: title or uid.'),
  target: z.string().min(1).describe('End page: title or uid.'),
  maxLength: z
    .number()
    .int()
    .min(1)
    .max(10)
    .default(6)
    .describe('Longest path to look for, in links (1-10).'),
  followBacklinks: z
    .boolean()
    .default(true)
    .describe('Also walk links backwards (from a page to pages referencing it), as Roam shows both.'),
};

/** Bounded BFS over the cached link index: 1 round trip (the freshness check). */
export const findPath: ToolDefinition<typeof inputSchema> = {
  name: 'find_path',
  title: 'Shortest link path between pages',
  description:
    'Find a shortest chain of links between two pages (titles and uids, with the direction of each hop), or path null when none exists within maxLength.',
  inputSchema,
  outputSchema: {
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
    const found = shortestPath(
      outNeighborLists(index),
      inNeighborLists(index),
      source,
      target,
      args.maxLength,
      args.followBacklinks,
    );
    const summary = (id: number) => ({ uid: index.pages[id]!.uid, title: index.pages[id]!.title });
    return {
      source: summary(source),
      target: summary(target),
      path: found
        ? found.nodes.map((id, k) => (k === 0 ? summary(id) : { ...summary(id), via: found.hops[k - 1] }))
        : null,
      length: found ? found.hops.length : null,
    };
  },
};
