/**
 * The access check of a tool whose edits are known only once it has planned them
 * (`editTargets: 'planned'`, docs/mcp.md, Access levels): the same rules as the check before a
 * call (src-mcp/gate/guard.ts), on the plan's targets. read-append refuses any edit, move or
 * delete; read-edit-own refuses one that touches a block an agent did not create.
 */
import { LocalApiError } from '../../src-shared/local-api/index.ts';
import type { ConfiguredGraph } from '../../src-shared/roam-config.ts';
import { notCreatedByAgent } from '../access/own-content.ts';
import { levelRefusal } from '../access/refusals.ts';
import type { GraphSession } from '../roam/graph-session.ts';
import type { PlannedEdits, ToolContext } from '../contract/tool-definition.ts';

const SHOWN = 10;

const listed = (ids: readonly string[]) =>
  ids
    .slice(0, SHOWN)
    .map((id) => `'${id}'`)
    .join(', ') + (ids.length > SHOWN ? ` and ${ids.length - SHOWN} more` : '');

export async function enforcePlannedEdits(
  toolName: string,
  edits: PlannedEdits,
  graph: ConfiguredGraph,
  ctx: ToolContext,
  session: GraphSession,
): Promise<void> {
  if (edits.targets.length === 0) return;
  const access = session.access(graph);
  const level = access.level;
  if (!level || level === 'full' || access.decidedBy !== 'chosen') return;
  const refuse = (what: string, extra: Record<string, unknown>) =>
    levelRefusal(what, graph, level, session.source, extra);
  const ids = edits.targets.map((t) => t.id);
  if (level !== 'read-edit-own')
    throw refuse(`${toolName} would ${edits.summary} (${listed(ids)})`, { would_change: ids });
  const refused = await notCreatedByAgent(ctx, graph, edits.targets).catch((error: unknown) => {
    if (!(error instanceof LocalApiError)) throw error;
    throw refuse(
      `${toolName} needs to know who created the blocks it would change, and Roam could not say (${error.serverMessage || error.message})`,
      {},
    );
  });
  if (refused.length === 0) return;
  const shown = refused.slice(0, SHOWN).map((r) => `'${r.id}' (${r.reason})`);
  const more = refused.length > SHOWN ? ` and ${refused.length - SHOWN} more` : '';
  throw refuse(`${toolName} would ${edits.summary}, among them ${shown.join(', ')}${more}`, {
    not_agent_created: refused,
  });
}
