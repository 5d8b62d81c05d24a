/** What the renderer sees of the stored graphs and the blocked list: never a token. */
import type { BlockedGraphView, GraphView, TokenState } from '../../../src-shared/ipc-contract.ts';
import { graphId } from '../../../src-shared/constants.ts';
import { nicknameOf } from '../../../src-shared/graph-identity.ts';
import { levelsCovered } from '../../../src-shared/token-grant.ts';
import type { StoreData, StoredGraph } from '../store/tray-store.ts';

export const HOW_TO_UNBLOCK =
  'In Roam Desktop, open the graph, go to Settings > Graph > Local API Tokens and remove Roam Companion from the blocked list; then press Retry here.';

export function tokenStateOf(graph: StoredGraph, blocked: boolean, waiting: boolean): TokenState {
  if (waiting) return 'waiting';
  if (graph.token?.revoked) return 'revoked';
  if (graph.token) return 'ok';
  return blocked ? 'blocked' : 'missing';
}

export function toGraphView(graph: StoredGraph, data: StoreData, waiting: boolean): GraphView {
  const blocked = data.blocked.some((b) => graphId(b) === graphId(graph));
  const view: GraphView = {
    id: graphId(graph),
    name: graph.name,
    type: graph.type,
    nickname: nicknameOf(graph),
    accessLevel: graph.accessLevel,
    enabled: !graph.disabled,
    token: { state: tokenStateOf(graph, blocked, waiting) },
    confirm: graph.confirm ?? data.settings.confirm,
    confirmOwn: graph.confirm !== undefined,
  };
  if (graph.description !== undefined) view.description = graph.description;
  if (graph.token) view.token.last4 = graph.token.last4;
  const granted = graph.token && !graph.token.revoked ? graph.grantedAccessLevel : undefined;
  if (granted) {
    view.token.grantedAccessLevel = granted;
    view.token.covers = levelsCovered(granted);
  }
  return view;
}

export function toBlockedViews(data: StoreData): BlockedGraphView[] {
  return data.blocked.map((b) => ({
    graphId: graphId(b),
    name: b.name,
    nickname: nicknameOf(data.graphs.find((g) => graphId(g) === graphId(b)) ?? b),
    type: b.type,
    blockedAt: b.blockedAt,
    howToUnblock: HOW_TO_UNBLOCK,
  }));
}
