/**
 * Roam content tools, named and shaped like the official Roam MCP server's, each one Local API
 * action (data.ai.* for reads, data.block.* / data.page.* for writes, data.q for Datalog).
 */
import { randomBytes } from 'node:crypto';
import * as z from 'zod';
import { fetchHiddenContent, withoutHiddenLines, type HiddenContent } from '../../hidden-blocks.ts';
import { LIMITS, paginate, truncate } from '../../limits.ts';
import { listOutput } from '../../list-envelope.ts';
import { notFoundError, withMissingCheck } from '../../not-found.ts';
import { defineTool, type ToolContext } from '../../tool-definition.ts';
import { ToolError } from '../../tool-errors.ts';
import { boundedAnswer, redactHidden } from '../../tool-support/datalog-answer.ts';
import { checkDeletionReport } from '../../tool-support/deletion-report.ts';
import {
  DAILY_DATE_HINT,
  dailyNote,
  isDailyDate,
  resolveDailyNote,
  type DailyNote,
} from '../../tool-support/roam-dates.ts';

const maxDepth = z
  .number()
  .int()
  .min(0)
  .max(20)
  .optional()
  .describe('Levels of children to include (default: all)');
const offset = z.number().int().min(0).default(0);
const uid = z.string().min(1);
const order = z
  .union([z.number().int().min(0), z.enum(['first', 'last'])])
  .default('last')
  .describe('Position among siblings: 0-based index, "first" or "last"');

/** Roam's `nest-under-str` (local-api-actions.md §6.1). */
export const nestUnder = z
  .string()
  .min(1)
  .optional()
  .describe('Under the direct child with exactly this text (created if absent)');

/** Roam's `order`: numbers work everywhere, so "first" is sent as 0. */
function roamOrder(value: number | 'first' | 'last'): number | 'last' {
  return value === 'first' ? 0 : value;
}

const hitSchema = z.object({
  uid: z.string(),
  type: z.string(),
  path: z.string().optional(),
  markdown: z.string(),
});
export const hitsOutput = listOutput(hitSchema);

/** Roam's uid alphabet and length (9), for pages we create so we can return their uid. */
function newUid(): string {
  const alphabet = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_';
  return Array.from(randomBytes(9), (b) => alphabet[b & 63]).join('');
}

function notFound(ctx: ToolContext, what: string): ToolError {
  return notFoundError(what, ctx.graph.nickname);
}

/** NOT_FOUND instead of "Roam failed" when a write names a uid that does not exist. */
function writeTo<T>(ctx: ToolContext, uids: Record<string, string>, run: () => Promise<T>): Promise<T> {
  const refs = Object.entries(uids).map(([what, uid]) => ({ what: `${what} '${uid}'`, ref: { uid } }));
  return withMissingCheck(ctx, refs, run);
}

interface Hit {
  uid?: unknown;
  type?: unknown;
  path?: unknown;
  markdown?: unknown;
}

/** A Local API `{total, results}` page with every item cut to the list-item limit. */
export function hitsPage(result: unknown, start: number, limit: number) {
  const body = (result ?? {}) as { total?: unknown; results?: unknown; nextOffset?: unknown };
  const hits = Array.isArray(body.results) ? (body.results as Hit[]) : [];
  const total = typeof body.total === 'number' ? body.total : start + hits.length;
  const items = hits.map((h) => ({
    uid: String(h.uid ?? ''),
    // Roam marks only page hits (`type: "page"`); everything else is a block.
    type: h.type === 'page' ? 'page' : 'block',
    ...(typeof h.path === 'string' && h.path ? { path: truncate(h.path, LIMITS.context) } : {}),
    markdown: truncate(String(h.markdown ?? ''), LIMITS.listItem),
  }));
  // Roam hides blocks after paging, so its own nextOffset (when sent) is the one to follow.
  const next = typeof body.nextOffset === 'number' ? body.nextOffset : start + items.length;
  return {
    items,
    total,
    offset: start,
    limit,
    ...(next < total && next > start ? { nextOffset: next } : {}),
  };
}

