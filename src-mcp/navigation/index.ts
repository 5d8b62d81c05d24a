/** Graph navigation resources and the link index's entry points; the tools are in src-mcp/tools/navigation/. */
import type { ResourceDefinition } from '../contract/tool-definition.ts';
import { graphStats } from './resources/graph-stats.ts';
import { linkIndexFirstPage, linkIndexPage } from './resources/link-index-pages.ts';
import { pageByTitle } from './resources/page-by-title.ts';

export const navigationResources: ResourceDefinition[] = [
  graphStats,
  linkIndexFirstPage,
  linkIndexPage,
  pageByTitle,
];
