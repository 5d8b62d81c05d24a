/**
 * Errors that name what a tool does, from its declaration (`feature`, `actions`): a Roam Desktop
 * build without the action (404 UNKNOWN_ACTION) says which build the feature needs; a token
 * without the scope says which access level to ask for.
 */
import {
  LocalApiError,
  scopeOfAction,
  unknownActionAdvice,
  type Scope,
} from '../../src-shared/local-api/index.ts';
import { actionOf, type ToolContext, type ToolDefinition } from './tool-definition.ts';
import { ToolError } from './tool-errors.ts';

/** What a feature-named error says: what the agent tried, the build it needs, the scope. */
export interface RoamFeature {
  /** e.g. "Comments". */
  name: string;
  needs: string;
  scope: Scope;
}

const CURRENT = 'a current Roam Desktop build';

/** What `tool` declares Roam must have to offer `action`, when not every current build does. */
export function needsOf(tool: ToolDefinition, action: string): string | undefined {
  return tool.actions.map(actionOf).find((declared) => declared.action === action)?.needs;
}

/** The feature `tool` uses through `action`, as feature-named errors say it. */
export function featureOf(tool: ToolDefinition, action: string): RoamFeature {
  return {
    name: tool.feature.charAt(0).toUpperCase() + tool.feature.slice(1),
    needs: needsOf(tool, action) ?? CURRENT,
    scope: scopeOfAction(action),
  };
}

/**
 * A Local API error of `tool` as the agent reads it: UNKNOWN_ACTION names the tool's feature and
 * the build it needs; anything else is unchanged.
 */
export function namedForTool(error: unknown, tool: ToolDefinition): unknown {
  if (!(error instanceof LocalApiError) || error.kind !== 'unknown-action') return error;
  const missing = { feature: `${tool.feature} (${tool.name})`, needs: needsOf(tool, error.action ?? '') };
  return new LocalApiError({
    status: error.status,
    code: error.code,
    kind: error.kind,
    message: `${error.serverMessage}. ${unknownActionAdvice(error.action, error.apiVersion, missing)}`,
    serverMessage: error.serverMessage,
    apiVersion: error.apiVersion,
    action: error.action,
  });
}

const LEVEL_FOR: Record<Scope, string> = {
  read: '"Read only" or more',
  append: '"Read + Append" or "Full access"',
  edit: '"Full access"',
};

/** One Local API call of the running tool, with errors that start with its feature's name. */
export async function callFeature<T = unknown>(
  ctx: ToolContext,
  action: string,
  args: unknown[],
): Promise<T> {
  try {
    return await ctx.call<T>(action, args);
  } catch (error) {
    throw featureError(error, ctx, action);
  }
}

/**
 * UNKNOWN_ACTION and INSUFFICIENT_SCOPE from `action` as errors naming the running tool's feature
 * (`override` changes what they say, e.g. an extension tool's own name and scope).
 */
export function featureError(
  error: unknown,
  ctx: ToolContext,
  action: string,
  override: Partial<RoamFeature> = {},
): unknown {
  if (!(error instanceof LocalApiError) || !ctx.tool) return error;
  const feature = { ...featureOf(ctx.tool, action), ...override };
  const graph = ctx.graph.nickname;
  if (error.kind === 'unknown-action') {
    return new ToolError(
      'UNKNOWN_ACTION',
      `${feature.name}: this Roam Desktop does not offer ${action}; it needs ${feature.needs}. Ask the user to update Roam Desktop, then try again.`,
      { graph, action },
    );
  }
  if (error.kind === 'scope') {
    return new ToolError(
      'INSUFFICIENT_SCOPE',
      `${feature.name} needs ${feature.scope} access, which the token for graph '${graph}' lacks (Roam: ${error.serverMessage}). Get a token with ${LEVEL_FOR[feature.scope]}: run 'roam-mcp connect', or create one in Roam: Settings > Graph > Local API Tokens.`,
      { graph, needed_scope: feature.scope },
    );
  }
  return error;
}
