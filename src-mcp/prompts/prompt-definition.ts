/**
 * The prompt declaration contract (what a prompt file in src-mcp/prompts/ writes;
 * src-mcp/server/prompt-handlers.ts lists, completes and runs it). One form for every prompt:
 *
 *   definePrompt({ name, title, description, tools, arguments, complete, build })
 *
 * A prompt is a command the user picks (a slash command in most clients). Its messages already
 * hold the facts, read through the tools it names, so the model starts from them instead of from
 * a tool call it might not make. It is listed only when every tool it names is offered: the
 * toolsets, --read-only and capability probes decide for prompts exactly as for those tools.
 */
import type { PromptMessage } from '@modelcontextprotocol/server';
import type * as z from 'zod';
import type { ToolContext } from '../contract/tool-definition.ts';

/** What a client may offer for an argument while the user types (at most 100 values). */
export type Completion = {
  values: string[];
  total: number;
  hasMore: boolean;
};

/** Values for a partly typed argument, from the graph the prompt would run on. */
export type Completer = (value: string, roam: ToolContext) => Promise<Completion>;

/** What a prompt's `build` may use, bound to the graph the request resolved to. */
export interface PromptContext {
  /** Never carries the token. */
  graph: { name: string; nickname: string };
  /**
   * Runs one of the tools the prompt names on this graph and returns the handler's answer (a
   * JSON value, or markdown text): the same data, limits and hiding as a tools/call.
   */
  tool<T = unknown>(name: string, args?: Record<string, unknown>): Promise<T>;
  /** Local API calls bound to the graph, for the tools' support functions (the link index, previews). */
  roam: ToolContext;
}

export interface PromptResult {
  /** What this answer is, e.g. "Backlinks of [[Apollo]] in Demo" (clients may show it). */
  description: string;
  messages: PromptMessage[];
}

export interface PromptDefinition<Shape extends z.ZodRawShape = z.ZodRawShape> {
  /** kebab-case: the slash command's name. */
  name: string;
  title: string;
  /** Short: every prompts/list carries it. */
  description: string;
  /** Every tool `build` runs or whose data it embeds; the prompt is listed only when all are offered. */
  tools: readonly string[];
  /**
   * Arguments arrive as strings (a shape of string, enum or coerced schemas); every prompt also
   * accepts the optional `graph` (added by the handlers, completed with the graph nicknames).
   */
  arguments: Shape;
  /** Completion of the arguments that have one (page titles, dates). */
  complete?: { [K in keyof Shape]?: Completer };
  build(args: z.infer<z.ZodObject<Shape>>, ctx: PromptContext): Promise<PromptResult>;
}

/** Typed construction: `build` sees its own argument types; the catalogue holds the erased form. */
export function definePrompt<Shape extends z.ZodRawShape>(
  definition: PromptDefinition<Shape>,
): PromptDefinition {
  return definition as unknown as PromptDefinition;
}
