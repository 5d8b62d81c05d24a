/**
 * Local API calls as the MCP server needs them: when Roam Desktop is not running, open it with
 * its deep link, follow the port file, and retry with bounded backoff (about 20 s) before
 * answering ROAM_NOT_RUNNING. A request Roam accepted is never given up on: only the client's
 * cancellation aborts it.
 */
import { LocalApiError, type LocalApiClient } from '../../src-shared/local-api/index.ts';
import type { GraphType } from '../../src-shared/roam-config.ts';
import { roamDeepLink, type Opener } from './roam-launcher.ts';

export interface WaitOptions {
  signal?: AbortSignal;
  progress?: (message: string) => void;
}

export class RoamConnection {
  private lastLaunch = -Infinity;

  constructor(
    readonly client: LocalApiClient,
    private readonly options: { open?: Opener; waitMs: number },
  ) {}

  /** Runs `attempt`; if Roam is not running, launches it for `graph` and retries until it answers. */
  async whenRunning<T>(
    graph: { name: string; type: GraphType },
    attempt: () => Promise<T>,
    wait: WaitOptions = {},
  ): Promise<T> {
    try {
      return await attempt();
    } catch (error) {
      if (!isNotRunning(error)) throw error;
    }
    const link = roamDeepLink(graph);
    // Calls failing together open Roam once, not once each.
    const launch = this.options.open && Date.now() - this.lastLaunch > this.options.waitMs;
    if (launch) this.lastLaunch = Date.now();
    if (launch && this.options.open) {
      this.options.open(link);
      wait.progress?.('Roam Desktop is not running: opening it and waiting for it to start.');
    } else {
      wait.progress?.('Roam Desktop is not running: waiting for it to start.');
    }
    const deadline = Date.now() + this.options.waitMs;
    let delay = 150;
    for (;;) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) break;
      await sleep(Math.min(delay, remaining), wait.signal);
      delay = Math.min(delay * 2, 3000);
      try {
        return await attempt();
      } catch (error) {
        if (!isNotRunning(error)) throw error;
        wait.progress?.('Still waiting for Roam Desktop to start.');
      }
    }
    const seconds = Math.round(this.options.waitMs / 1000);
    throw new LocalApiError({
      status: 0,
      code: 'ROAM_NOT_RUNNING',
      kind: 'not-running',
      message: this.options.open
        ? `Roam Desktop is not running: opened ${link} and waited ${seconds} s without an answer. Start Roam Desktop (and sign in), then try again.`
        : `Roam Desktop is not running (waited ${seconds} s). Start Roam Desktop, then try again.`,
    });
  }
}

function isNotRunning(error: unknown): boolean {
  return error instanceof LocalApiError && error.kind === 'not-running';
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(LocalApiError.cancelled());
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(LocalApiError.cancelled());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
