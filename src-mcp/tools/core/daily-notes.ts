/**
 * Daily capture: append_to_daily_note, named as the official server's, one data.block.fromMarkdown
 * into the daily note's page (Roam creates the page when missing).
 */
import * as z from 'zod';
import { defineTool, type ToolDefinition } from '../../contract/tool-definition.ts';
import { ToolError } from '../../contract/tool-errors.ts';
import { nestUnder, open } from './block-location.ts';
import { refuseHidden } from './hidden-targets.ts';
import { callFeature } from '../../contract/roam-feature.ts';
import { DAILY_DATE_HINT, isDailyDate, resolveDailyNote } from '../../roam/roam-dates.ts';

export const dailyNoteTools: ToolDefinition[] = [
  defineTool({
    name: 'append_to_daily_note',
    title: 'Append to daily note',
    description:
      'Appends markdown (a block or an outline) to the end of a daily note, creating it if needed. Only adds; returns the new uids.',
    toolset: 'core',
    feature: 'daily-note capture',
    actions: ['data.block.fromMarkdown'],
    scope: 'graph',
    writes: 'append',
    journalWhere: (args) => `to the daily note${args.date ? ` (${args.date})` : ''}`,
    annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
    inputSchema: {
      markdown: z.string().min(1),
      date: z
        .string()
        .refine(isDailyDate, DAILY_DATE_HINT)
        .optional()
        .describe('today (default), yesterday, tomorrow, MM-DD-YYYY or YYYY-MM-DD'),
      nestUnder,
      open,
    },
    outputSchema: { uids: z.array(z.string()), date: z.string(), page: z.string() },
    async handler(args, ctx) {
      // Resolved here, on this machine's local date: Roam only ever receives MM-DD-YYYY.
      const note = resolveDailyNote(args.date ?? 'today');
      if (!note) {
        throw new ToolError('INVALID_PARAMS', `\`date\` '${args.date}' is not a date: ${DAILY_DATE_HINT}.`, {
          field: 'date',
        });
      }
      await refuseHidden(ctx, 'append_to_daily_note', { section: args.nestUnder });
      const location = {
        'page-title': { 'daily-note-page': note.uid },
        order: 'last',
        ...(args.nestUnder === undefined ? {} : { 'nest-under-str': args.nestUnder }),
      };
      const result = await callFeature<{ uids?: unknown } | null>(ctx, 'data.block.fromMarkdown', [
        {
          location,
          'markdown-string': args.markdown,
          ...(args.open === undefined ? {} : { open: args.open }),
        },
      ]);
      return {
        uids: Array.isArray(result?.uids) ? result.uids.map(String) : [],
        date: note.uid,
        page: note.title,
      };
    },
  }),
];
