/** Graph navigation tools and resources (issue: navigation). Registered by the server. */
import type { ResourceDefinition } from '../tool-definition.ts';
import { graphStats } from './resources/graph-stats.ts';
import { linkIndexFirstPage, linkIndexPage } from './resources/link-index-pages.ts';
import { pageByTitle } from './resources/page-by-title.ts';
import { findPath } from './tools/find-path.ts';
import { getHubs } from './tools/get-hubs.ts';
import { getLinkGraph } from './tools/get-link-graph.ts';
import { getNeighbors } from './tools/get-neighbors.ts';
import { getOutlinks } from './tools/get-outlinks.ts';
import { listPages } from './tools/list-pages.ts';
import { randomPage } from './tools/random-page.ts';
import { resolvePages } from './tools/resolve-pages.ts';
import { searchByTags } from './tools/search-by-tags.ts';
import { semanticSearch } from './tools/semantic-search.ts';

export const navigationTools = [
  getOutlinks,
  getNeighbors,
  findPath,
  getHubs,
  searchByTags,
  randomPage,
  listPages,
  resolvePages,
  getLinkGraph,
  semanticSearch,
];

export const navigationResources: ResourceDefinition[] = [
  graphStats,
  linkIndexFirstPage,
  linkIndexPage,
  pageByTitle,
];
