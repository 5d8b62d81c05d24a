/**
 * Errors that name the feature (docs/mcp.md, New in issue 12): a Roam Desktop build without the
 * action (404 UNKNOWN_ACTION) says which build the feature needs; a token without the scope says
 * which access level to ask for.
 */
import { LocalApiError } from '../../src-shared/local-api/index.ts';
import type { ToolContext } from '../tool-definition.ts';
import { ToolError } from '../tool-errors.ts';

export interface RoamFeature {
  /** What the agent tried, e.g. "Comments". */
  name: string;
  /** The Roam Desktop build that has it (local-api-actions.md §1). */
  needs: string;
  /** The scope its action needs. */
  scope: 'read' | 'append' | 'edit';
}

const CURRENT = 'a current Roam Desktop build';

export const FEATURES = {
  comments: { name: 'Comments', needs: CURRENT, scope: 'read' },
  addComment: { name: 'Adding comments', needs: CURRENT, scope: 'append' },
  dailyCapture: { name: 'Daily-note capture', needs: CURRENT, scope: 'append' },
  shortcuts: {
    name: 'Sidebar shortcuts',
    needs: 'Roam Desktop with Local API 1.1.3 or later',
    scope: 'edit',
  },
  suggestLinks: {
    name: 'Link suggestions',
    needs: 'a Roam Desktop build of 2026-07-08 or later (Local API 1.1.3)',
    scope: 'read',
  },
  roamQuery: { name: 'Roam queries', needs: CURRENT, scope: 'read' },
  extensionTools: {
    name: 'Extension AI tools',
    needs: 'a Roam Desktop build with Local API 1.1.5 or later',
    scope: 'read',
  },
  reloadExtensions: {
    name: 'Reloading developer extensions',
    needs: 'a Roam Desktop build of 2026-07-16 or later',
    scope: 'read',
  },
  desktopUi: { name: 'Desktop UI access', needs: CURRENT, scope: 'read' },
} as const satisfies Record<string, RoamFeature>;

const LEVEL_FOR: Record<RoamFeature['scope'], string> = {
  read: '"Read only" or more',
  append: '"Read + Append" or "Full access"',
  edit: '"Full access"',
};

/** One Local API call for `feature`, with feature-named errors. */
export async function callFeature<T = unknown>(
  ctx: ToolContext,
  feature: RoamFeature,
  action: string,
  args: unknown[],
): Promise<T> {
  try {
    return await ctx.call<T>(action, args);
  } catch (error) {
    throw featureError(error, feature, ctx.graph.nickname, action);
  }
}

export function featureError(error: unknown, feature: RoamFeature, graph: string, action: string): unknown {
  if (!(error instanceof LocalApiError)) return error;
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
