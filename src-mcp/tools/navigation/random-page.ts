import * as z from 'zod';
import { defineTool } from '../../contract/tool-definition.ts';
import { loadLinkIndex } from '../../navigation/index-cache.ts';
import { fetchPagePreviews } from '../../navigation/previews.ts';
import { GRAPH_ANNOTATIONS, pageOutput } from '../../navigation/schemas.ts';
import { pagesWithTags, resolveTags } from '../../navigation/tag-filter.ts';

/** How many of the page's strongest out-links to show. */
const LINKS_SHOWN = 10;

const inputSchema = {
  tags: z.array(z.string().min(1)).max(10).optional().describe('Only pages carrying one of these tags'),
};

/** A random page from the cached index: 1 round trip, plus 1 query for its preview. */
export const randomPage = defineTool({
  name: 'random_page',
  title: 'Random page',
  description: 'A random page, for serendipitous discovery; page is null when nothing matches.',
  inputSchema,
  outputSchema: {
    candidates: z.number().int().describe('How many pages it was drawn from.'),
    page: pageOutput
      .extend({
        preview: z.string(),
        blockCount: z.number().int(),
        incomingCount: z.number().int(),
        outgoingCount: z.number().int(),
        links: z.array(pageOutput).describe(`Up to ${LINKS_SHOWN} pages it links to, strongest first.`),
      })
      .nullable(),
  },
  annotations: GRAPH_ANNOTATIONS,
  toolset: 'navigation',
  feature: 'random pages',
  actions: ['data.q'],
  scope: 'graph',
  async handler(args, ctx) {
    const index = await loadLinkIndex(ctx);
    const pool = args.tags?.length
      ? pagesWithTags(index, resolveTags(index, args.tags).ids, 'any')
      : index.pages.map((_, id) => id);
    if (pool.length === 0) return { candidates: 0, page: null };
    const id = pool[Math.floor(Math.random() * pool.length)]!;
    const node = index.pages[id]!;
    const previews = await fetchPagePreviews(ctx, [node.uid], index.hidden);
    const links = [...index.outLinks.of(id)]
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, LINKS_SHOWN)
      .map(([to]) => ({ uid: index.pages[to]!.uid, title: index.pages[to]!.title }));
    return {
      candidates: pool.length,
      page: {
        uid: node.uid,
        title: node.title,
        preview: previews.get(node.uid) ?? '',
        blockCount: node.blockCount,
        incomingCount: index.inLinks.of(id).size,
        outgoingCount: index.outLinks.of(id).size,
        links,
      },
    };
  },
});
