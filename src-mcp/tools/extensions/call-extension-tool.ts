/**
 * call_extension_tool: runs an AI tool a Roam extension registered (listed by select_graph as
 * `extensionTools`). An extension tool's handler runs inside Roam with full authority whatever
 * scope it declares, so call_extension_tool counts as a write: select_graph first, never in
 * --read-only mode.
 */
import * as z from 'zod';
import { LocalApiError, type Scope } from '../../../src-shared/local-api/index.ts';
import { LIMITS, truncate } from '../../contract/limits.ts';
import { defineTool, type ToolContext, type ToolDefinition } from '../../contract/tool-definition.ts';
import { ToolError } from '../../contract/tool-errors.ts';
import { listedExtensionTools } from './extension-tools.ts';
import { featureError } from '../../contract/roam-feature.ts';
import { runsExtension } from '../../gate/plan-readers.ts';
/** The scope `tool` declares, looked up only to explain a refusal. */
async function declaredScope(ctx: ToolContext, tool: string): Promise<Scope> {
  const guidelines = await ctx.call('data.ai.getGraphGuidelines', []).catch(() => null);
  return listedExtensionTools(guidelines).find((t) => t.tool === tool)?.scope ?? 'edit';
}

async function callExtension(ctx: ToolContext, tool: string, args: Record<string, unknown> | undefined) {
  const action = 'data.ai.callExtensionTool';
  try {
    return await ctx.call<{ result?: unknown } | null>(action, [{ tool, ...(args ? { args } : {}) }]);
  } catch (error) {
    if (error instanceof LocalApiError && error.kind === 'scope') {
      const scope = await declaredScope(ctx, tool);
      throw featureError(error, ctx, action, { name: `Extension tool '${tool}'`, scope });
    }
    if (error instanceof LocalApiError && error.kind === 'internal') {
      // Unknown tool, arguments not matching its schema, or the handler threw: Roam's text says which.
      throw new ToolError(
        'EXTENSION_TOOL_FAILED',
        `${error.serverMessage}. Tool ids and schemas are in select_graph's extensionTools.`,
        {
          graph: ctx.graph.nickname,
          tool,
          suggested_next_tool: 'select_graph',
        },
      );
    }
    throw featureError(error, ctx, action);
  }
}

export const extensionTools: ToolDefinition[] = [
  defineTool({
    name: 'call_extension_tool',
    title: 'Call extension tool',
    description:
      "Runs a tool a Roam extension registered, by its id from select_graph's extensionTools, with `args` matching its inputSchema.",
    toolset: 'extensions',
    feature: 'extension AI tools',
    actions: [
      {
        action: 'data.ai.callExtensionTool',
        needs: 'a Roam Desktop build with Local API 1.1.5 or later',
        mayWrite: true,
      },
      'data.ai.getGraphGuidelines',
    ],
    scope: 'graph',
    writes: 'edit',
    takes: { read: (args, ctx) => runsExtension(ctx, args.tool) },
    annotations: { destructiveHint: true, idempotentHint: false, openWorldHint: true },
    inputSchema: {
      tool: z.string().min(1),
      args: z.record(z.string(), z.unknown()).optional(),
    },
    async handler(args, ctx) {
      const result = await callExtension(ctx, args.tool, args.args);
      const value = result?.result ?? null;
      const text = JSON.stringify(value) ?? 'null';
      return text.length <= LIMITS.primary
        ? { tool: args.tool, result: value }
        : { tool: args.tool, result: truncate(text, LIMITS.primary), truncated: true };
    },
  }),
];
