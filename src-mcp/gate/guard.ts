/**
 * The one check of a graph write against the effective access (docs/mcp.md, Access levels), run
 * by src-mcp/server/tool-call.ts once the graph is resolved: read-only refuses every write, read-append
 * every edit, read-edit-own every edit of something an agent did not create (each item of a
 * batch checked), and an extension tool is judged by the scope it declares. The token's own
 * limits stay Roam's to enforce (INSUFFICIENT_SCOPE).
 */
import { LocalApiError, scopeOfAction } from '../../src-shared/local-api/index.ts';
import type { AccessLevel, ConfiguredGraph } from '../../src-shared/roam-config.ts';
import type { GraphSession } from '../roam/graph-session.ts';
import type { ToolContext, ToolDefinition } from '../contract/tool-definition.ts';
import { notCreatedByAgent, type AiUsers, type NotOwn } from '../access/own-content.ts';
import { levelRefusal, readOnlyFlagRefusal, whatItDoes } from '../access/refusals.ts';

/** Runs extension code: allowed by the scope the extension declares for the tool it names. */
const EXTENSION_TOOL = 'call_extension_tool';

/** Throws ACCESS_LEVEL when the effective access of `graph` does not allow this call. */
export async function enforceAccess(
  tool: ToolDefinition,
  args: Record<string, unknown>,
  graph: ConfiguredGraph,
  ctx: ToolContext,
  session: GraphSession,
): Promise<void> {
  if (!tool.writes) return;
  const access = session.access(graph);
  if (access.decidedBy === 'read-only-flag') throw readOnlyFlagRefusal(tool.name);
  const level = access.level;
  if (!level || level === 'full' || access.decidedBy !== 'chosen') return;
  const refuse = (what: string, extra?: Record<string, unknown>) =>
    levelRefusal(what, graph, level, session.source, extra);
  if (tool.name === EXTENSION_TOOL) return checkExtensionScope(args, ctx, level, refuse);
  if (level === 'read-only') throw refuse(whatItDoes(tool));
  if (tool.writes === 'append') return;
  if (level === 'read-append') throw refuse(whatItDoes(tool));
  const targets = typeof tool.editTargets === 'function' ? tool.editTargets(args) : undefined;
  if (!targets) throw refuse(`${whatItDoes(tool)}, which cannot be limited to what agents created`);
  const refused = await notCreatedByAgent(ctx, graph, targets).catch((error: unknown) => {
    // Not knowing who created the targets means not changing them.
    if (!(error instanceof LocalApiError) || !UNCHECKABLE.has(error.kind)) throw error;
    throw refuse(
      `${tool.name} needs to know who created its targets, and Roam could not say (${error.serverMessage || error.message})`,
    );
  });
  if (refused.length > 0)
    throw refuse(ownRefusal(tool.name, refused, graph, ctx.aiUsers), { not_agent_created: refused });
}

/** Roam answered, but not who created the targets (an older build, a query it cannot run). */
const UNCHECKABLE = new Set<LocalApiError['kind']>(['internal', 'validation', 'unknown-action', 'protocol']);

function ownRefusal(toolName: string, refused: NotOwn[], graph: ConfiguredGraph, aiUsers: AiUsers): string {
  const shown = refused.slice(0, 10).map((r) => `'${r.id}' (${r.reason})`);
  const more = refused.length > shown.length ? ` and ${refused.length - shown.length} more` : '';
  const unknown = aiUsers.unknown(graph)
    ? ' (Roam did not name the graph’s AI user, so only changes recorded on this computer count as an agent’s)'
    : '';
  return `${toolName} would change ${shown.join(', ')}${more}${unknown}`;
}

/**
 * An extension tool is judged by the scope it declares (unlisted counts as edit): read-only runs
 * only read tools; read-append and read-edit-own (whose effects cannot be tied to agents' content)
 * read and append tools.
 */
async function checkExtensionScope(
  args: Record<string, unknown>,
  ctx: ToolContext,
  level: AccessLevel,
  refuse: (what: string, extra?: Record<string, unknown>) => Error,
): Promise<void> {
  const id = typeof args.tool === 'string' ? args.tool : '';
  const guidelines = await ctx.call<{ extensionTools?: unknown } | null>('data.ai.getGraphGuidelines', []);
  const listed = Array.isArray(guidelines?.extensionTools) ? guidelines.extensionTools : [];
  const entry = listed.find((t: { tool?: unknown }) => t?.tool === id) as { scope?: unknown } | undefined;
  const scope = entry?.scope === 'read' || entry?.scope === 'append' ? entry.scope : 'edit';
  if (scope === 'read' || (scope === 'append' && level !== 'read-only')) return;
  const declared = entry ? `declares ${scope} scope` : 'is not listed, so it counts as an edit';
  throw refuse(`extension tool '${id}' ${declared}`, { tool: id, declared_scope: scope });
}

/**
 * An undo's own write, judged like any write of the agent's (its undo never does more than take
 * back what its chat did, and the undo engine checks ownership before each destructive step):
 * read-only refuses every write, read-append every edit.
 */
export function enforceUndoAccess(
  toolName: string,
  action: string,
  graph: ConfiguredGraph,
  session: GraphSession,
): void {
  const scope = scopeOfAction(action);
  if (scope === 'read') return;
  const access = session.access(graph);
  const level = access.level;
  if (access.decidedBy === 'read-only-flag') throw readOnlyFlagRefusal(toolName);
  if (access.decidedBy !== 'chosen' || !level) return;
  if (level === 'read-only' || (level === 'read-append' && scope === 'edit'))
    throw levelRefusal(
      `${toolName} would ${scope === 'edit' ? 'change or delete' : 'add'} content`,
      graph,
      level,
      session.source,
    );
}
