/** The change journal as the Activity view shows it: chats, each with its changes, newest first. */
import { graphId } from '../../src-shared/constants.ts';
import type { Change, StepResult } from '../../src-mcp/changes/index.ts';
import type {
  ActivityChangeView,
  ActivityChatView,
  ActivityFeedView,
  ActivityStepView,
} from '../../src-shared/ipc-contract.ts';
import { nicknameOf } from '../../src-shared/graph-identity.ts';
import { changeDetails, changePage, readableSummary } from './activity-details.ts';
import type { PlaceNames } from './activity-places.ts';
import type { StoreData } from './tray-store.ts';

/** The feed stays small enough to send whole on every change; older changes are in the CLI. */
export const ACTIVITY_FEED_LIMIT = 300;

export function stepView(step: StepResult): ActivityStepView {
  return {
    status: step.status,
    detail: step.detail,
    ...(step.conflicts?.length ? { conflicts: step.conflicts } : {}),
  };
}

function changeView(
  change: Change,
  nicknames: Map<string, string>,
  summaries: Map<string, string>,
  roam: { places: PlaceNames; textsNow: PlaceNames },
): ActivityChangeView {
  const nickname = nicknames.get(graphId({ name: change.graph, type: change.graphType }));
  const page = changePage(change);
  const undid = change.undoes?.flatMap((id) => summaries.get(id) ?? []);
  return {
    id: change.id,
    at: change.at,
    graph: change.graph,
    ...(nickname ? { nickname } : {}),
    tool: change.tool,
    summary: readableSummary(change, roam.places),
    status: change.status,
    undoable: change.undoable,
    undone: change.undone,
    isUndo: Boolean(change.undoes),
    ...(change.lastUndo
      ? { lastUndo: { at: change.lastUndo.at, steps: change.lastUndo.results.map(stepView) } }
      : {}),
    details: changeDetails(change, roam.places, roam.textsNow),
    ...(page ? { page } : {}),
    ...(undid?.length ? { undid } : {}),
  };
}

/** Milliseconds from `now` to the next local midnight, when "today" starts again. */
export function msUntilMidnight(now = new Date()): number {
  const next = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
  return next.getTime() - now.getTime();
}

/** Changes agents made since local midnight (a person's undos are not theirs). */
export function changesToday(newestFirst: readonly Change[], now = new Date()): number {
  const midnight = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
  return newestFirst.filter((c) => c.chat.kind !== 'person' && !c.undoes && Date.parse(c.at) >= midnight)
    .length;
}

/** `newestFirst`: listChanges' answer; `data`: the tray store, for the graphs' nicknames. */
export function activityFeed(
  newestFirst: readonly Change[],
  data: StoreData,
  roam: { places: PlaceNames; textsNow: PlaceNames } = { places: new Map(), textsNow: new Map() },
): ActivityFeedView {
  const nicknames = new Map(data.graphs.map((g) => [graphId(g), nicknameOf(g)]));
  const summaries = new Map(newestFirst.map((c) => [c.id, c.summary]));
  const chats = new Map<string, ActivityChatView>();
  for (const change of newestFirst.slice(0, ACTIVITY_FEED_LIMIT)) {
    const chat = chats.get(change.chat.id) ?? {
      id: change.chat.id,
      kind: change.chat.kind ?? 'agent',
      startedAt: change.chat.startedAt,
      graphs: [],
      changes: [],
    };
    // The client's name arrives after the first change on some connections.
    chat.client ??= change.chat.client?.name;
    const view = changeView(change, nicknames, summaries, roam);
    const label = view.nickname ?? change.graph;
    if (!chat.graphs.includes(label)) chat.graphs.push(label);
    chat.changes.push(view);
    chats.set(change.chat.id, chat);
  }
  return {
    chats: [...chats.values()],
    today: changesToday(newestFirst),
    truncated: newestFirst.length > ACTIVITY_FEED_LIMIT,
  };
}
