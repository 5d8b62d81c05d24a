/**
 * What the tools share within one connection: the session, the connection to Roam, token
 * exchange (docs/mcp.md, Token exchange) and capability probes. Handlers reach Roam only through `callGraph`,
 * which adds the token, runs an exchange when the graph has none, and reports a rejected token.
 */
import { LocalApiError } from '../../src-shared/local-api/index.ts';
import {
  DEFAULT_ACCESS_LEVEL,
  isLowerAccess,
  tokenLevelFor,
  type ConfiguredGraph,
  type TokenAccessLevel,
} from '../../src-shared/roam-config.ts';
import { graphId } from '../../src-shared/constants.ts';
import type { CallScope } from '../contract/call-scope.ts';
import type { GraphSession } from './graph-session.ts';
import { log } from '../contract/log.ts';
import type { RoamConnection } from './roam-connection.ts';
import { SharedRequest } from './shared-request.ts';
import { tokenRequestError, ToolError } from '../contract/tool-errors.ts';
import type { TokenStore } from './token-store.ts';
import { graphNotInRoamError, GraphsNotInRoam, isGraphMissingAnswer } from './graphs-not-in-roam.ts';
import { withoutHiddenPreviews } from './hidden-blocks.ts';

declare module '../contract/tool-definition.ts' {
  /** A session tool gets the connection's gateway (`SessionContext`). */
  interface SessionServices {
    gateway: GraphGateway;
  }
}

/** What the gateway asks of the server that owns it. */
export interface GatewayHooks {
  clientName: () => string;
  /** Actions that decide whether some tools/resources are shown. */
  probeActions: () => string[];
  /** A token or a probe may have changed which tools are visible. */
  capabilitiesChanged: () => void;
}

export class GraphGateway {
  private readonly exchanges = new Map<string, SharedRequest<string>>();
  /** Tokens Roam refused: a copy still in the config file must not be picked up again. */
  private readonly rejectedTokens = new Set<string>();
  /** action → graph keys known to offer it / known not to. */
  private readonly offered = new Map<string, Set<string>>();
  private readonly probed = new Set<string>();
  /** Graphs Roam said it cannot open: not offered, not asked for again (graphs-not-in-roam.ts). */
  readonly notInRoam = new GraphsNotInRoam();

  constructor(
    readonly session: GraphSession,
    readonly connection: RoamConnection,
    readonly tokens: TokenStore,
    private readonly options: GatewayHooks,
  ) {}

  /** One Local API call for `graph`: token added (exchanged first if missing); 401 drops the token. */
  async callGraph(
    graph: ConfiguredGraph,
    action: string,
    args: unknown[],
    scope: CallScope,
    onRow?: (row: readonly unknown[]) => void,
  ): Promise<unknown> {
    const token = await this.ensureToken(graph, scope);
    const options = onRow ? { signal: scope.signal, onRow } : scope;
    try {
      const result = await this.connection.whenRunning(
        graph,
        () =>
          this.connection.client.call({ name: graph.name, type: graph.type, token }, action, args, options),
        scope,
      );
      this.probeInBackground(graph, token);
      // Roam's text reaches agents only through here: a hidden block's preview never does.
      if (!action.startsWith('data.ai.')) return result;
      return await withoutHiddenPreviews(result, (datalog, inputs) =>
        this.callGraph(graph, 'data.q', [datalog, ...inputs], scope),
      );
    } catch (error) {
      if (error instanceof LocalApiError && error.kind === 'auth') {
        this.forgetToken(graph, token);
        throw new ToolError(
          'AUTH_FAILED',
          `Roam rejected the token for graph '${graph.nickname}' (${error.serverMessage || 'unauthorized'}): it was revoked or belongs to another graph. ` +
            `Call select_graph for '${graph.nickname}' to ask Roam for a new token (the user approves it in Roam Desktop), or run 'roam-mcp connect'.`,
          { graph: graph.nickname, suggested_next_tool: 'select_graph' },
        );
      }
      throw error;
    }
  }

  private forgetToken(graph: ConfiguredGraph, token: string): void {
    this.rejectedTokens.add(token);
    if (graph.token !== token) return; // already replaced by a newer exchange
    this.session.setToken(graph, undefined);
    this.tokens.rejected(graph);
    log(
      'warn',
      `Roam rejected the token of graph '${graph.nickname}'; a new one will be requested on next use`,
    );
  }

  /**
   * The graph's token. Without one, first the config source is read again (another roam-mcp may
   * have just stored one: asking Roam again would open a second dialog), then the token exchange.
   */
  async ensureToken(graph: ConfiguredGraph, scope: CallScope): Promise<string> {
    if (graph.token) return graph.token;
    const stored = await this.tokens.stored(graph);
    if (stored && !this.rejectedTokens.has(stored.token)) {
      this.session.setToken(graph, stored.token, stored.accessLevel);
      return stored.token;
    }
    if (await this.notInRoam.stillMissing(this.connection.client, graph, scope.signal)) {
      throw graphNotInRoamError(graph, this.session.source);
    }
    return this.exchange(graph, scope);
  }

