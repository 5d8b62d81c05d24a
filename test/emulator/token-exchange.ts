/**
 * `POST /api/graphs/tokens/request`: one pending dialog per [type, name], answered
 * by `decide`/`autoDecide`, timing out, cancelled when the client goes away; "Never Allow" sticks.
 */
import type { AccessLevel, GraphType } from '../../src-shared/roam-config.ts';
import { GRAPH_TYPES, isLowerAccess, scopesOf, TOKEN_ACCESS_LEVELS } from '../../src-shared/roam-config.ts';
import type { TokenStore } from './token-store.ts';
import type { PendingTokenRequest, TokenDecision } from './types.ts';

/** What the HTTP layer sends back: status and JSON body. */
export interface ExchangeReply {
  status: number;
  body: Record<string, unknown>;
}

interface Pending extends PendingTokenRequest {
  /** Requested with `ai: true`: the token writes as the graph's AI user. */
  ai: boolean;
  reply: (reply: ExchangeReply) => void;
  timer: NodeJS.Timeout;
  autoTimer?: NodeJS.Timeout;
}

export interface ExchangeDeps {
  tokens: TokenStore;
  timeoutMs: number;
  /** The logged-in user's permission, or undefined when the graph doesn't exist. */
  userPermission(graph: string, type: GraphType): AccessLevel | undefined;
  /** Roam opens the graph window when a request arrives. */
  onOpen(graph: string, type: GraphType): void;
}

const key = (graph: string, type: GraphType) => `${type}:${graph}`;

function failure(status: number, code: string, message: string): ExchangeReply {
  return { status, body: { success: false, error: { code, message } } };
}

function lowest(a: AccessLevel, b: AccessLevel): AccessLevel {
  return isLowerAccess(a, b) ? a : b;
}

export class TokenExchange {
  private readonly pending = new Map<string, Pending>();
  private readonly blocked = new Set<string>();
  /** Decisions given before the request arrived, by graph key or bare name. */
  private readonly queued = new Map<string, TokenDecision>();
  private auto: { decision: TokenDecision; delayMs: number } | null = null;

  constructor(private readonly deps: ExchangeDeps) {}

  /** Validates the body; either replies at once or waits for the user and calls `reply` later. */
  request(body: unknown, reply: (reply: ExchangeReply) => void): { cancel(): void } {
    const none = { cancel() {} };
    const input = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
    const invalid = (message: string) => {
      reply(failure(400, 'VALIDATION_ERROR', message));
      return none;
    };
    if (typeof input.graph !== 'string' || input.graph.trim() === '')
      return invalid('Graph name is required');
    if (typeof input.description !== 'string' || input.description.trim() === '') {
      return invalid('Description is required');
    }
    // Roam grants only these; `read-edit-own` is roam-mcp's own level, never a token's.
    if (!(TOKEN_ACCESS_LEVELS as readonly string[]).includes(input.accessLevel as AccessLevel)) {
      return invalid('accessLevel is required. Valid options: read-only, read-append, full');
    }
    const graphType = (input.graphType ?? 'hosted') as GraphType;
    if (!GRAPH_TYPES.includes(graphType))
      return invalid('graphType must be "hosted" or "offline" when given');
    const graph = input.graph;
    const id = key(graph, graphType);

    if (this.blocked.has(id)) {
      reply(failure(403, 'GRAPH_BLOCKED', 'Token requests for this graph have been permanently blocked'));
      return none;
    }
    if (this.pending.has(id)) {
      reply(failure(409, 'REQUEST_IN_PROGRESS', 'A token request for this graph is already in progress'));
      return none;
    }
    if (this.deps.userPermission(graph, graphType) === undefined) {
      reply(
        failure(
          500,
          'INTERNAL_ERROR',
          `Could not open ${graphType} graph '${graph}': it does not exist or you have no access to it. Check the graph name.`,
        ),
      );
      return none;
    }
    this.deps.onOpen(graph, graphType);

    const entry: Pending = {
      graph,
      graphType,
      accessLevel: input.accessLevel as AccessLevel,
      description: input.description,
      ai: input.ai === true,
      reply,
      timer: setTimeout(
        () => this.finish(id, failure(408, 'TIMEOUT', 'Request timed out waiting for user response')),
        this.deps.timeoutMs,
      ),
    };
    this.pending.set(id, entry);

    const early = this.queued.get(id) ?? this.queued.get(graph);
    if (early) {
      this.queued.delete(id);
      this.queued.delete(graph);
      this.answer(id, early);
    } else if (this.auto) {
      const { decision } = this.auto;
      entry.autoTimer = setTimeout(() => this.answer(id, decision), this.auto.delayMs);
    }
    return {
      cancel: () => this.finish(id, failure(500, 'CANCELLED', 'Request was cancelled'), entry),
    };
  }

  /** Answers the pending request for the graph, or remembers the answer for the next one. */
  decide(graph: string, decision: TokenDecision, type?: GraphType): void {
    const id = type
      ? key(graph, type)
      : [...this.pending.keys()].find((k) => this.pending.get(k)?.graph === graph);
    if (id && this.pending.has(id)) this.answer(id, decision);
    else this.queued.set(type ? key(graph, type) : graph, decision);
  }

  autoDecide(decision: TokenDecision | null, delayMs = 0): void {
    this.auto = decision ? { decision, delayMs } : null;
  }

  pendingRequests(): PendingTokenRequest[] {
    return [...this.pending.values()].map(({ graph, graphType, accessLevel, description }) => ({
      graph,
      graphType,
      accessLevel,
      description,
    }));
  }

  unblock(graph: string, type?: GraphType): void {
    for (const t of type ? [type] : GRAPH_TYPES) this.blocked.delete(key(graph, t));
  }

  /** Cancels everything (the server is going away). */
  cancelAll(): void {
    for (const id of [...this.pending.keys()])
      this.finish(id, failure(500, 'CANCELLED', 'Request was cancelled'));
  }

  private answer(id: string, decision: TokenDecision): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    switch (decision.kind) {
      case 'no-answer':
        return;
      case 'reject':
        return this.finish(id, failure(403, 'USER_REJECTED', 'Token request was rejected by the user'));
      case 'never-allow':
        this.blocked.add(id);
        return this.finish(
          id,
          failure(403, 'GRAPH_BLOCKED', 'Token requests for this graph have been permanently blocked'),
        );
      case 'approve': {
        const permission = this.deps.userPermission(entry.graph, entry.graphType) ?? 'read-only';
        const granted = decision.accessLevel ?? lowest(entry.accessLevel, permission);
        const token = this.deps.tokens.mint({
          graph: entry.graph,
          type: entry.graphType,
          accessLevel: granted,
          ...(entry.ai ? { ai: true } : {}),
        });
        return this.finish(id, {
          status: 200,
          body: {
            success: true,
            token,
            graphName: entry.graph,
            graphType: entry.graphType,
            grantedAccessLevel: granted,
            grantedScopes: Object.fromEntries(scopesOf(granted).map((scope) => [scope, true])),
          },
        });
      }
    }
  }

  /** Replies once and clears the pending slot (only if `only` is still the pending entry). */
  private finish(id: string, reply: ExchangeReply, only?: Pending): void {
    const entry = this.pending.get(id);
    if (!entry || (only && entry !== only)) return;
    clearTimeout(entry.timer);
    clearTimeout(entry.autoTimer);
    this.pending.delete(id);
    entry.reply(reply);
  }
}
