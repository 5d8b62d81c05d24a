/**
 * One long request shared by every call waiting for it (Roam's token dialog: a second request
 * for the same graph would be refused as REQUEST_IN_PROGRESS). Each waiter gets the progress and
 * notes, and leaves at once on its own cancellation; the request itself is aborted (Roam
 * withdraws the dialog) only when the last waiter has gone.
 */
import { LocalApiError } from '../../src-shared/local-api/index.ts';
import type { CallScope } from '../contract/call-scope.ts';

export class SharedRequest<T> {
  private readonly controller = new AbortController();
  private readonly waiters = new Set<CallScope>();
  private running: Promise<T> | undefined;

  constructor(private readonly run: (scope: CallScope) => Promise<T>) {}

  /** True once every waiter left: a new caller must start a new request. */
  get withdrawn(): boolean {
    return this.controller.signal.aborted;
  }

  /** Waits for the shared result, or rejects with CANCELLED as soon as this caller's signal aborts. */
  join(scope: CallScope): Promise<T> {
    if (scope.signal.aborted) return Promise.reject(LocalApiError.cancelled());
    this.waiters.add(scope);
    this.running ??= this.start();
    const running = this.running;
    return new Promise<T>((resolve, reject) => {
      const leave = () => {
        this.waiters.delete(scope);
        if (this.waiters.size === 0) this.controller.abort();
        reject(LocalApiError.cancelled());
      };
      scope.signal.addEventListener('abort', leave, { once: true });
      running
        .finally(() => {
          scope.signal.removeEventListener('abort', leave);
          this.waiters.delete(scope);
        })
        .then(resolve, reject);
    });
  }

  private start(): Promise<T> {
    const shared: CallScope = {
      signal: this.controller.signal,
      progress: (message) => this.waiters.forEach((w) => w.progress(message)),
      notice: (message) => this.waiters.forEach((w) => w.notice(message)),
    };
    const running = this.run(shared);
    running.catch(() => {}); // every waiter may have left: nobody else observes the outcome
    return running;
  }
}