function target(args: { title?: string; uid?: string }, what: string): { title: string } | { uid: string } {
  if (args.uid) return { uid: args.uid };
  if (args.title) return { title: args.title };
  throw new ToolError('INVALID_PARAMS', `${what} needs either \`title\` or \`uid\`.`, { field: 'title' });
}

/**
 * Templates as the agent sees them: Roam's list (a bare array or `{results}`) without templates
 * inside hidden blocks and without hidden lines in their content.
 */
function visibleTemplates(
  result: unknown,
  hidden: HiddenContent,
): { templates: Array<{ name: string; uid: string; content: string }>; hiddenCount: number } {
  const listed = Array.isArray(result) ? result : (result as { results?: unknown } | null)?.results;
  let hiddenCount = 0;
  const templates = [];
  for (const t of (Array.isArray(listed) ? listed : []) as Array<Record<string, unknown>>) {
    const uid = String(t.uid ?? '');
    if (hidden.uids.has(uid)) {
      hiddenCount++;
      continue;
    }
    const raw = String(t.content ?? '');
    const content = withoutHiddenLines(raw, hidden.strings);
    if (content !== raw) hiddenCount++;
    templates.push({
      name: truncate(String(t.name ?? ''), LIMITS.context),
      uid,
      content: truncate(content, LIMITS.listItem),
    });
  }
  return { templates, hiddenCount };
}

async function pageUidByTitle(ctx: ToolContext, title: string): Promise<string | undefined> {
  const found = await ctx.call('data.q', [
    '[:find ?uid . :in $ ?title :where [?p :node/title ?title] [?p :block/uid ?uid]]',
    title,
  ]);
  return typeof found === 'string' ? found : undefined;
}

/** A relative day is resolved on this machine's local date (src-mcp/tool-support/roam-dates.ts). */
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

/** The parent for create_block: a uid as given, or a page (created when missing) by title or date. */
async function resolveParent(
  ctx: ToolContext,
  args: { parentUid?: string; pageTitle?: string; dailyNotePage?: boolean | string },
): Promise<{ uid: string; createdPage?: string }> {
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
  if (args.parentUid) return { uid: args.parentUid };
  const page =
    args.pageTitle !== undefined
      ? { title: args.pageTitle, uid: newUid() }
      : dailyNotePage(args.dailyNotePage);
  const existing = await pageUidByTitle(ctx, page.title);
  if (existing) return { uid: existing };
  await ctx.call('data.page.create', [{ page: { title: page.title, uid: page.uid } }]);
  return { uid: page.uid, createdPage: page.title };
}

