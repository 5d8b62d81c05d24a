/**
 * /backlinks: what links to a page, with each linking block's context (its page, its parents,
 * its children), from get_backlinks: Roam's linked references, hidden blocks left out by Roam.
 */
import { pageTitles } from './completions.ts';
import { pageArgument, resolvePage } from './page-argument.ts';
import { definePrompt } from './prompt-definition.ts';
import { indent, link, plural, userText } from './prompt-text.ts';

/** Linked references read at once: each at most 500 characters plus a 200-character path, so within PROMPT_BUDGET. */
const SHOWN = 20;

interface Hit {
  uid: string;
  path?: string;
  markdown: string;
}

interface HitsPage {
  items: Hit[];
  total: number;
  nextOffset?: number;
}

export const backlinksPrompt = definePrompt({
  name: 'backlinks',
  title: 'Backlinks of a page',
  description: 'What links to a page: its linked references with their context.',
  tools: ['get_backlinks'],
  arguments: { page: pageArgument },
  complete: { page: pageTitles },
  async build(args, ctx) {
    const page = await resolvePage(ctx.roam, args.page);
    const hits = await ctx.tool<HitsPage>('get_backlinks', { uid: page.uid, limit: SHOWN });
    const text = hits.items.map(renderHit).join('\n');
    const head =
      `What links to ${link(page.title)} in my Roam graph "${ctx.graph.nickname}"? Below are its linked ` +
      'references: the blocks that mention it, each under its path (page > parent blocks) with its ' +
      `children. Summarize what they say about ${link(page.title)}, grouped by page, and point out ` +
      'recurring themes, open questions and tasks. Cite a block as ((uid)).';
    const body =
      hits.total === 0
        ? `${link(page.title)} has no linked references (blocks hidden from AI are left out).`
        : `${plural(hits.total, 'linked reference')}, newest first:\n\n${text}${more(page.uid, hits)}`;
    return {
      description: `Backlinks of ${link(page.title)} in ${ctx.graph.nickname}`,
      messages: [userText(`${head}\n\n${body}`)],
    };
  },
});

function renderHit(hit: Hit, index: number): string {
  return `${index + 1}. ${hit.path ?? ''}\n${indent(hit.markdown)}`;
}

/** Roam hides blocks after paging, so only its nextOffset says where the rest starts. */
function more(uid: string, hits: HitsPage): string {
  if (hits.nextOffset === undefined) return '';
  return `\n\nMore references remain: call get_backlinks with {"uid": "${uid}", "offset": ${hits.nextOffset}} for the next ones.`;
}
