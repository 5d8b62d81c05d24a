/**
 * The graphs this process may use and the session state on top of them (docs/mcp.md): what each
 * token was granted (shared by every chat of the process), and per chat
 * (src-mcp/contract/chat-scope.ts) which graph is selected, which graphs' guidelines the agent has
 * seen ("graph tickets") and the key's access cap. In memory only: a new chat starts fresh.
 */
import {
  findGraph,
  narrowestAccess,
  type AccessLevel,
  type ConfiguredGraph,
  type GraphType,
  type SwitchedOffGraph,
} from '../../src-shared/roam-config.ts';
import { graphId } from '../../src-shared/constants.ts';
import { effectiveAccess, type EffectiveAccess, type Permission } from '../access/effective.ts';
import { switchedOffError } from '../access/refusals.ts';
import type { ConfigSource } from '../config/load-config.ts';
import { currentScope, liveScopes } from '../contract/chat-scope.ts';
import { ToolError } from '../contract/tool-errors.ts';

export interface ConfigProblem {
  code: 'CONFIG_NOT_FOUND' | 'CONFIG_INVALID';
  message: string;
}

export class GraphSession {
  private graphs: ConfiguredGraph[] = [];
  /** What Roam granted, per graph, for the token it was granted to (a new token drops it). */
  private readonly granted = new Map<string, { token: string; level: AccessLevel }>();
  private problem: ConfigProblem | undefined;
  private switchedOff: SwitchedOffGraph[] = [];
  /** Where the graphs come from: what a refusal tells the user to change. */
  source: ConfigSource = { kind: 'none', searched: [] };
  /** roam-mcp runs with --read-only: every graph's effective level is read-only. */
  readonly readOnly: boolean;

  constructor(options: { readOnly?: boolean } = {}) {
    this.readOnly = options.readOnly ?? false;
  }

  /** Replaces the graph list (startup, or a live update from the tray). */
  setGraphs(graphs: ConfiguredGraph[], problem?: ConfigProblem): void {
    this.graphs = graphs.map((g) => ({ ...g }));
    this.problem = problem;
    const keys = new Set(this.graphs.map(graphId));
    for (const chat of liveScopes()) {
      if (chat.selected && !keys.has(chat.selected)) chat.selected = undefined;
      for (const key of [...chat.tickets]) if (!keys.has(key)) chat.tickets.delete(key);
    }
  }

  /** The graphs the user switched off, so naming one says so (docs/mcp.md, Graphs and sessions). */
  setSwitchedOff(graphs: readonly SwitchedOffGraph[]): void {
    this.switchedOff = graphs.map((g) => ({ ...g }));
  }

  /** The graphs the running chat may reach (ChatScope.graphs): to it, no other graph exists. */
  list(): readonly ConfiguredGraph[] {
    const allowed = currentScope().graphs;
    return allowed ? this.graphs.filter((g) => allowed.includes(graphId(g))) : this.graphs;
  }

  /** Every configured graph, whatever the chat may reach: for changing the process's list only. */
  listAll(): readonly ConfiguredGraph[] {
    return this.graphs;
  }

  /** The graphs the user switched off (configured, but not offered to agents), as the chat may know them. */
  listSwitchedOff(): readonly SwitchedOffGraph[] {
    const allowed = currentScope().graphs;
    return allowed ? this.switchedOff.filter((g) => allowed.includes(graphId(g))) : this.switchedOff;
  }

  /** What list_graphs and errors show: never tokens, never types. */
  available(): Array<{ name: string; nickname: string }> {
    return this.list().map((g) => ({ name: g.name, nickname: g.nickname }));
  }

