/**
 * /review-changes: what agents changed on this graph (from the change journal every roam-mcp on
 * this machine writes, docs/undo.md), grouped by chat, with how each change can be taken back.
 * A change that touches a block hidden from AI is listed without its text.
 */
import * as z from 'zod';
import { currentChat } from '../contract/chat-scope.ts';
import { listChanges, listChats, type Change } from '../changes/index.ts';
import { parseSince, SINCE_HINT } from '../changes/journal/since.ts';
import { touchesHidden } from '../changes/undo/agent-view.ts';
import { fetchHiddenContent, type HiddenContent } from '../roam/hidden-blocks.ts';
import { ToolError } from '../contract/tool-errors.ts';
import { completion } from './completions.ts';
import { definePrompt, type Completer } from './prompt-definition.ts';
import { fitList, plural, PROMPT_BUDGET, userText } from './prompt-text.ts';

const THIS_CHAT = 'this';

/** Chat ids with changes on this graph, most recently active first, and "this". */
const recentChats: Completer = async (typed, roam) => {
  const chats = await listChats({ graph: roam.graph.name }, { journal: await roam.journal() });
  const ids = [THIS_CHAT, ...chats.map((c) => c.chat.id)];
  return completion(ids.filter((id) => id.startsWith(typed.trim())));
};

export const reviewChangesPrompt = definePrompt({
  name: 'review-changes',
  title: 'Review agent changes',
  description: 'What agents changed in the graph recently, by chat, and how to undo it.',
  tools: ['list_changes'],
  arguments: {
    since: z.string().trim().default('today').describe('today (default), 30m, 2h, 1d or an ISO time'),
    chat: z.string().trim().optional().describe('A chat id, or "this" (default: every chat)'),
  },
  complete: { chat: recentChats },
  async build(args, ctx) {
    const since = parseSince(args.since);
    if (since === undefined)
      throw new ToolError('INVALID_PARAMS', `\`since\` '${args.since}' is not a time: use ${SINCE_HINT}.`, {
        field: 'since',
      });
    const chat = args.chat === THIS_CHAT ? currentChat().id : args.chat || undefined;
    const [changes, hidden] = await Promise.all([
      ctx.roam.journal().then((journal) => listChanges({ graph: ctx.graph.name, since, chat }, { journal })),
      fetchHiddenContent(ctx.roam),
    ]);
    const scope = `since ${new Date(since).toISOString()}${chat ? ` in chat ${chat}` : ''}`;
    const head =
      `Review what AI agents changed in my Roam graph "${ctx.graph.nickname}" ${scope}. Group it by ` +
      'chat, say what each chat did in a sentence or two, and point out anything that looks wrong ' +
      'or unintended. Then ask me what to undo.';
    const { text, shown } = fitList(changes, (c) => changeLine(c, hidden), PROMPT_BUDGET);
    const body =
      changes.length === 0
        ? `No agent changed this graph ${scope}.`
        : `${plural(changes.length, 'change')}, newest first (id, time, chat, what, state):\n${text}` +
          (shown < changes.length ? `\n(${changes.length - shown} older ones not shown.)` : '');
    return {
      description: `Agent changes in ${ctx.graph.nickname} ${scope}`,
      messages: [userText([head, body, howToUndo()].join('\n\n'))],
    };
  },
});

function changeLine(change: Change, hidden: HiddenContent): string {
  const mine = change.chat.id === currentChat().id ? ' (this chat)' : '';
  const what = touchesHidden(change, hidden) ? `${change.tool} on a block hidden from AI` : change.summary;
  const state = change.undone ? 'undone' : change.undoable ? 'undoable' : 'not undoable';
  const client = change.chat.client?.name ?? (change.chat.kind === 'person' ? 'a person' : 'an agent');
  return `- ${change.id} ${change.at.slice(0, 16)} chat ${change.chat.id}${mine} (${client}): ${what} [${state}]`;
}

function howToUndo(): string {
  return (
    "To undo: this chat's own changes with undo_changes (`ids`, or `all: true`; `dryRun: true` " +
    "first). Other chats' changes are undone by me, in Roam Companion's Activity view or with " +
    '`roam-mcp undo <id>` / `roam-mcp undo --chat <chat id>` in a terminal. Anything changed by ' +
    'someone since is left alone and reported as a conflict.'
  );
}
