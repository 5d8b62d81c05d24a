import * as z from 'zod';
import { LIMITS, truncate } from '../../contract/limits.ts';
import { defineTool } from '../../contract/tool-definition.ts';
import { pathText } from '../../roam/linked-references.ts';
import { GRAPH_ANNOTATIONS, limitField, listOutput, offsetField } from '../../navigation/schemas.ts';

/** The most results Roam is asked for: deep paging through similarity ranks is not useful. */
const MAX_RANK = 200;

const inputSchema = {
  query: z.string().min(1).max(1000),
  limit: limitField(10, 50),
  offset: offsetField,
};

interface SemanticHit {
  uid?: string;
  markdown?: string;
  string?: string;
  /** "A > B" as Roam types it here; a string array elsewhere, so either is read. */
  path?: unknown;
  score?: number;
}

/**
 * Roam's own `data.ai.semanticSearch`, listed only where the Local API offers it. 1 round trip;
 * Roam reports no total, so `total` is known only once the last page is reached.
 */
export const semanticSearch = defineTool({
  name: 'semantic_search',
  title: 'Semantic search',
  description:
    'Blocks whose meaning is close to a natural-language query (synonyms, not just words), best first, with their page path.',
  inputSchema,
  outputSchema: {
    ...listOutput(
      z.object({
        uid: z.string(),
        text: z.string().describe('Block markdown, at most 500 characters.'),
        path: z.string().describe('Page > parent blocks.'),
        score: z.number().describe('Similarity, higher is closer.'),
      }),
    ),
    total: z.number().int().nullable().describe('All matches, or null while more pages remain.'),
  },
  annotations: GRAPH_ANNOTATIONS,
  toolset: 'navigation',
  feature: 'semantic search',
  actions: [
    {
      action: 'data.ai.semanticSearch',
      needs: 'embeddings turned on for the graph and a signed-in user',
      probe: true,
    },
  ],
  scope: 'graph',
  async handler(args, ctx) {
    const wanted = Math.min(MAX_RANK, args.offset + args.limit + 1);
    const result = await ctx.call<{ results?: SemanticHit[]; total?: number } | SemanticHit[] | null>(
      'data.ai.semanticSearch',
      [{ query: args.query, limit: wanted }],
    );
    const hits = (Array.isArray(result) ? result : (result?.results ?? [])).slice(0, MAX_RANK);
    const items = hits.slice(args.offset, args.offset + args.limit).map((hit) => ({
      uid: hit.uid ?? '',
      text: truncate(hit.markdown ?? hit.string ?? '', LIMITS.listItem),
      path: pathText(hit.path),
      score: hit.score ?? 0,
    }));
    const more = hits.length > args.offset + items.length && args.offset + items.length < MAX_RANK;
    const reported = !Array.isArray(result) && typeof result?.total === 'number' ? result.total : null;
    return {
      items,
      total: reported ?? (more ? null : Math.min(hits.length, args.offset + items.length)),
      offset: args.offset,
      limit: args.limit,
      ...(more ? { nextOffset: args.offset + items.length } : {}),
    };
  },
});
