import * as z from 'zod';
import { LIMITS, paginate } from '../../contract/limits.ts';
import { defineTool } from '../../contract/tool-definition.ts';
import { loadLinkIndex } from '../../navigation/index-cache.ts';
import type { LinkIndex } from '../../navigation/link-index.ts';
import { pageNotFound } from '../../navigation/page-lookup.ts';
import { fetchBlockTexts, fetchPagePreviews } from '../../navigation/previews.ts';
import {
  GRAPH_ANNOTATIONS,
  limitField,
  listOutput,
  offsetField,
  pageOutput,
} from '../../navigation/schemas.ts';
import { fetchBlocksWithTags, pagesWithTags, resolveTags } from '../../navigation/tag-filter.ts';

const inputSchema = {
  tags: z.array(z.string().min(1)).min(1).max(10).describe('Page titles; a leading # or [[..]] is fine'),
  mode: z.enum(['any', 'all']).default('any'),
  target: z.enum(['pages', 'blocks']).default('pages'),
  limit: limitField(20, 100),
  offset: offsetField,
};

const unknownTagOutput = z.object({
  name: z.string(),
  suggestions: z.array(pageOutput.extend({ score: z.number() })),
});

function tagTitles(index: LinkIndex, tagIds: readonly number[], carries: (tag: number) => boolean): string[] {
  return tagIds.filter(carries).map((tag) => index.pages[tag]!.title);
}

/**
 * Tag filter over the cached index: 1 round trip, plus 1 batched query for the previews (pages) or
 * texts (blocks) of the items shown.
 */
export const searchByTags = defineTool({
  name: 'search_by_tags',
  title: 'Pages or blocks carrying tags',
  description:
    'Pages whose blocks reference any or all (mode) of the tags, or those blocks (target), with previews. #tag, [[tag]] and tag:: are the same in Roam.',
  inputSchema,
  outputSchema: {
    tags: z.array(pageOutput).describe('The tags that were found.'),
    unknownTags: z.array(unknownTagOutput).describe('Tags with no page, with the closest titles.'),
    ...listOutput(
      z.object({
        uid: z.string(),
        title: z.string().optional().describe('Page title (target pages).'),
        page: pageOutput.optional().describe('The page holding the block (target blocks).'),
        text: z.string().describe('Page preview (200 chars) or block text (500 chars).'),
        matchedTags: z.array(z.string()),
      }),
    ),
  },
  annotations: GRAPH_ANNOTATIONS,
  toolset: 'navigation',
  feature: 'tag search',
  actions: ['data.q'],
  scope: 'graph',
  async handler(args, ctx) {
    const index = await loadLinkIndex(ctx);
    const { ids, unknown } = resolveTags(index, args.tags);
    if (ids.length === 0) throw pageNotFound(index, unknown[0]!.name, ctx.graph.nickname);
    // With `all`, one missing tag means nothing can match.
    const usable = args.mode === 'all' && unknown.length > 0 ? [] : ids;
    const header = {
      tags: ids.map((id) => ({ uid: index.pages[id]!.uid, title: index.pages[id]!.title })),
      unknownTags: unknown,
    };
    if (args.target === 'pages') {
      const page = paginate(pagesWithTags(index, usable, args.mode), args.offset, args.limit);
      const previews = await fetchPagePreviews(
        ctx,
        page.items.map((id) => index.pages[id]!.uid),
        index.hidden,
      );
      return {
        ...header,
        ...page,
        items: page.items.map((id) => ({
          uid: index.pages[id]!.uid,
          title: index.pages[id]!.title,
          text: previews.get(index.pages[id]!.uid) ?? '',
          matchedTags: tagTitles(index, ids, (tag) => index.outLinks.of(id).has(tag)),
        })),
      };
    }
    const tagged = await fetchBlocksWithTags(ctx, index, usable, args.mode);
    const page = paginate(tagged.eids, args.offset, args.limit);
    const texts = await fetchBlockTexts(ctx, page.items, LIMITS.listItem, index.hidden);
    return {
      ...header,
      ...page,
      items: page.items.map((block, k) => {
        const holder = index.pages[tagged.pageAt(args.offset + k)]!;
        return {
          uid: texts.get(block)?.uid ?? '',
          page: { uid: holder.uid, title: holder.title },
          text: texts.get(block)?.text ?? '',
          matchedTags: tagged.tagsAt(args.offset + k).map((tag) => index.pages[tag]!.title),
        };
      }),
    };
  },
});
