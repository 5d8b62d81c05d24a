/**
 * Where a new block or page goes: a position among siblings, a section under a parent, and the
 * parent itself (a uid, or a page by title or daily-note date, created when missing).
 */
import { randomBytes } from 'node:crypto';
import * as z from 'zod';
import type { ToolContext } from '../../contract/tool-definition.ts';
import { ToolError } from '../../contract/tool-errors.ts';
import { DAILY_DATE_HINT, dailyNote, resolveDailyNote, type DailyNote } from '../../roam/roam-dates.ts';

export const order = z
  .union([z.number().int().min(0), z.enum(['first', 'last'])])
  .default('last')
  .describe('Position among siblings (0-based)');

/** Roam's `nest-under-str`: the block goes under the parent's child with this text. */
export const nestUnder = z
  .string()
  .min(1)
  .optional()
  .describe('Under the direct child with exactly this text (created if absent)');

/** Roam's `order`: numbers work everywhere, so "first" is sent as 0. */
export function roamOrder(value: number | 'first' | 'last'): number | 'last' {
  return value === 'first' ? 0 : value;
}

/** Roam's uid alphabet and length (9), for pages we create so we can return their uid. */
export function newUid(): string {
  const alphabet = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_';
  return Array.from(randomBytes(9), (b) => alphabet[b & 63]).join('');
}

export async function pageUidByTitle(ctx: ToolContext, title: string): Promise<string | undefined> {
  const found = await ctx.call('data.q', [
    '[:find ?uid . :in $ ?title :where [?p :node/title ?title] [?p :block/uid ?uid]]',
    title,
  ]);
  return typeof found === 'string' ? found : undefined;
}

/** A relative day is resolved on this machine's local date (src-mcp/roam/roam-dates.ts). */
function dailyNotePage(value: boolean | string | undefined): DailyNote {
  if (typeof value !== 'string') return dailyNote();
  const note = resolveDailyNote(value);
  if (!note) {
    throw new ToolError('INVALID_PARAMS', `\`dailyNotePage\` '${value}' is not a date: ${DAILY_DATE_HINT}.`, {
      field: 'dailyNotePage',
    });
  }
  return note;
}

/** `open: false`: Roam creates the new top-level blocks collapsed (builds without it ignore the key). */
export const open = z.boolean().optional().describe('false: new blocks collapsed');

/**
 * Where create_block writes, in Roam's own words (data.block.fromMarkdown's location): a parent uid, a
 * page by title, or a daily note by date; Roam creates a missing page in the same call, so there
 * is no lookup and no race with another writer creating it. `page` and `parentUid` are what the
 * result can say without asking Roam (a daily note's uid is its MM-DD-YYYY date).
 */
export function markdownLocation(args: {
  parentUid?: string;
  pageTitle?: string;
  dailyNotePage?: boolean | string;
}): { location: Record<string, unknown>; parentUid?: string; page?: string } {
  const given = [args.parentUid, args.pageTitle, args.dailyNotePage || undefined].filter(
    (x) => x !== undefined,
  );
  if (given.length !== 1) {
    throw new ToolError(
      'INVALID_PARAMS',
      'create_block needs exactly one location: `parentUid` (a block or page uid), `pageTitle`, or `dailyNotePage` (true, today, yesterday, tomorrow, MM-DD-YYYY or YYYY-MM-DD).',
      { field: 'parentUid' },
    );
  }
  if (args.parentUid) return { location: { 'parent-uid': args.parentUid }, parentUid: args.parentUid };
  if (args.pageTitle !== undefined)
    return { location: { 'page-title': args.pageTitle }, page: args.pageTitle };
  const note = dailyNotePage(args.dailyNotePage);
  return {
    location: { 'page-title': { 'daily-note-page': note.uid } },
    parentUid: note.uid,
    page: note.title,
  };
}
