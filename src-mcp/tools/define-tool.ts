/** Typed construction of table entries: each handler sees its own argument types. */
import type { z } from 'zod';
import type { ToolContext, ToolDefinition } from '../tool-definition.ts';
import type { CallScope } from '../call-scope.ts';

export function defineTool<Shape extends z.ZodRawShape>(definition: ToolDefinition<Shape>): ToolDefinition {
  return definition as unknown as ToolDefinition;
}

/**
 * The server hands every handler a ToolContext that also carries the call's scope (for notes
 * appended to the result); tools outside src-mcp's core only see ToolContext.
 */
export interface ServerToolContext extends ToolContext {
  scope: CallScope;
}

export function callScope(ctx: ToolContext): CallScope {
  const scope = (ctx as Partial<ServerToolContext>).scope;
  return scope ?? { signal: ctx.signal, progress: ctx.progress, notice: () => {} };
}
