/**
 * /daily-review: one day's daily note (embedded as the roam://{graph}/page/{title} resource, read
 * as that resource reads it), the pages it links to (the link index), and the open TODOs on it or
 * referencing it (roam_query; Roam leaves hidden blocks out).
 */
import { UriTemplate } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { loadLinkIndex } from '../navigation/index-cache.ts';
import type { LinkIndex } from '../navigation/link-index.ts';
import { pageByTitle } from '../navigation/resources/page-by-title.ts';
import { ToolError } from '../contract/tool-errors.ts';
import { DAILY_DATE_HINT, isDailyDate, resolveDailyNote, type DailyNote } from '../roam/roam-dates.ts';
import { dailyDates } from './completions.ts';
import { definePrompt, type PromptContext } from './prompt-definition.ts';
import { fitList, link, PROMPT_BUDGET, userResource, userText } from './prompt-text.ts';

/** Linked pages and TODOs listed at most (the TODO list is also cut to what the budget leaves). */
const LINKS = 50;
const TODOS = 50;

interface Hits {
  items: Array<{ uid: string; path?: string; markdown: string }>;
  total: number;
  nextOffset?: number;
}

export const dailyReviewPrompt = definePrompt({
  name: 'daily-review',
  title: 'Daily review',
  description: "A day's daily note, the pages it links to, and its open TODOs.",
  tools: ['get_page', 'roam_query'],
  arguments: {
    date: z
      .string()
      .trim()
      .refine(isDailyDate, DAILY_DATE_HINT)
      .default('today')
      .describe('today (default), yesterday, YYYY-MM-DD or MM-DD-YYYY'),
  },
  complete: { date: dailyDates },
  async build(args, ctx) {
    const note = resolveDailyNote(args.date);
    if (!note) {
      throw new ToolError('INVALID_PARAMS', `\`date\` '${args.date}' is not a date: ${DAILY_DATE_HINT}.`, {
        field: 'date',
      });
    }
    const uri = new UriTemplate(pageByTitle.uriTemplate).expand({
      graph: ctx.graph.nickname,
      title: note.title,
    });
    const query = `{and: [[TODO]] [[${note.title}]] {not: [[DONE]]}}`;
    const [markdown, index, todos] = await Promise.all([
      readNote(note, ctx),
      loadLinkIndex(ctx.roam),
      ctx.tool<Hits>('roam_query', { query, limit: TODOS, maxDepth: 0 }),
    ]);
    const head =
      `Review my daily note for ${link(note.title)} in my Roam graph "${ctx.graph.nickname}": what ` +
      'happened, what it connects to, and which open TODOs need attention (suggest what to do next ' +
      'and what to carry over). Cite a block as ((uid)).';
    const links = linksOf(index, note);
    const used = (markdown?.length ?? 0) + links.length + head.length;
    const facts = [
      head,
      markdown === undefined
        ? `There is no daily note for ${link(note.title)} in this graph.`
        : `The note is attached (${uri}).`,
      links,
      todoList(todos, query, PROMPT_BUDGET - used),
    ];
    const messages = markdown === undefined ? [] : [userResource(uri, pageByTitle.mimeType, markdown)];
    messages.push(userText(facts.join('\n\n')));
    return { description: `Daily review of ${link(note.title)} in ${ctx.graph.nickname}`, messages };
  },
});

/** The note as its resource reads it, or undefined when the day has no page. */
async function readNote(note: DailyNote, ctx: PromptContext): Promise<string | undefined> {
  try {
    return await pageByTitle.read({ graph: ctx.graph.nickname, title: note.title }, ctx.roam);
  } catch (error) {
    if (error instanceof ToolError && error.code === 'NOT_FOUND') return undefined;
    throw error;
  }
}

function linksOf(index: LinkIndex, note: DailyNote): string {
  const id = index.byUid.get(note.uid);
  const targets =
    id === undefined ? [] : [...index.outLinks.of(id)].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  if (targets.length === 0) return 'It links to no page.';
  const shown = targets
    .slice(0, LINKS)
    .map(([to, references]) => `${link(index.pages[to]!.title)}${references > 1 ? ` ×${references}` : ''}`);
  const rest = targets.length > LINKS ? ` and ${targets.length - LINKS} more` : '';
  return `It links to ${targets.length} pages (×n: from n blocks): ${shown.join(', ')}${rest}.`;
}

function todoList(todos: Hits, query: string, budget: number): string {
  if (todos.items.length === 0) return 'Open TODOs on it or referencing it: none.';
  const { text, shown } = fitList(
    todos.items,
    (hit) =>
      `${hit.markdown.startsWith('- ') ? '' : '- '}${hit.markdown}${hit.path ? ` (in ${hit.path})` : ''}`,
    Math.max(budget, 0),
  );
  const next = shown < todos.items.length ? shown : todos.nextOffset;
  const rest =
    next === undefined
      ? ''
      : `\nMore remain: call roam_query with {"query": ${JSON.stringify(query)}, "offset": ${next}}.`;
  return `Open TODOs on it or referencing it (${todos.total}):\n${text}${rest}`;
}
