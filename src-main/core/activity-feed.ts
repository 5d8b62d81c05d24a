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

/**
 * A page's title now, from the renames in the journal (oldest first): changes made before a
 * rename and after it are on one page, and the undo dialog groups them so.
 */
function titlesNow(newestFirst: readonly Change[]): (change: Change, title: string) => string {
  const renamed = new Map<string, string>();
  const key = (change: Change, title: string) =>
    `${graphId({ name: change.graph, type: change.graphType })}:${title}`;
  for (const change of [...newestFirst].reverse()) {
    if (change.undone) continue;
    for (const { op } of change.ops)
      if (op.kind === 'rename-page') renamed.set(key(change, op.before), op.after);
  }
  return (change, title) => {
    const seen = new Set<string>();
    let now = title;
    while (renamed.has(key(change, now)) && !seen.has(now)) {
      seen.add(now);
      now = renamed.get(key(change, now))!;
    }
    return now;
  };
}

function changeView(
  change: Change,
  nicknames: Map<string, string>,
  summaries: Map<string, string>,
  roam: { places: PlaceNames; textsNow: PlaceNames; titleNow: (change: Change, title: string) => string },
): ActivityChangeView {
  const nickname = nicknames.get(graphId({ name: change.graph, type: change.graphType }));
  const journaled = changePage(change);
  const page = journaled && roam.titleNow(change, journaled);
  const { undid, leftAlone } = undoFates(change, summaries);
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
    ...(undid.length ? { undid } : {}),
    ...(leftAlone.length ? { leftAlone } : {}),
  };
}

/**
 * What an undo run did to each change it set out to undo, by that change's line: taken back
 * (all its steps that could be), in part, or left alone (every step in the way of a person's
 * change since, or failed). A change none of whose steps this run undid is in neither list.
 */
function undoFates(change: Change, summaries: Map<string, string>): { undid: string[]; leftAlone: string[] } {
  const undid: string[] = [];
  const leftAlone: string[] = [];
  for (const id of change.undoes ?? []) {
    const summary = summaries.get(id);
    if (!summary) continue;
    const steps = (change.results ?? []).filter((step) => step.id === id);
    // An undo journaled without its results (an older journal): taken back, as it said.
    if (steps.length === 0) {
      undid.push(summary);
      continue;
    }
    const undone = steps.some((step) => step.status === 'undone');
    const blocked = steps.some((step) => step.status === 'conflict' || step.status === 'failed');
    if (undone && blocked) undid.push(`${summary} (in part: the rest was left alone)`);
    else if (undone) undid.push(summary);
    else if (blocked) leftAlone.push(summary);
  }
  return { undid, leftAlone };
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
  // An undo's lines name places as the feed does (page titles, not uids).
  const summaries = new Map(newestFirst.map((c) => [c.id, readableSummary(c, roam.places)]));
  const chats = new Map<string, ActivityChatView>();
  const titleNow = titlesNow(newestFirst);
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
    const view = changeView(change, nicknames, summaries, { ...roam, titleNow });
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
