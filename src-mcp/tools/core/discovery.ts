/**
 * Discovery (data.ai.suggestLinks, data.ai.roamQuery): suggest_links and roam_query, named as the official
 * server's. Both are data.ai.* reads, so Roam applies the hiding rule itself.
 */
import * as z from 'zod';
import { withMissingCheck } from '../../contract/not-found.ts';
import { defineTool, type ToolDefinition } from '../../contract/tool-definition.ts';
import { ToolError } from '../../contract/tool-errors.ts';
import { callFeature } from '../../contract/roam-feature.ts';
import { hitsOutput, hitsPage } from './search-hits.ts';

export const discoveryTools: ToolDefinition[] = [
  defineTool({
    name: 'suggest_links',
    title: 'Suggest links',
    description:
      'Existing pages worth linking to from a passage of text, best first (exact title and date matches). Writes nothing.',
    toolset: 'core',
    feature: 'link suggestions',
    actions: [
      {
        action: 'data.ai.suggestLinks',
        needs: 'a Roam Desktop build of 2026-07-08 or later (Local API 1.1.3)',
      },
    ],
    scope: 'graph',
    annotations: { idempotentHint: true, openWorldHint: false },
    inputSchema: { text: z.string().min(1), maxResults: z.number().int().min(1).max(100).optional() },
    async handler(args, ctx) {
      const result = await callFeature<{ suggestions?: unknown } | null>(ctx, 'data.ai.suggestLinks', [
        { text: args.text, ...(args.maxResults === undefined ? {} : { maxResults: args.maxResults }) },
      ]);
      const suggestions = Array.isArray(result?.suggestions) ? result.suggestions : [];
      return { suggestions: suggestions.slice(0, args.maxResults ?? 100) };
    },
  }),
  defineTool({
    name: 'roam_query',
    title: 'Run Roam query',
    description:
      'Runs a Roam query (not Datalog): `query` like "{and: [[TODO]] {not: [[DONE]]}}", or `uid` of a block with {{query: }}.',
    toolset: 'core',
    feature: 'Roam queries',
    actions: ['data.ai.roamQuery', 'data.q'],
    scope: 'graph',
    annotations: { idempotentHint: true, openWorldHint: false },
    inputSchema: {
      query: z.string().trim().min(1).optional(),
      uid: z.string().min(1).optional(),
      sort: z.enum(['created-date', 'edited-date', 'daily-note-date']).optional(),
      sortOrder: z.enum(['asc', 'desc']).optional(),
      offset: z.number().int().min(0).default(0),
      limit: z.number().int().min(1).max(100).default(20),
      maxDepth: z.number().int().min(0).default(1),
    },
    outputSchema: hitsOutput,
    async handler(args, ctx) {
      if ((args.query === undefined) === (args.uid === undefined)) {
        throw new ToolError('INVALID_PARAMS', 'roam_query needs exactly one of `query` and `uid`.', {
          field: 'query',
        });
      }
      const { offset, limit, maxDepth } = args;
      const request =
        args.uid !== undefined
          ? { uid: args.uid, offset, limit, maxDepth }
          : {
              query: args.query,
              sort: args.sort,
              sortOrder: args.sortOrder,
              includePath: true,
              offset,
              limit,
              maxDepth,
            };
      const run = () => callFeature(ctx, 'data.ai.roamQuery', [request]);
      const result =
        args.uid === undefined
          ? await run()
          : await withMissingCheck(ctx, [{ what: `Block uid '${args.uid}'`, ref: { uid: args.uid } }], run);
      return hitsPage(result, offset, limit);
    },
  }),
];
