/** Per-call hooks: cancellation, progress notifications, and notes appended to the result. */
export interface CallScope {
  signal: AbortSignal;
  progress(message: string): void;
  notice(message: string): void;
}
