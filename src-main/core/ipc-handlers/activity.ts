/** The Activity view's channels: the feed, and undo (a dry run first, then for real). */
import type { RequestInput, RequestResults } from '../../../src-shared/ipc-contract.ts';
import type { Activity } from '../activity.ts';

export function activityHandlers(activity: Activity) {
  return {
    'activity:list': (): Promise<RequestResults['activity:list']> => activity.feed(),
    'activity:undo': (input: RequestInput<'activity:undo'>): Promise<RequestResults['activity:undo']> =>
      activity.undo(input),
  };
}
