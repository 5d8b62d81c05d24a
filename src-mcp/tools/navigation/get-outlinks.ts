import * as z from 'zod';
import { paginate } from '../../contract/limits.ts';
import { defineTool } from '../../contract/tool-definition.ts';
import { loadLinkIndex } from '../../navigation/index-cache.ts';
import { requirePage } from '../../navigation/page-lookup.ts';
import {
  GRAPH_ANNOTATIONS,
  limitField,
  listOutput,
  offsetField,
  pageOutput,
  pageRefShape,
} from '../../navigation/schemas.ts';

const inputSchema = { ...pageRefShape, limit: limitField(50, 100), offset: offsetField };

/** Pages one page links to, most referenced first. Answered from the link index (1 round trip). */
export const getOutlinks = defineTool({
  name: 'get_outlinks',
  title: 'Pages a page links to',
  description:
    'Pages a page links to ([[..]], #tag, attr::), with how many of its blocks reference each, most referenced first.',
  inputSchema,
  outputSchema: {
    page: pageOutput,
    ...listOutput(pageOutput.extend({ references: z.number().int() })),
  },
  annotations: GRAPH_ANNOTATIONS,
  toolset: 'navigation',
  feature: 'outlinks',
  actions: ['data.q'],
  scope: 'graph',
  async handler(args, ctx) {
    const index = await loadLinkIndex(ctx);
    const id = requirePage(index, args, ctx.graph.nickname);
    const targets = [...index.outLinks.of(id)].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
    const page = paginate(targets, args.offset, args.limit);
    const { uid, title } = index.pages[id]!;
    return {
      page: { uid, title },
      ...page,
      items: page.items.map(([to, references]) => ({
        uid: index.pages[to]!.uid,
        title: index.pages[to]!.title,
        references,
      })),
    };
  },
});