export const contentTools = [
  defineTool({
    name: 'get_page',
    title: 'Get page',
    description:
      'A page as markdown by title or uid. Blocks carry <roam uid="..."/> tags: use those uids with the other tools.',
    toolset: 'core',
    feature: 'page reads',
    actions: ['data.ai.getPage'],
    scope: 'graph',
    annotations: { idempotentHint: true, openWorldHint: false },
    inputSchema: { title: z.string().min(1).optional(), uid: uid.optional(), maxDepth },
    async handler(args, ctx) {
      const result = (await ctx.call('data.ai.getPage', [
        { ...target(args, 'get_page'), maxDepth: args.maxDepth ?? null },
      ])) as { markdown?: unknown } | null;
      if (!result || typeof result.markdown !== 'string')
        throw notFound(ctx, args.uid ? `Page uid '${args.uid}'` : `Page '${args.title}'`);
      return truncate(result.markdown, LIMITS.primary);
    },
  }),
  defineTool({
    name: 'get_block',
    title: 'Get block',
    description:
      'A block and its children as markdown, with its path (page > parents). Uids come from <roam uid="..."/> tags.',
    toolset: 'core',
    feature: 'block reads',
    actions: ['data.ai.getBlock'],
    scope: 'graph',
    annotations: { idempotentHint: true, openWorldHint: false },
    inputSchema: { uid, maxDepth },
    async handler(args, ctx) {
      const result = (await ctx.call('data.ai.getBlock', [
        { uid: args.uid, maxDepth: args.maxDepth ?? null },
      ])) as { markdown?: unknown; path?: unknown } | null;
      if (!result || typeof result.markdown !== 'string') throw notFound(ctx, `Block uid '${args.uid}'`);
      const path = typeof result.path === 'string' && result.path ? `Path: ${result.path}\n\n` : '';
      return truncate(path + result.markdown, LIMITS.primary);
    },
  }),
  defineTool({
    name: 'get_backlinks',
    title: 'Get backlinks',
    description:
      'Blocks that reference a page or block (linked references), paginated, optionally filtered by text.',
    toolset: 'core',
    feature: 'linked references',
    actions: ['data.ai.getBacklinks', 'data.q'],
    scope: 'graph',
    annotations: { idempotentHint: true, openWorldHint: false },
    inputSchema: {
      title: z.string().min(1).optional(),
      uid: uid.optional(),
      offset,
      limit: z.number().int().min(1).max(100).default(20),
      sort: z.enum(['created-date', 'edited-date', 'daily-note-date']).optional(),
      sortOrder: z.enum(['asc', 'desc']).optional(),
      search: z.string().optional().describe('Only backlinks containing this text'),
      maxDepth: z.number().int().min(0).max(10).default(1),
    },
    outputSchema: hitsOutput,
    async handler(args, ctx) {
      const { offset: start, limit, ...rest } = args;
      const ref = target(args, 'get_backlinks');
      const what = 'uid' in ref ? `Page or block uid '${ref.uid}'` : `Page '${ref.title}'`;
      const result = await withMissingCheck(
        ctx,
        [{ what, ref }],
        () =>
          ctx.call('data.ai.getBacklinks', [{ ...rest, ...ref, offset: start, limit, includePath: true }]),
        true,
      );
      return hitsPage(result, start, limit);
    },
  }),
  defineTool({
    name: 'search',
    title: 'Search',
    description: 'Full-text search over pages and blocks (every word must match), paginated.',
    toolset: 'core',
    feature: 'search',
    actions: ['data.ai.search'],
    scope: 'graph',
    annotations: { idempotentHint: true, openWorldHint: false },
    inputSchema: {
      query: z.string().trim().min(1),
      scope: z.enum(['all', 'pages', 'blocks']).default('all'),
      offset,
      limit: z.number().int().min(1).max(100).default(20),
      maxDepth: z.number().int().min(0).max(10).default(0),
    },
    outputSchema: hitsOutput,
    async handler(args, ctx) {
      const result = await ctx.call('data.ai.search', [{ ...args, includePath: true }]);
      return hitsPage(result, args.offset, args.limit);
    },
  }),
  defineTool({
    name: 'search_templates',
    title: 'Search templates',
    description:
      'Roam templates (blocks tagged [[roam/templates]]) whose name contains the query, with their content.',
    toolset: 'core',
    feature: 'templates',
    actions: ['data.ai.searchTemplates', 'data.q'],
    scope: 'graph',
    annotations: { idempotentHint: true, openWorldHint: false },
    inputSchema: {
      query: z.string().default(''),
      offset,
      limit: z.number().int().min(1).max(100).default(20),
    },
    outputSchema: {
      ...listOutput(z.object({ name: z.string(), uid: z.string(), content: z.string() })),
      hiddenNote: z.string().optional(),
    },
    async handler(args, ctx) {
      // Roam does not apply the hiding rule to templates; we do (src-mcp/hidden-blocks.ts).
      const [result, hidden] = await Promise.all([
        ctx.call<unknown>('data.ai.searchTemplates', [{ query: args.query }]),
        fetchHiddenContent(ctx),
      ]);
      const { templates, hiddenCount } = visibleTemplates(result, hidden);
      return {
        ...paginate(templates, args.offset, args.limit),
        ...(hiddenCount > 0
          ? {
              hiddenNote: `${hiddenCount} template(s) or template line(s) the user hid from AI (#.rm-hide / #.rm-private) are left out.`,
            }
          : {}),
      };
    },
  }),
  defineTool({
    name: 'datalog_query',
    title: 'Datalog query',
    description:
      'Runs a Datalog query (data.q) against the graph database, e.g. [:find ?t :where [?p :node/title ?t]]. Results are paginated and cut to fit; texts and uids of blocks hidden from AI are redacted.',
    toolset: 'core',
    feature: 'Datalog queries',
    actions: ['data.q'],
    scope: 'graph',
    annotations: { idempotentHint: true, openWorldHint: false },
    inputSchema: {
      query: z.string().trim().min(1),
      inputs: z.array(z.unknown()).default([]).describe('Values for the :in clause after $'),
      offset,
      limit: z.number().int().min(1).max(1000).default(100),
    },
    async handler(args, ctx) {
      // Raw q is not filtered by Roam (docs/mcp.md): redact hidden blocks, then bound the answer.
      const [result, hidden] = await Promise.all([
        ctx.call('data.q', [args.query, ...args.inputs]),
        fetchHiddenContent(ctx),
      ]);
      const { value, redacted } = redactHidden(result ?? [], hidden);
      return boundedAnswer(value, { offset: args.offset, limit: args.limit }, redacted);
    },
  }),
  defineTool({
    name: 'create_page',
    title: 'Create page',
    description:
      'Creates a page, optionally with content as a markdown outline ("- item\\n  - child"). Returns its uid.',
    toolset: 'core',
    feature: 'page creation',
    actions: ['data.q', 'data.page.fromMarkdown', 'data.page.create'],
    scope: 'graph',
    writes: 'append',
    annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
    inputSchema: { title: z.string().trim().min(1), markdown: z.string().optional() },
    async handler(args, ctx) {
      if (await pageUidByTitle(ctx, args.title)) {
        throw new ToolError(
          'PAGE_EXISTS',
          `A page titled '${args.title}' already exists. Add to it with create_block {pageTitle}.`,
          {
            suggested_next_tool: 'create_block',
          },
        );
      }
      const page = { title: args.title, uid: newUid() };
      if (args.markdown !== undefined)
        await ctx.call('data.page.fromMarkdown', [{ page, 'markdown-string': args.markdown }]);
      else await ctx.call('data.page.create', [{ page }]);
      return { created: 'page', uid: page.uid, title: page.title };
    },
  }),
  defineTool({
    name: 'create_block',
    title: 'Create block',
    description:
      'Adds markdown (one block, or an outline "- a\\n  - b") under a parent block/page uid, a page title, or a daily note page (created if missing).',
    toolset: 'core',
    feature: 'block creation',
    actions: ['data.q', 'data.page.create', 'data.block.fromMarkdown'],
    scope: 'graph',
    writes: 'append',
    annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
    inputSchema: {
      markdown: z.string().min(1),
      parentUid: uid.optional(),
      pageTitle: z.string().trim().min(1).optional(),
      dailyNotePage: z
        .union([z.boolean(), z.string().refine(isDailyDate, DAILY_DATE_HINT)])
        .optional()
        .describe('true, today, yesterday, tomorrow, MM-DD-YYYY or YYYY-MM-DD'),
      nestUnder,
      order,
    },
    async handler(args, ctx) {
      const parent = await resolveParent(ctx, args);
      const section = args.nestUnder === undefined ? {} : { 'nest-under-str': args.nestUnder };
      const result = await writeTo(ctx, { 'Parent uid': parent.uid }, () =>
        ctx.call<{ uids?: unknown } | null>('data.block.fromMarkdown', [
          {
            location: { 'parent-uid': parent.uid, order: roamOrder(args.order), ...section },
            'markdown-string': args.markdown,
          },
        ]),
      );
      return {
        created: 'blocks',
        ...(Array.isArray(result?.uids) ? { uids: result.uids.map(String) } : {}),
        parentUid: parent.uid,
        ...(parent.createdPage ? { createdPage: parent.createdPage } : {}),
        hint: 'get_block on parentUid shows the new blocks with their uids.',
      };
    },
  }),
  defineTool({
    name: 'update_block',
    title: 'Update block',
    description: "Changes a block's text, open/collapsed state or heading level (0 removes the heading).",
    toolset: 'core',
    feature: 'block updates',
    actions: ['data.block.update', 'data.q'],
    scope: 'graph',
    writes: 'edit',
    annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
    inputSchema: {
      uid,
      string: z.string().optional(),
      open: z.boolean().optional(),
      heading: z.number().int().min(0).max(3).optional(),
    },
    async handler(args, ctx) {
      const { uid: blockUid, ...fields } = args;
      if (Object.keys(fields).length === 0) {
        throw new ToolError(
          'INVALID_PARAMS',
          'update_block needs at least one of `string`, `open`, `heading`.',
          {
            field: 'string',
          },
        );
      }
      await writeTo(ctx, { 'Block uid': blockUid }, () =>
        ctx.call('data.block.update', [{ block: { uid: blockUid, ...fields } }]),
      );
      return { updated: 'block', uid: blockUid };
    },
  }),
  defineTool({
    name: 'move_block',
    title: 'Move block',
    description: 'Moves a block (with its children) under another parent block or page.',
    toolset: 'core',
    feature: 'block moves',
    actions: ['data.block.move', 'data.q'],
    scope: 'graph',
    writes: 'edit',
    annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
    inputSchema: { uid, parentUid: uid, order },
    async handler(args, ctx) {
      await writeTo(ctx, { 'Block uid': args.uid, 'Parent uid': args.parentUid }, () =>
        ctx.call('data.block.move', [
          {
            location: { 'parent-uid': args.parentUid, order: roamOrder(args.order) },
            block: { uid: args.uid },
          },
        ]),
      );
      return { moved: 'block', uid: args.uid, parentUid: args.parentUid };
    },
  }),
  defineTool({
    name: 'delete_block',
    title: 'Delete block',
    description: 'Deletes a block and all its children.',
    toolset: 'core',
    feature: 'block deletes',
    actions: ['data.block.delete', 'data.q'],
    scope: 'graph',
    writes: 'edit',
    annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
    inputSchema: { uid },
    async handler(args, ctx) {
      const report = await writeTo(ctx, { 'Block uid': args.uid }, () =>
        ctx.call('data.block.delete', [{ block: { uid: args.uid } }]),
      );
      checkDeletionReport(report, 'block', args.uid, ctx.graph.nickname);
      return { deleted: 'block', uid: args.uid };
    },
  }),
  defineTool({
    name: 'update_page',
    title: 'Rename page',
    description: "Changes a page's title (references to it follow).",
    toolset: 'core',
    feature: 'page renames',
    actions: ['data.page.update', 'data.q'],
    scope: 'graph',
    writes: 'edit',
    annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
    inputSchema: { uid, title: z.string().trim().min(1) },
    async handler(args, ctx) {
      await writeTo(ctx, { 'Page uid': args.uid }, () =>
        ctx.call('data.page.update', [{ page: { uid: args.uid, title: args.title } }]),
      );
      return { updated: 'page', uid: args.uid, title: args.title };
    },
  }),
  defineTool({
    name: 'delete_page',
    title: 'Delete page',
    description: 'Deletes a page and all its blocks.',
    toolset: 'core',
    feature: 'page deletes',
    actions: ['data.page.delete', 'data.q'],
    scope: 'graph',
    writes: 'edit',
    annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
    inputSchema: { uid },
    async handler(args, ctx) {
      const report = await writeTo(ctx, { 'Page uid': args.uid }, () =>
        ctx.call('data.page.delete', [{ page: { uid: args.uid } }]),
      );
      checkDeletionReport(report, 'page', args.uid, ctx.graph.nickname);
      return { deleted: 'page', uid: args.uid };
    },
  }),
];
