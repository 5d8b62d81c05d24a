import * as z from 'zod';
import { paginate } from '../../contract/limits.ts';
import { defineTool } from '../../contract/tool-definition.ts';
import { loadLinkIndex } from '../../navigation/index-cache.ts';
import { pageNotFound } from '../../navigation/page-lookup.ts';
import {
  GRAPH_ANNOTATIONS,
  limitField,
  listOutput,
  offsetField,
  pageOutput,
} from '../../navigation/schemas.ts';
import { cleanTag, resolveTags } from '../../navigation/tag-filter.ts';

const inputSchema = {
  prefix: z.string().optional().describe('Case-insensitive'),
  tag: z.string().min(1).optional().describe('Only pages with a block referencing this tag'),
  includeDaily: z.boolean().default(true),
  limit: limitField(50, 100),
  offset: offsetField,
};

/** Pages in title order from the cached index: 1 round trip. */
export const listPages = defineTool({
  name: 'list_pages',
  title: 'List pages',
  description: 'Page titles in alphabetical order, with link counts and the total.',
  inputSchema,
  outputSchema: listOutput(
    pageOutput.extend({
      blockCount: z.number().int(),
      incomingCount: z.number().int(),
      outgoingCount: z.number().int(),
      daily: z.boolean(),
      lastEdit: z.string().nullable().describe('ISO time of the newest edit on the page.'),
    }),
  ),
  annotations: GRAPH_ANNOTATIONS,
  toolset: 'navigation',
  feature: 'page lists',
  actions: ['data.q'],
  scope: 'graph',
  async handler(args, ctx) {
    const index = await loadLinkIndex(ctx);
    let tagged: { has(id: number): boolean } | undefined;
    if (args.tag !== undefined) {
      const { ids } = resolveTags(index, [args.tag]);
      if (ids.length === 0) throw pageNotFound(index, cleanTag(args.tag), ctx.graph.nickname);
      tagged = index.inLinks.of(ids[0]!);
    }
    const prefix = args.prefix?.toLowerCase() ?? '';
    const matches: number[] = [];
    index.pages.forEach((page, id) => {
      if (!args.includeDaily && page.daily) return;
      if (tagged && !tagged.has(id)) return;
      if (prefix && !page.title.toLowerCase().startsWith(prefix)) return;
      matches.push(id);
    });
    const page = paginate(matches, args.offset, args.limit);
    return {
      ...page,
      items: page.items.map((id) => {
        const node = index.pages[id]!;
        return {
          uid: node.uid,
          title: node.title,
          blockCount: node.blockCount,
          incomingCount: index.inLinks.of(id).size,
          outgoingCount: index.outLinks.of(id).size,
          daily: node.daily,
          lastEdit: node.lastEdit ? new Date(node.lastEdit).toISOString() : null,
        };
      }),
    };
  },
});
