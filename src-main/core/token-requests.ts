/**
 * One-click token requests (`POST /api/graphs/tokens/request`) with a live state per graph for
 * the UI: waiting (with Roam's 5-minute countdown) → approved / rejected / blocked / timeout /
 * in-progress / cancelled / error. A graph blocked by "Never Allow" gets no further request until
 * the user presses Retry (after unblocking in Roam). The token goes straight into the store,
 * encrypted; the views carry only status and levels.
 */
import type { TokenRequestStatus, TokenRequestView } from '../../src-shared/ipc-contract.ts';
import { LocalApiError, type LocalApiClient } from '../../src-shared/local-api/index.ts';
import { isLowerAccess, type AccessLevel } from '../../src-shared/roam-config.ts';
import { graphId } from '../../src-shared/constants.ts';
import { CoreError } from './core-error.ts';
import { HOW_TO_UNBLOCK, type GraphStore, type StoreData } from './graph-store.ts';

/** Roam waits this long for the user before answering 408 TIMEOUT (docs/tray.md, Token requests). */
export const ROAM_REQUEST_TIMEOUT_MS = 5 * 60_000;

export interface TokenRequestEvents {
  requestChanged(view: TokenRequestView): void;
  /** The store changed (token saved, graph blocked): graphs and blocked list must be re-sent. */
  storeChanged(data: StoreData): void;
}

const FAILURE_STATUS: Record<string, TokenRequestStatus> = {
  USER_REJECTED: 'rejected',
  GRAPH_BLOCKED: 'blocked',
  REQUEST_IN_PROGRESS: 'in-progress',
  TIMEOUT: 'timeout',
  CANCELLED: 'cancelled',
};

const FAILURE_MESSAGE: Partial<Record<TokenRequestStatus, string>> = {
  rejected: 'The request was declined in Roam. You can ask again with Request token.',
  blocked: `Roam blocks token requests for this graph ("Never Allow"). ${HOW_TO_UNBLOCK}`,
  'in-progress':
    'Roam is already showing a token request for this graph (from another app or window). Answer it in Roam, or wait for it to expire, then try again.',
  timeout: 'Nobody answered the request in Roam within 5 minutes. Press Request token to ask again.',
  cancelled: 'The request was cancelled.',
};

export class TokenRequestManager {
  private readonly views = new Map<string, TokenRequestView>();
  private readonly running = new Map<string, AbortController>();
  private readonly settled = new Set<Promise<void>>();

  constructor(
    private readonly store: GraphStore,
    private readonly api: LocalApiClient,
    private readonly events: TokenRequestEvents,
    private readonly now: () => number = Date.now,
  ) {}

  list(): TokenRequestView[] {
    return [...this.views.values()];
  }

  /** Forgets a finished request (the user dismissed its panel); a waiting one stays. */
  dismiss(id: string): void {
    if (!this.running.has(id)) this.views.delete(id);
  }

  isWaiting(id: string): boolean {
    return this.running.has(id);
  }

  /** Starts a request (or returns the one already waiting) without waiting for the user's answer. */
  start(id: string, accessLevel?: AccessLevel): TokenRequestView {
    const data = this.store.read();
    const graph = this.store.find(data, id);
    const current = this.views.get(id);
    if (current && this.running.has(id)) return current;
    const requested = accessLevel ?? graph.accessLevel ?? data.settings.defaultAccessLevel;
    const startedAt = this.now();
    const base = {
      graphId: id,
      requestedAccessLevel: requested,
      startedAt,
      expiresAt: startedAt + ROAM_REQUEST_TIMEOUT_MS,
    };

    if (data.blocked.some((b) => graphId(b) === id)) {
      // Never send another request to a blocked graph: Roam would only refuse it again.
      return this.publish({ ...base, status: 'blocked', message: FAILURE_MESSAGE.blocked });
    }
    const controller = new AbortController();
    this.running.set(id, controller);
    const view = this.publish({
      ...base,
      status: 'waiting',
      message: 'Waiting for you to approve the request in Roam.',
    });
    const work = this.run(
      id,
      { name: graph.name, type: graph.type },
      graph.nickname ?? graph.name,
      requested,
      controller,
    )
      .catch((error: Error): TokenRequestView => ({ ...view, status: 'error', message: error.message }))
      .then((final) => {
        // Cleared before anyone hears the outcome, so a retry right away starts a new request.
        this.running.delete(id);
        this.settled.delete(work);
        try {
          this.events.storeChanged(this.store.read());
        } catch {
          // An unreadable store is reported by the next handler that reads it.
        }
        this.publish(final);
      });
    this.settled.add(work);
    return view;
  }

  /** Aborts the waiting request; a no-op when it already ended (the answer may cross the click). */
  cancel(id: string): void {
    this.running.get(id)?.abort();
  }

  /** The user unblocked the graph in Roam: forget the block and ask again. */
  async retryBlocked(id: string): Promise<TokenRequestView> {
    const data = await this.store.update((d) => {
      d.blocked = d.blocked.filter((b) => graphId(b) !== id);
    });
    this.events.storeChanged(data);
    return this.start(id);
  }

  /** Aborts every running request and waits for them to settle. */
  async close(): Promise<void> {
    for (const controller of this.running.values()) controller.abort();
    await Promise.all([...this.settled]);
  }

  private async run(
    id: string,
    graph: { name: string; type: 'hosted' | 'offline' },
    label: string,
    requested: AccessLevel,
    controller: AbortController,
  ): Promise<TokenRequestView> {
    const waiting = this.views.get(id)!;
    try {
      const grant = await this.api.requestToken(
        {
          graph: graph.name,
          graphType: graph.type,
          description: `Roam Companion: AI clients on this computer (graph '${label}')`,
          accessLevel: requested,
        },
        { signal: controller.signal },
      );
      await this.store.saveToken(graph, grant.token, grant.grantedAccessLevel);
      const downgraded = isLowerAccess(grant.grantedAccessLevel, requested);
      return {
        ...waiting,
        status: 'approved',
        grantedAccessLevel: grant.grantedAccessLevel,
        downgraded,
        message: downgraded
          ? `Roam granted ${grant.grantedAccessLevel} instead of ${requested} (your role on this graph allows no more).`
          : `Token stored (${grant.grantedAccessLevel}).`,
      };
    } catch (error) {
      const status: TokenRequestStatus =
        controller.signal.aborted || (error instanceof LocalApiError && error.kind === 'cancelled')
          ? 'cancelled'
          : error instanceof LocalApiError
            ? (FAILURE_STATUS[error.code] ?? 'error')
            : 'error';
      if (status === 'blocked') {
        await this.store.update((d) => {
          if (!d.blocked.some((b) => graphId(b) === id)) d.blocked.push({ ...graph, blockedAt: this.now() });
        });
      }
      const message =
        FAILURE_MESSAGE[status] ??
        (error instanceof LocalApiError || error instanceof CoreError
          ? error.message
          : `The token request failed: ${(error as Error).message}. Try again.`);
      return { ...waiting, status, message };
    }
  }

  private publish(view: TokenRequestView): TokenRequestView {
    this.views.set(view.graphId, view);
    this.events.requestChanged(view);
    return view;
  }
}
