/** graphs:* — add, edit, remove graphs under the MCP server's own validation rules. */
import type { RequestArgs, RequestResults } from '../../../src-shared/ipc-contract.ts';
import { validateGraphs } from '../../../src-shared/roam-config.ts';
import { labelKey, nicknameOf } from '../../../src-shared/graph-identity.ts';
import { CoreError } from '../core-error.ts';
import { graphId, DEFAULT_GRAPH_TYPE } from '../../../src-shared/constants.ts';
import { type StoredGraph } from '../store/tray-store.ts';
import { assertRoamHasGraph } from '../graphs/graph-existence.ts';
import { assertGraphRules, newStoredGraph } from '../store/graph-rules.ts';
import { toGraphView } from '../graphs/graph-views.ts';
import type { CoreContext } from './core-context.ts';

export function graphHandlers(ctx: CoreContext) {
  return {
    async 'graphs:list'(): Promise<RequestResults['graphs:list']> {
      return ctx.graphViews();
    },

    async 'graphs:available'(): Promise<RequestResults['graphs:available']> {
      return ctx.api.graphsAvailable();
    },

    async 'graphs:add'(input: RequestArgs<'graphs:add'>): Promise<RequestResults['graphs:add']> {
      const id = graphId(input);
      if (!input.public) await assertRoamHasGraph(ctx.api, { name: input.name, type: input.type });
      const data = await ctx.store.update((d) => {
        const existing = d.graphs.find((g) => graphId(g) === id);
        if (existing) {
          throw new CoreError(
            'VALIDATION',
            `The ${input.type} graph '${input.name}' is already configured (as '${nicknameOf(existing)}'). Edit it instead of adding it again.`,
          );
        }
        const graph = newStoredGraph(input, d.settings.defaultAccessLevel);
        assertGraphRules(d.graphs, [...d.graphs, graph]);
        d.graphs.push(graph);
      });
      ctx.storeChanged(data);
      return toGraphView(ctx.store.find(data, id), data, ctx.tokens.isWaiting(id));
    },

    async 'graphs:update'(input: RequestArgs<'graphs:update'>): Promise<RequestResults['graphs:update']> {
      const data = await ctx.store.update((d) => {
        const before = structuredClone(d.graphs);
        applyUpdate(ctx.store.find(d, input.id), input);
        assertGraphRules(before, d.graphs);
      });
      ctx.storeChanged(data);
      return toGraphView(ctx.store.find(data, input.id), data, ctx.tokens.isWaiting(input.id));
    },

    async 'graphs:remove'(input: RequestArgs<'graphs:remove'>): Promise<void> {
      if (ctx.tokens.isWaiting(input.id)) ctx.tokens.cancel(input.id);
      const data = await ctx.store.update((d) => {
        ctx.store.find(d, input.id);
        d.graphs = d.graphs.filter((g) => graphId(g) !== input.id);
        d.blocked = d.blocked.filter((b) => graphId(b) !== input.id);
      });
      ctx.storeChanged(data);
    },

    async 'graphs:check-nickname'(
      input: RequestArgs<'graphs:check-nickname'>,
    ): Promise<RequestResults['graphs:check-nickname']> {
      return checkNickname(ctx, input);
    },
  };
}

function applyUpdate(graph: StoredGraph, input: RequestArgs<'graphs:update'>): void {
  if (input.nickname !== undefined) graph.nickname = input.nickname;
  if (input.description !== undefined) {
    if (input.description) graph.description = input.description;
    else delete graph.description;
  }
  if (input.accessLevel !== undefined) graph.accessLevel = input.accessLevel;
  if (input.confirm !== undefined) graph.confirm = input.confirm;
  if (input.enabled !== undefined) {
    if (input.enabled) delete graph.disabled;
    else graph.disabled = true;
  }
}

function checkNickname(
  ctx: CoreContext,
  input: RequestArgs<'graphs:check-nickname'>,
): RequestResults['graphs:check-nickname'] {
  const nickname = input.nickname.trim();
  if (!nickname) return { ok: true };
  const stored = ctx.store.read().graphs;
  const own = stored.find((g) => graphId(g) === input.exceptId);
  const others = stored.filter((g) => g !== own);
  const entries = others.map((g) => ({ ...g, disabled: false, token: undefined }));
  // The candidate's name is one of its labels too (a nickname may not be another graph's name).
  const candidate = {
    name: own?.name ?? (input.name?.trim() || nickname),
    type: own?.type ?? DEFAULT_GRAPH_TYPE,
    nickname,
  };
  // The shared rule decides; the message names the graph in the way, in a line a person reads.
  const before = validateGraphs(entries).errors;
  const problems = validateGraphs([...entries, candidate]).errors.filter((e) => !before.includes(e));
  if (!problems.length) return { ok: true };
  return { ok: false, message: clashInWords(others, candidate) ?? problems.join(' ') };
}

/** "'team' is already the nickname of team-notes. Choose another." — or undefined when no label clashes. */
function clashInWords(others: readonly StoredGraph[], candidate: { name: string; nickname: string }) {
  const same = (a: string, b: string) => labelKey(a) === labelKey(b);
  for (const other of others) {
    const otherNickname = nicknameOf(other);
    const whose = `graph '${other.name}'`;
    if (same(candidate.nickname, otherNickname))
      return `'${candidate.nickname}' is already the nickname of ${whose} (case and accents do not count). Choose another.`;
    if (same(candidate.nickname, other.name))
      return `'${candidate.nickname}' is already the name of ${whose}; agents could mean either. Choose another.`;
    if (same(candidate.name, otherNickname))
      return `This graph's name is already the nickname of ${whose}. Give ${whose} another nickname first.`;
  }
  return undefined;
}
