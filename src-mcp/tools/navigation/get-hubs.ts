import * as z from 'zod';
import { paginate } from '../../contract/limits.ts';
import { defineTool } from '../../contract/tool-definition.ts';
import { loadLinkIndex } from '../../navigation/index-cache.ts';
import { inDegrees, memoized, walkedLinks, type LinkIndex } from '../../navigation/link-index.ts';
import { pagerank } from '../../navigation/pagerank.ts';
import {
  GRAPH_ANNOTATIONS,
  includeAttributesField,
  limitField,
  listOutput,
  offsetField,
  pageOutput,
} from '../../navigation/schemas.ts';

const metrics = ['in_degree', 'out_degree', 'pagerank'] as const;
type Metric = (typeof metrics)[number];

const inputSchema = {
  metric: z.enum(metrics).default('in_degree'),
  includeAttributes: includeAttributesField,
  limit: limitField(10, 50),
  offset: offsetField,
};

/** Every page's degrees along the links walked, computed once per index and link set. */
function degrees(index: LinkIndex, includeAttributes: boolean): { in: Int32Array; out: Int32Array } {
  return memoized(index, `degrees:${includeAttributes}`, () => ({
    in: inDegrees(index, includeAttributes),
    out: walkedLinks(index, includeAttributes).out.degrees(),
  }));
}

/** Every page's score and the pages ranked by it, computed once per index, metric and link set. */
function ranking(
  index: LinkIndex,
  metric: Metric,
  includeAttributes: boolean,
): { scores: ArrayLike<number>; order: number[] } {
  return memoized(index, `hubs:${metric}:${includeAttributes}`, () => {
    const scores =
      metric === 'pagerank'
        ? pagerank(walkedLinks(index, includeAttributes).out)
        : degrees(index, includeAttributes)[metric === 'in_degree' ? 'in' : 'out'];
    const order = index.pages.map((_, id) => id).sort((a, b) => scores[b]! - scores[a]! || a - b);
    return { scores, order };
  });
}

/** Most central pages, from the cached index: 1 round trip. */
export const getHubs = defineTool({
  name: 'get_hubs',
  title: 'Most central pages',
  description:
    'Pages ranked by metric: in_degree (pages linking to it), out_degree (pages it links to) or pagerank. Good starting points for exploring a graph.',
  inputSchema,
  outputSchema: {
    metric: z.enum(metrics),
    ...listOutput(
      pageOutput.extend({
        score: z.number(),
        inDegree: z.number().int(),
        outDegree: z.number().int(),
      }),
    ),
  },
  annotations: GRAPH_ANNOTATIONS,
  toolset: 'navigation',
  feature: 'central pages',
  actions: ['data.q'],
  scope: 'graph',
  async handler(args, ctx) {
    const index = await loadLinkIndex(ctx);
    const { scores, order } = ranking(index, args.metric, args.includeAttributes);
    const degree = degrees(index, args.includeAttributes);
    const page = paginate(order, args.offset, args.limit);
    return {
      metric: args.metric,
      ...page,
      items: page.items.map((id) => ({
        uid: index.pages[id]!.uid,
        title: index.pages[id]!.title,
        score: args.metric === 'pagerank' ? Number(scores[id]!.toPrecision(4)) : scores[id]!,
        inDegree: degree.in[id]!,
        outDegree: degree.out[id]!,
      })),
    };
  },
});
