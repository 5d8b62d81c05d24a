/**
 * Reading Roam content, named and shaped like the official Roam MCP server's: pages, blocks,
 * backlinks, search and templates through data.ai.* (Roam applies the hiding rule), Datalog
 * through data.q (we redact hidden blocks).
 */
import * as z from 'zod';
import {
  fetchHiddenContent,
  HIDING_TAGS,
  withoutHiddenLines,
  type HiddenContent,
} from '../../roam/hidden-blocks.ts';
import { LIMITS, paginate, truncate } from '../../contract/limits.ts';
import { listOutput } from '../../contract/list-envelope.ts';
import { notFoundError, withMissingCheck } from '../../contract/not-found.ts';
import { defineTool, type ToolContext } from '../../contract/tool-definition.ts';
import { ToolError } from '../../contract/tool-errors.ts';
import { boundedAnswer } from './datalog-answer.ts';
import { guardQuery, HIDDEN_COUNT_QUERY } from '../../roam/datalog-guard.ts';
import { linkedReferencesText, pathText } from '../../roam/linked-references.ts';
import { hitsOutput, hitsPage } from './search-hits.ts';

const maxDepth = z.number().int().min(0).max(20).optional().describe('Child levels (default: all)');
const offset = z.number().int().min(0).default(0);
const uid = z.string().min(1);

function notFound(ctx: ToolContext, what: string): ToolError {
  return notFoundError(what, ctx.graph.nickname);
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

export const contentReadTools = [
  defineTool({
    name: 'get_page',
    title: 'Get page',
    description: 'A page as markdown, by title or uid.',
    toolset: 'core',
    feature: 'page reads',
    actions: ['data.ai.getPage'],
    scope: 'graph',
    annotations: { idempotentHint: true, openWorldHint: false },
    inputSchema: { title: z.string().min(1).optional(), uid: uid.optional(), maxDepth },
    async handler(args, ctx) {
      const result = (await ctx.call('data.ai.getPage', [
        { ...target(args, 'get_page'), maxDepth: args.maxDepth ?? null },
      ])) as { markdown?: unknown; linkedReferences?: unknown } | null;
      if (!result || typeof result.markdown !== 'string')
        throw notFound(ctx, args.uid ? `Page uid '${args.uid}'` : `Page '${args.title}'`);
      return truncate(result.markdown + linkedReferencesText(result.linkedReferences), LIMITS.primary);
    },
  }),
  defineTool({
    name: 'get_block',
    title: 'Get block',
    description: 'A block and its children as markdown, with its path (page > parents).',
    toolset: 'core',
    feature: 'block reads',
    actions: ['data.ai.getBlock'],
    scope: 'graph',
    annotations: { idempotentHint: true, openWorldHint: false },
    inputSchema: { uid, maxDepth },
    async handler(args, ctx) {
      const result = (await ctx.call('data.ai.getBlock', [
        { uid: args.uid, maxDepth: args.maxDepth ?? null },
      ])) as { markdown?: unknown; path?: unknown; linkedReferences?: unknown } | null;
      if (!result || typeof result.markdown !== 'string') throw notFound(ctx, `Block uid '${args.uid}'`);
      const breadcrumb = pathText(result.path);
      const path = breadcrumb ? `Path: ${breadcrumb}\n\n` : '';
      const references = linkedReferencesText(result.linkedReferences);
      return truncate(path + result.markdown + references, LIMITS.primary);
    },
  }),
  defineTool({
    name: 'get_backlinks',
    title: 'Get backlinks',
    description: 'Blocks that reference a page or block (its linked references).',
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
    description: 'Full-text search over pages and blocks (every word must match).',
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
      // Roam does not apply the hiding rule to templates; we do (src-mcp/roam/hidden-blocks.ts).
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
      'Runs a Datalog query (data.q), e.g. [:find ?t :where [?p :node/title ?t]], as if blocks hidden from AI were absent. Attributes named; no rules, [*] or pulls of children. Cut to fit.',
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
      // Roam's q applies no hiding rule (docs/mcp.md): the query itself is guarded.
      const guarded = guardQuery(args.query, args.inputs.length);
      const [result, hiddenBlocks] = await Promise.all([
        ctx.call('data.q', [guarded, ...args.inputs]),
        ctx.call<number | null>('data.q', [HIDDEN_COUNT_QUERY, [...HIDING_TAGS]]),
      ]);
      return boundedAnswer(result ?? [], { offset: args.offset, limit: args.limit }, hiddenBlocks ?? 0);
    },
  }),
];
