import * as z from 'zod';
import { paginate } from '../../contract/limits.ts';
import { defineTool } from '../../contract/tool-definition.ts';
import { loadLinkIndex } from '../../navigation/index-cache.ts';
import { requirePage } from '../../navigation/page-lookup.ts';
import { fetchPagePreviews } from '../../navigation/previews.ts';
import {
  GRAPH_ANNOTATIONS,
  limitField,
  listOutput,
  offsetField,
  pageOutput,
  pageRefShape,
} from '../../navigation/schemas.ts';

const inputSchema = {
  ...pageRefShape,
  direction: z.enum(['in', 'out', 'both']).default('both'),
  limit: limitField(20, 50),
  offset: offsetField,
};

const neighborOutput = pageOutput.extend({
  direction: z.enum(['in', 'out', 'both']),
  referencesIn: z.number().int().describe('Blocks of that page referencing this one.'),
  referencesOut: z.number().int().describe('Blocks of this page referencing that one.'),
  attributeReferences: z
    .number()
    .int()
    .describe(
      'How many of those references are attributes (role:: x → role); all of them: an attribute-only link.',
    ),
  preview: z.string().describe('First top-level blocks, at most 200 characters.'),
});

/**
 * Linked pages with previews. 1 round trip for the index, plus 1 batched preview query for the
 * pages shown (none when the page has no neighbours).
 */
export const getNeighbors = defineTool({
  name: 'get_neighbors',
  title: 'Linked pages with previews',
  description:
    'Pages linking to a page (in) and/or linked from it (out), strongest first, with previews and the counts per direction.',
  inputSchema,
  outputSchema: {
    page: pageOutput,
    incomingCount: z.number().int().describe('Distinct pages linking to this page.'),
    outgoingCount: z.number().int().describe('Distinct pages this page links to.'),
    ...listOutput(neighborOutput),
  },
  annotations: GRAPH_ANNOTATIONS,
  toolset: 'navigation',
  feature: 'neighbours',
  actions: ['data.q'],
  scope: 'graph',
  async handler(args, ctx) {
    const index = await loadLinkIndex(ctx);
    const id = requirePage(index, args, ctx.graph.nickname);
    const incoming = index.inLinks.of(id);
    const outgoing = index.outLinks.of(id);
    const candidates = new Set<number>();
    if (args.direction !== 'out') for (const other of incoming.keys()) candidates.add(other);
    if (args.direction !== 'in') for (const other of outgoing.keys()) candidates.add(other);
    const weight = (other: number) => (incoming.get(other) ?? 0) + (outgoing.get(other) ?? 0);
    const ranked = [...candidates].sort((a, b) => weight(b) - weight(a) || a - b);
    const page = paginate(ranked, args.offset, args.limit);
    const previews = await fetchPagePreviews(
      ctx,
      page.items.map((other) => index.pages[other]!.uid),
      index.hidden,
    );
    const { uid, title } = index.pages[id]!;
    return {
      page: { uid, title },
      incomingCount: incoming.size,
      outgoingCount: outgoing.size,
      ...page,
      items: page.items.map((other) => {
        const node = index.pages[other]!;
        const referencesIn = incoming.get(other) ?? 0;
        const referencesOut = outgoing.get(other) ?? 0;
        const direction = referencesIn && referencesOut ? 'both' : referencesIn ? 'in' : 'out';
        const attributeReferences =
          (index.attributeLinks.of(other).get(id) ?? 0) + (index.attributeLinks.of(id).get(other) ?? 0);
        return {
          uid: node.uid,
          title: node.title,
          direction,
          referencesIn,
          referencesOut,
          attributeReferences,
          preview: previews.get(node.uid) ?? '',
        };
      }),
    };
  },
});
