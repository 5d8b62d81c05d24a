import * as z from 'zod';
import { defineTool } from '../../contract/tool-definition.ts';
import { loadLinkIndex } from '../../navigation/index-cache.ts';
import { linkGraph, mostConnected, neighborhood } from '../../navigation/link-graph.ts';
import { requirePage } from '../../navigation/page-lookup.ts';
import { GRAPH_ANNOTATIONS } from '../../navigation/schemas.ts';
import { LIMITS } from '../../contract/limits.ts';

/** Room left for `center` next to nodes and edges. */
const BUDGET = LIMITS.primary - 300;

const inputSchema = {
  center: z.string().min(1).optional().describe('Page title or uid; omit for the best connected pages'),
  depth: z.number().int().min(0).max(3).default(1).describe('Links to follow from center, either direction'),
  limit: z.number().int().min(1).max(100).default(30).describe('Maximum nodes'),
};

/** `{nodes, edges}` from the cached index: 1 round trip, always within LIMITS.primary characters. */
export const getLinkGraph = defineTool({
  name: 'get_link_graph',
  title: 'Link graph for visualisation',
  description:
    'Nodes and [source, target, references] edges around a page, capped to fit; totals say what was left out.',
  inputSchema,
  outputSchema: {
    center: z.object({ uid: z.string(), title: z.string() }).nullable(),
    nodes: z.array(
      z.object({
        uid: z.string(),
        title: z.string(),
        degree: z.number().int().describe('Distinct linked pages, both directions.'),
        depth: z.number().int().optional().describe('Links away from the center.'),
      }),
    ),
    edges: z
      .array(z.array(z.union([z.string(), z.number().int()])).length(3))
      .describe('[source uid, target uid, referencing blocks].'),
    totalNodes: z.number().int(),
    totalEdges: z.number().int(),
    truncated: z.boolean(),
  },
  annotations: GRAPH_ANNOTATIONS,
  toolset: 'navigation',
  feature: 'the link graph',
  actions: ['data.q'],
  scope: 'graph',
  async handler(args, ctx) {
    const index = await loadLinkIndex(ctx);
    if (args.center === undefined) {
      return { center: null, ...linkGraph(index, mostConnected(index), args.limit, BUDGET) };
    }
    const id = requirePage(index, { title: args.center }, ctx.graph.nickname);
    const center = { uid: index.pages[id]!.uid, title: index.pages[id]!.title };
    const { ranked, depthOf } = neighborhood(index, id, args.depth, args.limit);
    return { center, ...linkGraph(index, ranked, args.limit, BUDGET, depthOf) };
  },
});