  /**
   * Asks Roam (the user, in a dialog) for a token; concurrent callers share one request, and one
   * caller's cancellation withdraws it only when no other caller is still waiting.
   */
  exchange(graph: ConfiguredGraph, scope: CallScope): Promise<string> {
    const key = graphId(graph);
    const pending = this.exchanges.get(key);
    if (pending && !pending.withdrawn) {
      scope.progress(`Waiting for the token request for '${graph.nickname}' already open in Roam Desktop.`);
      return pending.join(scope);
    }
    const request = new SharedRequest((shared) =>
      this.runExchange(graph, shared).finally(() => {
        if (this.exchanges.get(key) === request) this.exchanges.delete(key);
      }),
    );
    this.exchanges.set(key, request);
    return request.join(scope);
  }

  private async runExchange(graph: ConfiguredGraph, scope: CallScope): Promise<string> {
    // read-edit-own is asked as full: roam-mcp itself keeps edits to what agents created.
    const requested = tokenLevelFor(graph.accessLevel ?? DEFAULT_ACCESS_LEVEL);
    scope.progress(
      `Asking Roam Desktop for ${requested} access to '${graph.nickname}': approve the request in Roam (it waits up to 5 minutes).`,
    );
    log('info', `requesting a ${requested} token for graph '${graph.nickname}' from Roam Desktop`);
    let grant;
    try {
      grant = await this.connection.whenRunning(
        graph,
        () =>
          this.connection.client.requestToken(
            {
              graph: graph.name,
              graphType: graph.type,
              description: `roam-mcp (${this.options.clientName()})`,
              accessLevel: requested,
            },
            scope,
          ),
        scope,
      );
    } catch (error) {
      if (error instanceof LocalApiError && error.kind === 'exchange') {
        throw tokenRequestError(error, graph);
      }
      if (isGraphMissingAnswer(error)) {
        this.notInRoam.remember(graph);
        throw graphNotInRoamError(graph, this.session.source);
      }
      throw error;
    }
    this.session.setToken(graph, grant.token, grant.grantedAccessLevel);
    let stored: string;
    try {
      stored = await this.tokens.saved(graph, grant.token, grant.grantedAccessLevel);
    } catch (error) {
      stored = `The token could not be saved (${(error as Error).message}); it is kept in memory for this session.`;
      log('error', stored);
    }
    const lower = isLowerAccess(grant.grantedAccessLevel, requested)
      ? ` Roam granted ${grant.grantedAccessLevel} access, less than the ${requested} requested: some tools will answer INSUFFICIENT_SCOPE.`
      : '';
    scope.notice(
      `Roam granted a ${grant.grantedAccessLevel} token for graph '${graph.nickname}'. ${stored}${lower}`,
    );
    log('info', `obtained a ${grant.grantedAccessLevel} token for graph '${graph.nickname}'. ${stored}`);
    this.options.capabilitiesChanged();
    return grant.token;
  }

  /**
   * A graph set up in this session (setup_new_graph), usable at once by its nickname, with the
   * token Roam just granted; tools/list may change (a first writable graph shows the write tools).
   */
  addGraph(graph: ConfiguredGraph, token: string, granted: TokenAccessLevel): void {
    const others = this.session.listAll().filter((g) => graphId(g) !== graphId(graph));
    this.session.setGraphs([...others, { ...graph, token }]);
    this.session.setToken(graph, token, granted);
    this.options.capabilitiesChanged();
  }

  /** Whether any graph is known to offer `action` (capability-based exposure). */
  offers(action: string): boolean {
    return (this.offered.get(action)?.size ?? 0) > 0;
  }

  /** Probes, once per graph, the actions some tools need; UNKNOWN_ACTION means "hide them". */
  private probeInBackground(graph: ConfiguredGraph, token: string): void {
    const key = graphId(graph);
    if (this.probed.has(key)) return;
    this.probed.add(key);
    const actions = this.options.probeActions();
    if (actions.length === 0) return;
    void Promise.all(
      actions.map(async (action) => {
        try {
          await this.connection.client.call({ name: graph.name, type: graph.type, token }, action, [{}]);
        } catch (error) {
          if (
            error instanceof LocalApiError &&
            (error.kind === 'unknown-action' || error.kind === 'auth' || error.kind === 'not-running')
          ) {
            return false;
          }
        }
        const set = this.offered.get(action) ?? new Set<string>();
        set.add(key);
        this.offered.set(action, set);
        return true;
      }),
    ).then((found) => {
      if (found.some(Boolean)) this.options.capabilitiesChanged();
    });
  }
}
