/**
 * prompts/list, prompts/get and completion/complete over the prompt catalogue (src-mcp/prompts/).
 *
 * - A prompt is listed only when every tool it names is offered (`refusal` in tool-call.ts, the
 *   one place toolsets, --read-only and capability probes are decided).
 * - prompts/get parses the string arguments against the declaration (INVALID_PARAMS names the
 *   field), resolves the graph as a tool call does (`GraphSession.withGraph`: explicit `graph`, the selection, the
 *   only graph; an explicit one becomes the selection on success) and runs `build`, whose tool
 *   runs go through the tools' own handlers.
 * - completion/complete answers prompt arguments and the resource templates' `{graph}` and
 *   `{title}`.
 * Failures are JSON-RPC errors: -32602 for what the user can fix (an unknown prompt, a bad
 * argument, a page that does not exist), -32603 otherwise; the message starts with our error code.
 */
import {
  ProtocolError,
  ProtocolErrorCode,
  type CompleteRequest,
  type CompleteResult,
  type GetPromptResult,
  type Prompt,
} from '@modelcontextprotocol/server';
import * as z from 'zod';
import type { ConfiguredGraph } from '../../src-shared/roam-config.ts';
import type { CallScope } from '../contract/call-scope.ts';
import { pageTitles, startingWith } from '../prompts/completions.ts';
import type { Completer, PromptContext, PromptDefinition } from '../prompts/prompt-definition.ts';
import { userText } from '../prompts/prompt-text.ts';
import { graphContext, type ToolCallState } from './tool-call.ts';
import { refusal } from './visibility.ts';
import type { ResourceDefinition, ToolDefinition } from '../contract/tool-definition.ts';
import { ToolError, toToolError } from '../contract/tool-errors.ts';
import { namedForTool } from '../contract/roam-feature.ts';

/** The optional `graph` argument every prompt accepts (as every graph tool does). */
const graphArgument = z
  .string()
  .trim()
  .min(1)
  .optional()
  .describe('Graph nickname (default: the selected one)');

/** Codes of failures the user fixes by changing the request: invalid params, not an internal error. */
const USER_FIXABLE = new Set([
  'INVALID_PARAMS',
  'NOT_FOUND',
  'GRAPH_NOT_FOUND',
  'GRAPH_NOT_SELECTED',
  'TOOLSET_NOT_ENABLED',
  'READ_ONLY',
  'INSUFFICIENT_SCOPE',
  'UNKNOWN_TOOL',
]);

const NO_VALUES: CompleteResult = { completion: { values: [], total: 0, hasMore: false } };

export class PromptHandlers {
  private readonly parsers = new WeakMap<ToolDefinition, z.ZodObject>();

  constructor(
    private readonly prompts: readonly PromptDefinition[],
    private readonly tools: readonly ToolDefinition[],
    private readonly resources: readonly ResourceDefinition[],
    private readonly state: ToolCallState,
  ) {}

  /** The prompts whose tools are all offered, in catalogue order. */
  visible(): PromptDefinition[] {
    return this.prompts.filter((prompt) => this.refusalOf(prompt) === undefined);
  }

  list(): Prompt[] {
    return this.visible().map(listedPrompt);
  }

  async get(
    name: string,
    raw: Record<string, string> | undefined,
    signal: AbortSignal,
  ): Promise<GetPromptResult> {
    const prompt = this.find(name);
    const { graph: ref, ...args } = parseArguments(prompt, raw);
    const notes: string[] = [];
    const scope: CallScope = { signal, progress: () => {}, notice: (message) => notes.push(message) };
    const resolved: { graph?: ConfiguredGraph } = {};
    try {
      const result = await this.state.gateway.session.withGraph(ref as string | undefined, (graph) => {
        resolved.graph = graph;
        return prompt.build(args, this.context(prompt, graph, scope));
      });
      return { ...result, messages: [...result.messages, ...notes.map((note) => userText(`Note: ${note}`))] };
    } catch (error) {
      throw toProtocolError(error, resolved.graph);
    }
  }

  async complete(params: CompleteRequest['params'], signal: AbortSignal): Promise<CompleteResult> {
    const { ref, argument } = params;
    const completer =
      ref.type === 'ref/prompt'
        ? this.find(ref.name).complete?.[argument.name]
        : this.templateCompleter(ref.uri, argument.name);
    const session = this.state.gateway.session;
    if (argument.name === 'graph') {
      return {
        completion: startingWith(
          session.list().map((graph) => graph.nickname),
          argument.value,
        ),
      };
    }
    if (!completer) return NO_VALUES;
    let graph: ConfiguredGraph;
    try {
      graph = session.resolve(params.context?.arguments?.graph);
    } catch {
      // No graph to complete from yet (several configured, none chosen): nothing to offer.
      return NO_VALUES;
    }
    const scope: CallScope = { signal, progress: () => {}, notice: () => {} };
    try {
      return { completion: await completer(argument.value, graphContext(this.state, graph, scope)) };
    } catch (error) {
      throw toProtocolError(error, graph);
    }
  }

