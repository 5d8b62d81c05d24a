import { paginate } from '../../contract/limits.ts';
import type { ResourceDefinition } from '../../contract/tool-definition.ts';
import { ToolError } from '../../contract/tool-errors.ts';
import { loadLinkIndex } from '../index-cache.ts';

/** Pages per resource read. */
export const LINK_INDEX_PAGE_SIZE = 200;
/** Out-links listed per page; `outgoingCount` has the total. */
export const LINK_INDEX_LINKS_PER_PAGE = 100;

async function readLinkIndex(
  graph: string,
  offsetText: string,
  ctx: Parameters<ResourceDefinition['read']>[1],
) {
  const offset = Number(offsetText);
  if (!Number.isInteger(offset) || offset < 0) {
    throw new ToolError(
      'INVALID_PARAMS',
      `"${offsetText}" is not a page offset. Read roam://${graph}/link-index, then follow its nextUri.`,
    );
  }
  const index = await loadLinkIndex(ctx);
  const page = paginate(index.pages, offset, LINK_INDEX_PAGE_SIZE);
  const items = page.items.map((node, k) => {
    const id = offset + k;
    const out = [...index.outLinks.of(id)].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
    return {
      uid: node.uid,
      title: node.title,
      incomingCount: index.inLinks.of(id).size,
      outgoingCount: out.length,
      links: out
        .slice(0, LINK_INDEX_LINKS_PER_PAGE)
        .map(([to, references]) => [index.pages[to]!.uid, references]),
    };
  });
  const { nextOffset, ...rest } = page;
  return JSON.stringify({
    ...rest,
    items,
    ...(nextOffset === undefined ? {} : { nextUri: `roam://${graph}/link-index/${nextOffset}` }),
  });
}

/** `roam://{graph}/link-index`: the first page of the link index. */
export const linkIndexFirstPage: ResourceDefinition = {
  name: 'link-index',
  title: 'Link index',
  description: `Every page with the pages it links to ([uid, referencing blocks]), ${LINK_INDEX_PAGE_SIZE} pages per read; follow nextUri for more.`,
  mimeType: 'application/json',
  uriTemplate: 'roam://{graph}/link-index',
  listable: true,
  read: (variables, ctx) => readLinkIndex(variables.graph ?? ctx.graph.nickname, '0', ctx),
};

/** `roam://{graph}/link-index/{offset}`: later pages of the link index. */
export const linkIndexPage: ResourceDefinition = {
  name: 'link-index-page',
  title: 'Link index (from an offset)',
  description: `The link index from a page offset, ${LINK_INDEX_PAGE_SIZE} pages per read.`,
  mimeType: 'application/json',
  uriTemplate: 'roam://{graph}/link-index/{offset}',
  listable: false,
  read: (variables, ctx) =>
    readLinkIndex(variables.graph ?? ctx.graph.nickname, variables.offset ?? '0', ctx),
};
