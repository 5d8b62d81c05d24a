/** The change journal as the Activity view shows it: chats, each with its changes, newest first. */
import { graphId } from '../../../src-shared/constants.ts';
import type { Change, StepResult } from '../../../src-mcp/changes/index.ts';
import type {
  ActivityChangeView,
  ActivityChatView,
  ActivityFeedView,
  ActivityStepView,
} from '../../../src-shared/ipc-contract.ts';
import { nicknameOf } from '../../../src-shared/graph-identity.ts';
import { changeDetails, changePage, readableSummary, redoDetails } from './activity-details.ts';
import type { PlaceNames } from './activity-places.ts';
import type { StoreData } from '../store/tray-store.ts';

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

/** What an undo run did: the lines of the agents' changes it took back (or put back), and those it left alone. */
interface RunFates {
  /** It put back what an undo took back (a redo); otherwise it took back changes. */
  redo: boolean;
  undid: string[];
  leftAlone: string[];
  /** Of `undid`, those taken back only in part. */
  inPart: number;
}

/**
 * Each undo run's fates, by id. A run's lines are always the agents' changes it acted on: a redo
 * of "Undid 3 changes" lists those 3 (put back), not "Undid 3 changes" as one change.
 */
function runFates(newestFirst: readonly Change[], summaries: Map<string, string>): Map<string, RunFates> {
  const byId = new Map(newestFirst.map((c) => [c.id, c]));
  const fates = new Map<string, RunFates>();
  const fatesOf = (run: Change, seen: Set<string>): RunFates => {
    const known = fates.get(run.id);
    if (known) return known;
    seen.add(run.id);
    const targets = (run.undoes ?? []).map((id) => byId.get(id));
    const nested = targets.map((t) => (t?.undoes && !seen.has(t.id) ? fatesOf(t, seen) : undefined));
    const fate: RunFates = {
      // Every target an undo (not itself a redo): this run puts their changes back.
      redo: nested.length > 0 && nested.every((n) => n !== undefined && !n.redo),
      undid: [],
      leftAlone: [],
      inPart: 0,
    };
    targets.forEach((target, i) => {
      if (!target) return;
      const lines = nested[i]?.undid ?? [summaries.get(target.id) ?? target.summary];
      const steps = (run.results ?? []).filter((step) => step.id === target.id);
      // A run journaled without its results (an older journal): it did what it said.
      const undone = steps.length === 0 || steps.some((step) => step.status === 'undone');
      const blocked = steps.some((step) => step.status === 'conflict' || step.status === 'failed');
      if (undone && blocked) {
        fate.undid.push(...lines.map((line) => `${line} (in part: the rest was left alone)`));
        fate.inPart += lines.length;
      } else if (undone) fate.undid.push(...lines);
      else if (blocked) fate.leftAlone.push(...lines);
    });
    fates.set(run.id, fate);
    return fate;
  };
  for (const change of newestFirst) if (change.undoes) fatesOf(change, new Set());
  return fates;
}

/** A run's line, counted in agents' changes ("Redid 3 changes", "Undid 2 of 4 changes, …"). */
function runSummary(fate: RunFates): string {
  const total = fate.undid.length + fate.leftAlone.length;
  const done = fate.undid.length - fate.inPart;
  const all = total === 1 ? '1 change' : `${total} changes`;
  const conflicts = fate.inPart + fate.leftAlone.length;
  return `${fate.redo ? 'Redid' : 'Undid'} ${done === total ? all : `${done} of ${all}`}${
    conflicts ? `, ${conflicts} with conflicts left alone` : ''
  }`;
}

function changeView(
  change: Change,
  nicknames: Map<string, string>,
  fate: RunFates | undefined,
  roam: { places: PlaceNames; textsNow: PlaceNames; titleNow: (change: Change, title: string) => string },
): ActivityChangeView {
  const nickname = nicknames.get(graphId({ name: change.graph, type: change.graphType }));
  const journaled = changePage(change);
  const page = journaled && roam.titleNow(change, journaled);
  return {
    id: change.id,
    at: change.at,
    graph: change.graph,
    ...(nickname ? { nickname } : {}),
    tool: change.tool,
    summary: fate ? runSummary(fate) : readableSummary(change, roam.places),
    status: change.status,
    undoable: change.undoable,
    undone: change.undone,
    isUndo: Boolean(change.undoes),
    ...(fate?.redo ? { isRedo: true } : {}),
    ...(change.lastUndo
      ? { lastUndo: { at: change.lastUndo.at, steps: change.lastUndo.results.map(stepView) } }
      : {}),
    details: changeDetails(change, roam.places, roam.textsNow),
    ...(fate && !fate.redo ? { redoDetails: redoDetails(change, roam.places) } : {}),
    ...(page ? { page } : {}),
    ...(fate?.undid.length ? { undid: fate.undid } : {}),
    ...(fate?.leftAlone.length ? { leftAlone: fate.leftAlone } : {}),
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
  // An undo's lines name places as the feed does (page titles, not uids).
  const summaries = new Map(newestFirst.map((c) => [c.id, readableSummary(c, roam.places)]));
  const chats = new Map<string, ActivityChatView>();
  const titleNow = titlesNow(newestFirst);
  const fates = runFates(newestFirst, summaries);
  for (const change of newestFirst.slice(0, ACTIVITY_FEED_LIMIT)) {
    const chat = chats.get(change.chat.id) ?? {
      id: change.chat.id,
      kind: change.chat.kind ?? 'agent',
      ...(change.chat.remote ? { remote: true as const } : {}),
      startedAt: change.chat.startedAt,
      graphs: [],
      changes: [],
    };
    // The client's name arrives after the first change on some connections.
    chat.client ??= change.chat.client?.name;
    const view = changeView(change, nicknames, fates.get(change.id), { ...roam, titleNow });
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
