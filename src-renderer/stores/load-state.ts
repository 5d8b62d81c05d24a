import { describeError } from '../bridge/bridge-error.ts';

/** Every view shows one of these: loading, an error with a retry, or its data (maybe empty). */
export type LoadState = { phase: 'loading' } | { phase: 'ready' } | { phase: 'error'; message: string };

export const loading: LoadState = { phase: 'loading' };
export const ready: LoadState = { phase: 'ready' };
export function failed(error: unknown): LoadState {
  return { phase: 'error', message: describeError(error) };
}
