/** The Activity view's channels: the feed, and undo (a dry run first, then for real). */
import type { RequestArgs, RequestResults } from '../../../src-shared/ipc-contract.ts';
import type { Activity } from '../activity/activity.ts';

export function activityHandlers(activity: Activity) {
  return {
    'activity:list': (): Promise<RequestResults['activity:list']> => activity.feed(),
    'activity:undo': (input: RequestArgs<'activity:undo'>): Promise<RequestResults['activity:undo']> =>
      activity.undo(input),
  };
}
