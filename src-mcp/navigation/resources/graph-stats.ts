import type { ResourceDefinition } from '../../contract/tool-definition.ts';
import { loadLinkIndex } from '../index-cache.ts';

/** `roam://{graph}/stats`: size and freshness of a graph, from the link index (1 round trip when cached). */
export const graphStats: ResourceDefinition = {
  name: 'graph-stats',
  title: 'Graph statistics',
  description: 'Pages, blocks, links between pages and the time of the last edit, for one graph.',
  mimeType: 'application/json',
  uriTemplate: 'roam://{graph}/stats',
  listable: true,
  async read(_variables, ctx) {
    const index = await loadLinkIndex(ctx);
    const { pages, blocks, references, links, lastEdit } = index.totals;
    return JSON.stringify({
      graph: ctx.graph.nickname,
      pages,
      dailyPages: index.pages.filter((page) => page.daily).length,
      blocks,
      links,
      references,
      lastEdit: lastEdit ? new Date(lastEdit).toISOString() : null,
    });
  },
};
