import { LIMITS, truncate } from '../../contract/limits.ts';
import type { ResourceDefinition } from '../../contract/tool-definition.ts';
import { loadLinkIndex } from '../index-cache.ts';
import { findPage, pageNotFound } from '../page-lookup.ts';

/**
 * `roam://{graph}/page/{title}`: a page as Roam's AI markdown, with its link counts. 2 round trips:
 * the index (to resolve the title, or suggest close ones) and `data.ai.getPage`.
 */
export const pageByTitle: ResourceDefinition = {
  name: 'page',
  title: 'Page by title',
  description:
    'A page of the graph as markdown (block uids included), by title or uid, with its link counts.',
  mimeType: 'text/markdown',
  uriTemplate: 'roam://{graph}/page/{title}',
  listable: false,
  async read(variables, ctx) {
    // The server hands over variables already percent-decoded.
    const name = variables.title ?? '';
    const index = await loadLinkIndex(ctx);
    const id = findPage(index, name);
    if (id === undefined) throw pageNotFound(index, name, ctx.graph.nickname);
    const page = index.pages[id]!;
    const result = await ctx.call<{ markdown?: string } | string | null>('data.ai.getPage', [
      { uid: page.uid },
    ]);
    const markdown = typeof result === 'string' ? result : (result?.markdown ?? '');
    const footer =
      `\n\n---\nLinks: ${index.outLinks.of(id).size} pages linked from here, ` +
      `${index.inLinks.of(id).size} linking here (get_neighbors for details).`;
    return truncate(markdown, LIMITS.primary - footer.length) + footer;
  },
};