  /** A listed prompt by name; an unknown one, or one whose tools are not offered, says why. */
  private find(name: string): PromptDefinition {
    if (this.state.toolsetsProblem)
      throw toProtocolError(new ToolError('CONFIG_INVALID', this.state.toolsetsProblem));
    const prompt = this.prompts.find((p) => p.name === name);
    if (!prompt) {
      const listed = this.visible().map((p) => p.name);
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `There is no prompt named '${name}'. Prompts: ${listed.join(', ') || 'none'} (prompts/list).`,
      );
    }
    const refused = this.refusalOf(prompt);
    if (refused) throw toProtocolError(refused);
    return prompt;
  }

  /** Why a prompt cannot run now: the first of its tools that is not offered, and why. */
  private refusalOf(prompt: PromptDefinition): ToolError | undefined {
    for (const name of prompt.tools) {
      const tool = this.tools.find((t) => t.name === name);
      const refused = tool
        ? refusal(tool, this.state)
        : new ToolError('UNKNOWN_TOOL', `${name} is not in this build.`);
      if (refused) {
        return new ToolError(
          refused.code,
          `The ${prompt.name} prompt needs ${name}. ${refused.message}`,
          refused.details,
        );
      }
    }
    return undefined;
  }

  private templateCompleter(uriTemplate: string, variable: string): Completer | undefined {
    if (!this.resources.some((resource) => resource.uriTemplate === uriTemplate)) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Unknown resource template ${uriTemplate}. Templates: ${this.resources.map((r) => r.uriTemplate).join(', ')}.`,
      );
    }
    return variable === 'title' && uriTemplate.includes('{title}') ? pageTitles : undefined;
  }

  private context(prompt: PromptDefinition, graph: ConfiguredGraph, scope: CallScope): PromptContext {
    return {
      graph: { name: graph.name, nickname: graph.nickname },
      roam: graphContext(this.state, graph, scope),
      tool: <T>(name: string, args: Record<string, unknown> = {}) =>
        this.runTool(prompt, name, args, graph, scope) as Promise<T>,
    };
  }

  /** One of the prompt's read tools, through its own handler, refusal and argument defaults. */
  private async runTool(
    prompt: PromptDefinition,
    name: string,
    args: Record<string, unknown>,
    graph: ConfiguredGraph,
    scope: CallScope,
  ): Promise<unknown> {
    const tool = this.tools.find((t) => t.name === name);
    if (!tool || tool.scope !== 'graph' || tool.writes || !prompt.tools.includes(name)) {
      throw new Error(`the ${prompt.name} prompt runs ${name}, which is not a read tool it names`);
    }
    const refused = refusal(tool, this.state);
    if (refused) throw refused;
    let parser = this.parsers.get(tool);
    if (!parser) this.parsers.set(tool, (parser = z.object(tool.inputSchema)));
    try {
      return await tool.handler(parser.parse(args), graphContext(this.state, graph, scope, tool));
    } catch (error) {
      throw namedForTool(error, tool);
    }
  }
}

function argumentShape(prompt: PromptDefinition): z.ZodRawShape {
  return { ...prompt.arguments, graph: graphArgument };
}

/** A prompt as prompts/list shows it: `required` only where it is true (every byte is paid per chat). */
function listedPrompt(prompt: PromptDefinition): Prompt {
  return {
    name: prompt.name,
    title: prompt.title,
    description: prompt.description,
    arguments: Object.entries(argumentShape(prompt) as Record<string, z.ZodType>).map(([name, schema]) => ({
      name,
      ...(schema.description ? { description: schema.description } : {}),
      ...(schema.safeParse(undefined).success ? {} : { required: true }),
    })),
  };
}

/** Empty strings are "not given" (clients send every argument of the form). */
function parseArguments(
  prompt: PromptDefinition,
  raw: Record<string, string> | undefined,
): Record<string, unknown> {
  const shape = argumentShape(prompt);
  const given = Object.fromEntries(
    Object.entries(raw ?? {}).filter(([, value]) => String(value).trim() !== ''),
  );
  const parsed = z.object(shape).strict().safeParse(given);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) =>
    issue.code === 'unrecognized_keys'
      ? `unknown argument ${issue.keys.map((k) => `\`${k}\``).join(', ')}`
      : `\`${issue.path.map(String).join('.')}\`: ${issue.message}`,
  );
  const accepted = listedPrompt(prompt).arguments!.map((a) => `${a.name}${a.required ? ' (required)' : ''}`);
  throw new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `INVALID_PARAMS: Invalid arguments for the ${prompt.name} prompt: ${problems.join('; ')}. Its arguments: ${accepted.join(', ')}.`,
    { code: 'INVALID_PARAMS' },
  );
}

function toProtocolError(error: unknown, graph?: { nickname: string }): ProtocolError {
  if (error instanceof ProtocolError) return error;
  const failure = toToolError(error, graph);
  return new ProtocolError(
    USER_FIXABLE.has(failure.code) ? ProtocolErrorCode.InvalidParams : ProtocolErrorCode.InternalError,
    `${failure.code}: ${failure.message}`,
    { code: failure.code, ...failure.details },
  );
}
