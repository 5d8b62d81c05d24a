/** The navigation toolset, in the order tools/list shows it. */
import { findPath } from './find-path.ts';
import { getHubs } from './get-hubs.ts';
import { getLinkGraph } from './get-link-graph.ts';
import { getNeighbors } from './get-neighbors.ts';
import { getOutlinks } from './get-outlinks.ts';
import { listPages } from './list-pages.ts';
import { randomPage } from './random-page.ts';
import { resolvePages } from './resolve-pages.ts';
import { searchByTags } from './search-by-tags.ts';
import { semanticSearch } from './semantic-search.ts';

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
