/**
 * What select_graph tells the agent besides the guidelines (docs/mcp.md, Orientation): what
 * Roam's guidelines object says (shortcuts, today's daily note, display names), that orientation
 * is done, a good first step, and a compact note on Roam's markdown. It rides in select_graph's
 * result, so only chats that orient pay for it, once.
 */
import { LIMITS, truncate } from '../../contract/limits.ts';

/** How to read and write Roam's markdown (the wire format of docs/mcp.md, Roam markdown). */
export const ROAM_SYNTAX = [
  'Reading: each block ends with <roam uid="..."/> (its uid and attributes, not text: never write it back).',
  '((uid))<ref>preview</ref> is a block reference: write only ((uid)).',
  '[[Title]] and #tag link pages; __italics__, **bold**, ^^highlight^^, ~~strike~~.',
  'Writing: create_block parses markdown (indent for children); update_block stores text literally.',
].join(' ');

const MAX_STARRED = 50;

export interface GuidelinesObject {
  starredPages?: unknown;
  todaysDailyNotePage?: unknown;
  aiUserDisplayName?: unknown;
  humanUserDisplayName?: unknown;
}

const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined);

/** The fields of Roam's guidelines object worth passing on; older builds (a string) give none. */
export function orientationOf(result: unknown, nickname: string) {
  const object = (result && typeof result === 'object' ? result : {}) as GuidelinesObject;
  const starred = Array.isArray(object.starredPages)
    ? object.starredPages.filter((t): t is string => typeof t === 'string')
    : [];
  const today = text(object.todaysDailyNotePage);
  const human = text(object.humanUserDisplayName);
  const ai = text(object.aiUserDisplayName);
  const first = today
    ? `get_page {"title": ${JSON.stringify(today)}} (today's daily note)`
    : 'search {"query": ""} (recent activity)';
  return {
    starred_pages: starred.slice(0, MAX_STARRED).map((t) => truncate(t, LIMITS.context)),
    todays_daily_note: today ?? null,
    ...(human ? { user_name: human } : {}),
    ...(ai ? { ai_user_name: ai } : {}),
    next_steps: `Orientation for graph "${nickname}" is done: do not call select_graph again (nor get_graph_guidelines) for it in this session. A good first step: ${first}.`,
    roam_syntax: ROAM_SYNTAX,
  };
}
