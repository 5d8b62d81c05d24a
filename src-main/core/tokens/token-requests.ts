/**
 * One-click token requests (`POST /api/graphs/tokens/request`) with a live state per graph for
 * the UI: waiting (with Roam's 5-minute countdown) → approved / rejected / blocked / timeout /
 * in-progress / cancelled / error. A graph blocked by "Never Allow" gets no further request until
 * the user presses Retry (after unblocking in Roam). The token goes straight into the store,
 * encrypted; the views carry only status and levels. A finished request is forgotten once the
 * state it describes is gone (its graph removed, its token or access level changed, Roam back).
 */
import type { TokenRequestView } from '../../../src-shared/ipc-contract.ts';
import type { LocalApiClient } from '../../../src-shared/local-api/index.ts';
import { isLowerAccess, tokenLevelFor, type AccessLevel } from '../../../src-shared/roam-config.ts';
import { graphId } from '../../../src-shared/constants.ts';
import { nicknameOf } from '../../../src-shared/graph-identity.ts';

import type { TrayStore, StoreData } from '../store/tray-store.ts';
import { failedOutcome, refusalOutcome } from './token-request-outcome.ts';

/** Roam waits this long for the user before answering 408 TIMEOUT (docs/tray.md, Token requests). */
export const ROAM_REQUEST_TIMEOUT_MS = 5 * 60_000;

export interface TokenRequestEvents {
  requestChanged(view: TokenRequestView): void;
  /** A finished request was forgotten: its panel goes. */
  requestRemoved(view: TokenRequestView): void;
  /** The store changed (token saved, graph blocked): graphs and blocked list must be re-sent. */
  storeChanged(data: StoreData): void;
}

type GraphRef = { name: string; type: 'hosted' | 'offline' };

/** What a finished request's outcome depends on: when it changes, the outcome no longer holds. */
function basisOf(data: StoreData, id: string): string | undefined {
  const graph = data.graphs.find((g) => graphId(g) === id);
  if (!graph) return undefined;
  const blocked = data.blocked.some((b) => graphId(b) === id);
  const { token } = graph;
  return JSON.stringify([graph.accessLevel, blocked, token?.last4, token?.revoked, graph.grantedAccessLevel]);
}

export class TokenRequestManager {
  private readonly views = new Map<string, TokenRequestView>();
  /** For each finished view, the state it was about (basisOf when it was published). */
  private readonly bases = new Map<string, string | undefined>();
  private readonly running = new Map<string, AbortController>();
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly store: TrayStore,
    private readonly api: LocalApiClient,
    private readonly events: TokenRequestEvents,
    private readonly now: () => number = Date.now,
  ) {}

  list(): TokenRequestView[] {
    return [...this.views.values()];
  }

  /** Forgets a finished request (the user dismissed its panel); a waiting one stays. */
  dismiss(id: string): void {
    const view = this.views.get(id);
    if (view && !this.running.has(id)) this.forget(view);
  }

  isWaiting(id: string): boolean {
    return this.running.has(id);
  }

  /**
   * Forgets every finished request whose state is gone: its graph was removed, its token, access
   * level or block changed since, or it said Roam was not running and Roam now answers.
   */
  prune(data: StoreData, roamRunning?: boolean): void {
    for (const view of [...this.views.values()]) {
      if (view.status === 'waiting') continue; // running, or its outcome is about to be published
      const gone =
        basisOf(data, view.graphId) === undefined ||
        basisOf(data, view.graphId) !== this.bases.get(view.graphId) ||
        (view.cause === 'roam-not-running' && roamRunning === true);
      if (gone) this.forget(view);
    }
  }

  /**
   * Starts a request for the level the graph's chosen access level needs (or returns the one
   * already waiting) without waiting for the user's answer.
   */
  start(id: string, accessLevel?: AccessLevel): TokenRequestView {
    const data = this.store.read();
    const graph = this.store.find(data, id);
    const current = this.views.get(id);
    if (current && this.running.has(id)) return current;
    const requested = tokenLevelFor(accessLevel ?? graph.accessLevel);
    const startedAt = this.now();
    const base = {
      graphId: id,
      requestedAccessLevel: requested,
      startedAt,
      expiresAt: startedAt + ROAM_REQUEST_TIMEOUT_MS,
    };

    if (data.blocked.some((b) => graphId(b) === id)) {
      // Never send another request to a blocked graph: Roam would only refuse it again.
      return this.publish({ ...base, ...refusalOutcome('GRAPH_BLOCKED')! });
    }
    const controller = new AbortController();
    this.running.set(id, controller);
    const view = this.publish({
      ...base,
      status: 'waiting',
      message: 'Waiting for you to approve the request in Roam.',
    });
    const ref = { name: graph.name, type: graph.type };
    const work = this.run(view, ref, nicknameOf(graph), controller).then((final) => {
      // Cleared before anyone hears the outcome, so a retry right away starts a new request.
      this.running.delete(id);
      this.inFlight.delete(work);
      try {
        this.events.storeChanged(this.store.read());
      } catch {
        // An unreadable store is reported by the next handler that reads it.
      }
      this.publish(final);
    });
    this.inFlight.add(work);
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
    await Promise.all([...this.inFlight]);
  }

  private async run(
    waiting: TokenRequestView,
    graph: GraphRef,
    label: string,
    controller: AbortController,
  ): Promise<TokenRequestView> {
    const requested = waiting.requestedAccessLevel;
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
        message: `Token stored (${grant.grantedAccessLevel}).`,
      };
    } catch (error) {
      const outcome = failedOutcome(error, controller.signal.aborted, graph);
      if (outcome.status === 'blocked') await this.block(graph).catch(() => {});
      return { ...waiting, ...outcome };
    }
  }

  private async block(graph: GraphRef): Promise<void> {
    const id = graphId(graph);
    await this.store.update((d) => {
      if (!d.blocked.some((b) => graphId(b) === id)) d.blocked.push({ ...graph, blockedAt: this.now() });
    });
  }

  private publish(view: TokenRequestView): TokenRequestView {
    this.views.set(view.graphId, view);
    if (view.status !== 'waiting') {
      try {
        this.bases.set(view.graphId, basisOf(this.store.read(), view.graphId));
      } catch {
        this.bases.delete(view.graphId); // unreadable store: the next prune drops it
      }
    }
    this.events.requestChanged(view);
    return view;
  }

  private forget(view: TokenRequestView): void {
    this.views.delete(view.graphId);
    this.bases.delete(view.graphId);
    this.events.requestRemoved(view);
  }
}