  /**
   * Resolution (docs/mcp.md, Graphs and sessions): explicit `graph` argument, the session
   * selection, the only configured graph; otherwise GRAPH_NOT_SELECTED. Never changes the
   * selection: callers `select` only after the call succeeded, so a failed call never redirects
   * later writes.
   */
  resolve(ref: string | undefined): ConfiguredGraph {
    this.assertConfigured(ref?.trim() ? ref : undefined);
    if (ref !== undefined && ref.trim() !== '') {
      const graph = findGraph(this.list(), ref);
      if (!graph) {
        const off = findGraph(this.listSwitchedOff(), ref);
        if (off) throw switchedOffError(off, this.source);
        throw new ToolError(
          'GRAPH_NOT_FOUND',
          `No configured graph is called '${ref}'. Use one of the available graphs (nickname or name).`,
          { available_graphs: this.available(), suggested_next_tool: 'list_graphs' },
        );
      }
      return graph;
    }
    const current = this.current();
    if (current) return current;
    throw new ToolError(
      'GRAPH_NOT_SELECTED',
      'No graph selected. Call select_graph with one of the available graphs first (or pass `graph`).',
      { available_graphs: this.available(), suggested_next_tool: 'select_graph' },
    );
  }

  /** The session selection, or the only configured graph (auto-select). */
  current(): ConfiguredGraph | undefined {
    const selected = currentScope().selected;
    const graphs = this.list();
    const chosen = graphs.find((g) => graphId(g) === selected);
    if (chosen) return chosen;
    return graphs.length === 1 ? graphs[0] : undefined;
  }

  /**
   * Runs `work` on the graph `ref` resolves to; an explicit `ref` becomes the selection once the
   * work succeeded, so a failed call never redirects later writes.
   */
  async withGraph<T>(ref: string | undefined, work: (graph: ConfiguredGraph) => Promise<T>): Promise<T> {
    const graph = this.resolve(ref);
    const value = await work(graph);
    if (ref?.trim()) this.select(graph);
    return value;
  }

  select(graph: ConfiguredGraph): void {
    currentScope().selected = graphId(graph);
  }

  /** Throws CONFIG_NOT_FOUND / CONFIG_INVALID when there is nothing usable. */
  assertConfigured(ref?: string): void {
    if (this.list().length > 0) return;
    const off = ref === undefined ? undefined : findGraph(this.listSwitchedOff(), ref);
    if (off) throw switchedOffError(off, this.source);
    if (this.problem) throw new ToolError(this.problem.code, this.problem.message);
    throw new ToolError(
      'CONFIG_NOT_FOUND',
      'No Roam graph is configured. Run `roam-mcp connect` in a terminal.',
    );
  }

  /** The agent has been given this graph's guidelines in this session. */
  grantTicket(graph: ConfiguredGraph): void {
    currentScope().tickets.add(graphId(graph));
  }

  hasTicket(graph: ConfiguredGraph): boolean {
    return currentScope().tickets.has(graphId(graph));
  }

  setToken(graph: { name: string; type: GraphType }, token: string | undefined, granted?: AccessLevel): void {
    const entry = this.graphs.find((g) => graphId(g) === graphId(graph));
    if (!entry) return;
    if (token === undefined) delete entry.token;
    else entry.token = token;
    if (granted && token !== undefined) this.granted.set(graphId(graph), { token, level: granted });
    else if (token === undefined) this.granted.delete(graphId(graph));
  }

  /** The level Roam granted the current token, as far as known (our exchange, Roam, the config). */
  grantedLevel(graph: ConfiguredGraph): AccessLevel | undefined {
    const known = this.granted.get(graphId(graph));
    if (known && known.token === graph.token) return known.level;
    return graph.grantedAccessLevel;
  }

  /**
   * The narrowest of the chosen level (capped by the chat's key), the token's grant and
   * --read-only (src-mcp/access/).
   */
  access(graph: ConfiguredGraph): EffectiveAccess {
    return effectiveAccess({
      chosen: narrowestAccess([graph.accessLevel, currentScope().accessCap]),
      granted: this.grantedLevel(graph),
      readOnly: this.readOnly,
    });
  }

  permissions(graph: ConfiguredGraph): Permission[] | 'unknown' {
    return this.access(graph).permissions;
  }

  /** False only when every graph is known to be read-only (write tools are then hidden). */
  anyGraphMayWrite(): boolean {
    const graphs = this.list();
    if (graphs.length === 0) return !this.readOnly;
    return graphs.some((g) => this.access(g).level !== 'read-only');
  }
}
