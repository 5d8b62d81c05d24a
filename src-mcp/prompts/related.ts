/**
 * /related: pages related to a page — or to words, through the pages that mention them — by link
 * proximity (related-pages.ts), ranked, each with why and how it begins (the navigation previews).
 */
import * as z from 'zod';
import { loadLinkIndex } from '../navigation/index-cache.ts';
import type { LinkIndex } from '../navigation/link-index.ts';
import { findPage } from '../navigation/page-lookup.ts';
import { fetchPagePreviews } from '../navigation/previews.ts';
import type { ToolContext } from '../contract/tool-definition.ts';
import { pageTitles } from './completions.ts';
import { definePrompt, type PromptContext } from './prompt-definition.ts';
import { indent, link, plural, userText } from './prompt-text.ts';
import { relatedPages, type RelatedPage } from './related-pages.ts';

/**
 * Related pages shown, each with three reasons and a 200-character preview; then as many pages
 * without blocks (tags, attributes), by name only: related, but nothing to read.
 */
const SHOWN = 15;
/** Search hits read for words, and the pages most mentioned among them that seed the ranking. */
const HITS = 50;
const SEEDS = 5;

const BLOCK_PAGES_QUERY =
  '[:find ?uid ?page :in $ [?uid ...] :where [?b :block/uid ?uid] [?b :block/page ?p] [?p :block/uid ?page]]';

interface SearchHits {
  items: Array<{ uid: string; type: string }>;
}

interface Seeds {
  ids: number[];
  /** For words: the pages that mention them, with how. */
  found?: string;
}

export const relatedPrompt = definePrompt({
  name: 'related',
  title: 'Related pages',
  description: 'Pages related to a page or to words by link proximity, ranked, with why.',
  tools: ['get_neighbors', 'search'],
  arguments: { query: z.string().trim().min(1).describe('Page title, or words to look for') },
  complete: { query: pageTitles },
  async build(args, ctx) {
    const index = await loadLinkIndex(ctx.roam);
    const page = findPage(index, args.query);
    const seeds: Seeds = page === undefined ? await mentioning(args.query, index, ctx) : { ids: [page] };
    const subject = page === undefined ? `"${args.query}"` : link(index.pages[page]!.title);
    const description = `Pages related to ${subject} in ${ctx.graph.nickname}`;
    if (seeds.ids.length === 0) {
      const none = `Nothing in my Roam graph "${ctx.graph.nickname}" mentions "${args.query}" (full-text search: every word must match; blocks hidden from AI are left out). Say so, and suggest other words to try.`;
      return { description, messages: [userText(none)] };
    }
    const ranked = relatedPages(index, seeds.ids, 4 * SHOWN);
    const related = ranked.filter(({ id }) => index.pages[id]!.blockCount > 0).slice(0, SHOWN);
    const empty = ranked.filter(({ id }) => index.pages[id]!.blockCount === 0).slice(0, SHOWN);
    const uids = related.map(({ id }) => index.pages[id]!.uid);
    const previews = await fetchPagePreviews(ctx.roam, uids, index.hidden);
    const head =
      `What in my Roam graph "${ctx.graph.nickname}" is related to ${subject}? Below are the pages ` +
      'closest to it by links, best first, each with why (a direct link, a shared tag or topic, ' +
      'being mentioned together, or a path through another page) and how it begins. Explain how ' +
      `they relate to ${subject} and which are worth reading next.`;
    const list = related.length
      ? related.map((item, k) => renderRelated(index, item, k, previews)).join('\n')
      : `No page${empty.length ? ' with blocks of its own' : ''} is linked with it, directly or through another page (links from blocks hidden from AI do not count).`;
    const found = seeds.found ? `\n\n${seeds.found}` : '';
    const tags = empty.length
      ? `\n\nAlso linked, without blocks of their own (tags, attributes): ${empty.map(({ id }) => link(index.pages[id]!.title)).join(', ')}.`
      : '';
    return { description, messages: [userText(`${head}${found}\n\n${list}${tags}`)] };
  },
});

function renderRelated(
  index: LinkIndex,
  item: RelatedPage,
  k: number,
  previews: Map<string, string>,
): string {
  const page = index.pages[item.id]!;
  const more = item.moreReasons ? `; and ${item.moreReasons} more` : '';
  const preview = previews.get(page.uid);
  return `${k + 1}. ${link(page.title)} — ${item.reasons.join('; ')}${more}${preview ? `\n${indent(preview)}` : ''}`;
}

/** The pages full-text search finds for the words: title hits first, then those with most hits. */
async function mentioning(query: string, index: LinkIndex, ctx: PromptContext): Promise<Seeds> {
  const hits = await ctx.tool<SearchHits>('search', { query, scope: 'all', limit: HITS });
  const counts = new Map<number, { title: boolean; blocks: number }>();
  const note = (id: number | undefined, title: boolean) => {
    if (id === undefined) return;
    const count = counts.get(id) ?? { title: false, blocks: 0 };
    if (title) count.title = true;
    else count.blocks++;
    counts.set(id, count);
  };
  for (const hit of hits.items) if (hit.type === 'page') note(index.byUid.get(hit.uid), true);
  const blocks = hits.items.filter((hit) => hit.type !== 'page').map((hit) => hit.uid);
  for (const pageUid of await pagesOfBlocks(ctx.roam, blocks)) note(index.byUid.get(pageUid), false);
  const ranked = [...counts]
    .sort(([a, x], [b, y]) => Number(y.title) - Number(x.title) || y.blocks - x.blocks || a - b)
    .slice(0, SEEDS);
  const how = ranked.map(([id, count]) => {
    const what = [count.title ? 'title' : '', count.blocks ? plural(count.blocks, 'block') : ''];
    return `${link(index.pages[id]!.title)} (${what.filter(Boolean).join(', ')})`;
  });
  return {
    ids: ranked.map(([id]) => id),
    found: `Pages that mention "${query}" most (full-text search), which the ranking starts from: ${how.join(', ')}.`,
  };
}

/** The page uid of each block (one round trip; none for no blocks), in the blocks' order. */
async function pagesOfBlocks(roam: ToolContext, uids: string[]): Promise<string[]> {
  if (uids.length === 0) return [];
  const rows = await roam.call<Array<[string, string]> | null>('data.q', [BLOCK_PAGES_QUERY, uids]);
  const pageOf = new Map(rows ?? []);
  return uids.flatMap((uid) => (pageOf.has(uid) ? [pageOf.get(uid)!] : []));
}
