/**
 * Activity: the feed of every agent change on this machine (read from the change journal, which
 * every roam-mcp appends to) and undo from the tray. The feed is re-sent whenever any process
 * appends. All undos of one tray session are one person's chat, so they group as one. Nothing
 * touches the data folder until the feed is first asked for.
 */
import {
  listChanges,
  personChat,
  watchJournal,
  type Journal,
  type UndoActor,
} from '../../../src-mcp/changes/index.ts';
import type { ActivityFeedView, RequestInput } from '../../../src-shared/ipc-contract.ts';
import type { LocalApiClient } from '../../../src-shared/local-api/index.ts';
import { trayCaller } from './activity-caller.ts';
import { ACTIVITY_FEED_LIMIT, activityFeed, msUntilMidnight } from './activity-feed.ts';
import { placeNamer } from './activity-places.ts';
import { openActivityJournal } from './activity-journal.ts';
import { undoFromTray } from './activity-undo.ts';
import type { TrayStore } from '../store/tray-store.ts';

export interface Activity {
  feed(): Promise<ActivityFeedView>;
  undo(request: RequestInput<'activity:undo'>): ReturnType<typeof undoFromTray>;
  close(): Promise<void>;
}

export function startActivity(deps: {
  dataDir?: string;
  store: TrayStore;
  api: LocalApiClient;
  feedChanged(feed: ActivityFeedView): void;
}): Activity {
  const actor: UndoActor = { chat: personChat('Roam Companion'), tool: 'Roam Companion' };
  let opened: Promise<Journal> | undefined;
  let watching: Promise<{ close(): void } | undefined> | undefined;
  let midnight: { close(): void } | undefined;
  const journal = () => {
    opened ??= openActivityJournal(deps.dataDir);
    watching ??= opened.then((j) => watchJournal(publish, { journal: j })).catch(() => undefined);
    midnight ??= atEveryMidnight(publish);
    return opened;
  };
  const places = placeNamer(trayCaller(deps.store, deps.api));
  const feed = async () => {
    const changes = await listChanges({}, { journal: await journal() });
    const shown = changes.slice(0, ACTIVITY_FEED_LIMIT);
    const [names, textsNow] = await Promise.all([places.names(shown), places.textsNow(shown)]);
    return activityFeed(changes, deps.store.read(), { places: names, textsNow });
  };
  const publish = () => void feed().then(deps.feedChanged, () => {}); // the next list reports it
  return {
    feed,
    async undo(request) {
      const report = await undoFromTray(request, {
        journal: await journal(),
        caller: trayCaller(deps.store, deps.api),
        actor,
      });
      if (!request.dryRun) publish();
      return report;
    },
    async close() {
      midnight?.close();
      (await watching)?.close();
      // A journal of our own (given a data folder) holds its segment open; the machine's is shared.
      if (deps.dataDir) await (await opened?.catch(() => undefined))?.store.close();
    },
  };
}

/** The feed's "today" count starts again at midnight, even when no agent writes. */
function atEveryMidnight(run: () => void): { close(): void } {
  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    timer = setTimeout(() => {
      run();
      schedule();
    }, msUntilMidnight());
    timer.unref();
  };
  schedule();
  return { close: () => clearTimeout(timer) };
}
