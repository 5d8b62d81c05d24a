/**
 * The graphs this connection may use and the session state on top of them (docs/mcp.md):
 * which graph is selected, which graphs' guidelines the agent has seen ("graph tickets"), and
 * what each token was granted. In memory only: a new connection starts fresh.
 */
import {
  findGraph,
  scopesOf,
  type AccessLevel,
  type ConfiguredGraph,
  type GraphType,
} from '../src-shared/roam-config.ts';
import { graphId as graphKey } from '../src-shared/constants.ts';
import { ToolError } from './tool-errors.ts';

export interface ConfigProblem {
  code: 'CONFIG_NOT_FOUND' | 'CONFIG_INVALID';
  message: string;
}

export class GraphSession {
  private graphs: ConfiguredGraph[] = [];
  private selected: string | undefined;
  private readonly tickets = new Set<string>();
  private readonly granted = new Map<string, AccessLevel>();
  private problem: ConfigProblem | undefined;

  /** Replaces the graph list (startup, or a live update from the tray). */
  setGraphs(graphs: ConfiguredGraph[], problem?: ConfigProblem): void {
    this.graphs = graphs.map((g) => ({ ...g }));
    this.problem = problem;
    const keys = new Set(this.graphs.map(graphKey));
    if (this.selected && !keys.has(this.selected)) this.selected = undefined;
    for (const key of [...this.tickets]) if (!keys.has(key)) this.tickets.delete(key);
  }

  list(): readonly ConfiguredGraph[] {
    return this.graphs;
  }

  /** What list_graphs and errors show: never tokens, never types. */
  available(): Array<{ name: string; nickname: string }> {
    return this.graphs.map((g) => ({ name: g.name, nickname: g.nickname }));
  }

  /**
   * Resolution (docs/mcp.md, Graphs and sessions): explicit `graph` argument, the session
   * selection, the only configured graph; otherwise GRAPH_NOT_SELECTED. Never changes the
   * selection: callers `select` only after the call succeeded, so a failed call never redirects
   * later writes.
   */
  resolve(ref: string | undefined): ConfiguredGraph {
    this.assertConfigured();
    if (ref !== undefined && ref.trim() !== '') {
      const graph = findGraph(this.graphs, ref);
      if (!graph) {
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
    const chosen = this.graphs.find((g) => graphKey(g) === this.selected);
    if (chosen) return chosen;
    return this.graphs.length === 1 ? this.graphs[0] : undefined;
  }

  select(graph: ConfiguredGraph): void {
    this.selected = graphKey(graph);
  }

  /** Throws CONFIG_NOT_FOUND / CONFIG_INVALID when there is nothing usable. */
  assertConfigured(): void {
    if (this.graphs.length > 0) return;
    if (this.problem) throw new ToolError(this.problem.code, this.problem.message);
    throw new ToolError(
      'CONFIG_NOT_FOUND',
      'No Roam graph is configured. Run `roam-mcp connect` in a terminal.',
    );
  }

  /** The agent has been given this graph's guidelines in this session. */
  grantTicket(graph: ConfiguredGraph): void {
    this.tickets.add(graphKey(graph));
  }

  hasTicket(graph: ConfiguredGraph): boolean {
    return this.tickets.has(graphKey(graph));
  }

  setToken(graph: { name: string; type: GraphType }, token: string | undefined, granted?: AccessLevel): void {
    const entry = this.graphs.find((g) => graphKey(g) === graphKey(graph));
    if (!entry) return;
    if (token === undefined) delete entry.token;
    else entry.token = token;
    if (granted) this.granted.set(graphKey(graph), granted);
    else if (token === undefined) this.granted.delete(graphKey(graph));
  }

  /** The level the token is known to have: granted by our exchange, else the config's, else unknown. */
  accessLevel(graph: ConfiguredGraph): AccessLevel | undefined {
    return this.granted.get(graphKey(graph)) ?? graph.accessLevel;
  }

  permissions(graph: ConfiguredGraph): Array<'read' | 'append' | 'edit'> | 'unknown' {
    const level = this.accessLevel(graph);
    return level ? scopesOf(level) : 'unknown';
  }

  /** False only when every graph's token is known to be read-only (write tools are then hidden). */
  anyGraphMayWrite(): boolean {
    if (this.graphs.length === 0) return true;
    return this.graphs.some((g) => this.accessLevel(g) !== 'read-only');
  }
}
