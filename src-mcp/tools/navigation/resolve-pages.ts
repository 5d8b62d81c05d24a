import * as z from 'zod';
import { defineTool } from '../../contract/tool-definition.ts';
import { loadLinkIndex } from '../../navigation/index-cache.ts';
import { fuzzyMatches, round } from '../../navigation/page-lookup.ts';
import { GRAPH_ANNOTATIONS, pageOutput } from '../../navigation/schemas.ts';

/** Runner-up matches shown per fuzzy name, so the agent can pick another. */
const ALTERNATIVES = 3;

const inputSchema = {
  names: z.array(z.string().min(1)).min(1).max(50),
  strategy: z
    .enum(['exact', 'fuzzy'])
    .default('fuzzy')
    .describe(
      'exact: case-insensitive equality (an existence check); fuzzy: Dice similarity, for typos and variants',
    ),
  threshold: z.number().min(0).max(1).default(0.7).describe('Minimum fuzzy similarity'),
};

/** Name resolution over the cached index's titles: 1 round trip. */
export const resolvePages = defineTool({
  name: 'resolve_pages',
  title: 'Resolve names to pages',
  description:
    'Maps names to existing page titles before you link them, so you write [[Machine Learning]] instead of creating [[machine-learning]].',
  inputSchema,
  outputSchema: {
    results: z.array(
      z.object({
        query: z.string(),
        match: pageOutput.nullable().describe('The best existing page, or null.'),
        score: z.number().describe('1 for exact matches, else the Dice similarity.'),
        alternatives: z.array(pageOutput.extend({ score: z.number() })),
      }),
    ),
    total: z.number().int(),
  },
  annotations: GRAPH_ANNOTATIONS,
  toolset: 'navigation',
  feature: 'page lookup',
  actions: ['data.q'],
  scope: 'graph',
  async handler(args, ctx) {
    const index = await loadLinkIndex(ctx);
    const summary = (id: number) => ({ uid: index.pages[id]!.uid, title: index.pages[id]!.title });
    const results = args.names.map((query) => {
      if (args.strategy === 'exact') {
        const id = index.byTitle.get(query) ?? index.byLowerTitle.get(query.toLowerCase())?.[0];
        return {
          query,
          match: id === undefined ? null : summary(id),
          score: id === undefined ? 0 : 1,
          alternatives: [],
        };
      }
      const exact = index.byTitle.get(query) ?? index.byLowerTitle.get(query.toLowerCase())?.[0];
      const [best, ...rest] =
        exact !== undefined
          ? [{ id: exact, score: 1 }]
          : fuzzyMatches(index, query, args.threshold, 1 + ALTERNATIVES);
      return {
        query,
        match: best ? summary(best.id) : null,
        score: best ? round(best.score) : 0,
        alternatives: rest.map(({ id, score }) => ({ ...summary(id), score: round(score) })),
      };
    });
    return { results, total: results.length };
  },
});
