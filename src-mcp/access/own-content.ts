/**
 * `read-edit-own` (docs/mcp.md, Access levels): which targets of an edit an agent created. Two
 * sources: the change journal, lent by the server as `ctx.agentCreations`, which knows what agents of
 * this machine created whatever user their token wrote as, and whose a block an undo brought
 * back was (so it decides wherever it has a say); else Roam's `:create/user` being the graph's
 * AI user (named by getGraphGuidelines' `aiUserDisplayName`), in one `data.q` round trip for all
 * targets.
 */
import { graphId, type GraphType } from '../../src-shared/constants.ts';
import type { ToolContext, WriteTarget } from '../contract/tool-definition.ts';

declare module '../contract/tool-definition.ts' {
  /** Every handler's edit checks may ask the journal what agents created (read-edit-own). */
  interface ServerServices {
    agentCreations: AgentCreations;
    /** select_graph tells it the graph's AI user; the edit checks ask it. */
    aiUsers: AiUsers;
  }
}

/**
 * Of `ids` (block or page uids; file URLs) in `graph`, those the journal has a say on: true an
 * agent's, false not (a person's block an undo recreated with an agent's token). The journal
 * (src-mcp/changes/) answers it, wired in src-mcp/process/run-server.ts; an empty answer leaves
 * only Roam's. `aiUser`: the graph's AI user, for blocks deleted before the journal knew them.
 */
export type AgentCreations = (
  graph: { name: string; type: GraphType },
  ids: readonly string[],
  aiUser: string | null,
) => Promise<ReadonlyMap<string, boolean>> | ReadonlyMap<string, boolean>;

/** A target the agent may not change, and why (said to the agent). */
export interface NotOwn {
  id: string;
  reason: string;
}

/**
 * One server's record of each graph's AI user per getGraphGuidelines (null: Roam did not name
 * one). Made in src-mcp/process/run-server.ts and lent to handlers as `ctx.aiUsers`.
 */
export class AiUsers {
  private readonly names = new Map<string, string | null>();

  /** Keeps the AI user's name from a getGraphGuidelines answer (select_graph already has it). */
  remember(graph: { name: string; type: GraphType }, guidelines: unknown): void {
    const name = (guidelines as { aiUserDisplayName?: unknown } | null)?.aiUserDisplayName;
    this.names.set(graphId(graph), typeof name === 'string' && name !== '' ? name : null);
  }

  /** The graph's AI user, asking Roam the first time. */
  async of(ctx: ToolContext, graph: { name: string; type: GraphType }): Promise<string | null> {
    if (!this.names.has(graphId(graph)))
      this.remember(graph, await ctx.call('data.ai.getGraphGuidelines', []));
    return this.names.get(graphId(graph)) ?? null;
  }

  /** Why an own-content check could not tell anything (said once in the refusal). */
  unknown(graph: { name: string; type: GraphType }): boolean {
    return this.names.get(graphId(graph)) === null;
  }
}

const PULLED = '[:block/uid {:create/user [:user/display-name]}]';
/** Each target (and, for deletes, every block under it) with the display name of its creator. */
const TARGETS_QUERY = `[:find ?target (pull ?e ${PULLED}) :in $ [?target ...] :where [?e :block/uid ?target]]`;
const SUBTREES_QUERY =
  `[:find ?target (pull ?x ${PULLED}) :in $ [?target ...] :where [?e :block/uid ?target]` +
  ' (or-join [?e ?x] [(identity ?e) ?x] [?x :block/parents ?e])]';

/** A pulled attribute under any of Roam's key spellings (`:block/uid`, `block/uid`, `uid`). */
function field(entity: unknown, attr: string): unknown {
  if (!entity || typeof entity !== 'object') return undefined;
  const record = entity as Record<string, unknown>;
  return record[`:${attr}`] ?? record[attr] ?? record[attr.split('/')[1] as string];
}

interface Created {
  uid: string;
  creator: string | undefined;
}

async function creators(ctx: ToolContext, targets: WriteTarget[]): Promise<Map<string, Created[]>> {
  const query = targets.some((t) => t.subtree) ? SUBTREES_QUERY : TARGETS_QUERY;
  const rows = (await ctx.call<unknown[][] | null>('data.q', [query, targets.map((t) => t.id)])) ?? [];
  const byTarget = new Map<string, Created[]>();
  for (const [target, entity] of rows) {
    const uid = field(entity, 'block/uid');
    if (typeof target !== 'string' || typeof uid !== 'string') continue;
    const creator = field(field(entity, 'create/user'), 'user/display-name');
    const list = byTarget.get(target) ?? [];
    list.push({ uid, creator: typeof creator === 'string' ? creator : undefined });
    byTarget.set(target, list);
  }
  return byTarget;
}

/**
 * The targets that are not an agent's, with why. A target Roam does not know passes (the write
 * answers "not found" itself).
 */
export async function notCreatedByAgent(
  ctx: ToolContext,
  graph: { name: string; type: GraphType },
  targets: WriteTarget[],
): Promise<NotOwn[]> {
  const nodes = targets.filter((t) => t.kind === 'node');
  const [found, aiName] = nodes.length
    ? await Promise.all([creators(ctx, nodes), ctx.aiUsers.of(ctx, graph)])
    : [new Map<string, Created[]>(), null];
  const byRoam = (c: Created) => aiName !== null && c.creator === aiName;
  const asked = [...found.values()].flat().map((c) => c.uid);
  asked.push(...targets.filter((t) => t.kind === 'file').map((t) => t.id));
  const byJournal: ReadonlyMap<string, boolean> = asked.length
    ? await ctx.agentCreations(graph, [...new Set(asked)], aiName)
    : new Map();
  const own = (c: Created) => byJournal.get(c.uid) ?? byRoam(c);
  const refused: NotOwn[] = [];
  for (const target of targets) {
    if (target.kind === 'file') {
      if (byJournal.get(target.id) !== true)
        refused.push({ id: target.id, reason: 'no recorded upload by an agent' });
      continue;
    }
    const entries = found.get(target.id) ?? [];
    const self = entries.find((c) => c.uid === target.id);
    const others = entries.filter((c) => c.uid !== target.id && !own(c)).length;
    if (self && !own(self)) refused.push({ id: target.id, reason: 'not created by an agent' });
    else if (others > 0)
      refused.push({ id: target.id, reason: `${others} block(s) under it were not created by an agent` });
  }
  return refused;
}
