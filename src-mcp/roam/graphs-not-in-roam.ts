/**
 * Configured graphs that Roam Desktop does not have (a wrong name, a graph deleted or not shared
 * with this account). Roam says so by answering a token request with a bare 500 ("Could not open
 * hosted graph 'x': it does not exist or you have no access to it"). Such a graph is not offered
 * by list_graphs, and naming it answers GRAPH_NOT_FOUND at once, without another dialog, until
 * Roam's list of graphs has it again.
 */
import { graphId, sameGraph } from '../../src-shared/constants.ts';
import { LocalApiError, type GraphRef, type LocalApiClient } from '../../src-shared/local-api/index.ts';
import type { ConfiguredGraph } from '../../src-shared/roam-config.ts';
import type { ConfigSource } from '../config/load-config.ts';
import { ToolError } from '../contract/tool-errors.ts';

/** Roam's answer to a token request for a graph it cannot open. */
export function isGraphMissingAnswer(error: unknown): boolean {
  return (
    error instanceof LocalApiError &&
    error.kind === 'internal' &&
    /does not exist|could not open/i.test(error.serverMessage)
  );
}

export function graphNotInRoamError(graph: ConfiguredGraph, source: ConfigSource): ToolError {
  const fix =
    source.kind === 'ipc'
      ? 'The user removes it in Roam Companion > Graphs and adds the graph again with its right name.'
      : source.kind === 'file'
        ? `The user corrects its "name" in ${source.path} (or removes the entry), then restarts the MCP client.`
        : 'The user corrects the graph name in the configuration, then restarts the MCP client.';
  return new ToolError(
    'GRAPH_NOT_FOUND',
    `Roam Desktop has no ${graph.type} graph named '${graph.name}' (configured as '${graph.nickname}'): it does not exist, or this Roam account cannot open it. ${fix} Use another graph from list_graphs meanwhile.`,
    { graph: graph.nickname, suggested_next_tool: 'list_graphs' },
  );
}

export class GraphsNotInRoam {
  private readonly missing = new Set<string>();

  remember(graph: GraphRef): void {
    this.missing.add(graphId(graph));
  }

  /** Known missing and still not in Roam's list (a graph created since is forgotten here). */
  async stillMissing(client: LocalApiClient, graph: GraphRef, signal?: AbortSignal): Promise<boolean> {
    if (!this.missing.has(graphId(graph))) return false;
    const gone = (await this.notListed(client, [graph], signal)) ?? [graph];
    if (gone.length === 0) this.missing.delete(graphId(graph));
    return gone.length > 0;
  }

  /**
   * Of these graphs, the ones Roam does not have: those without a token (with one, Roam's answers
   * to calls say more) that its list lacks, and those known missing. Roam not answering: only the
   * known ones.
   */
  async among<G extends ConfiguredGraph>(client: LocalApiClient, graphs: readonly G[], signal?: AbortSignal) {
    const candidates = graphs.filter((g) => !g.token || this.missing.has(graphId(g)));
    if (candidates.length === 0) return [];
    const gone = await this.notListed(client, candidates, signal);
    return gone ?? candidates.filter((g) => this.missing.has(graphId(g)));
  }

  private async notListed<G extends GraphRef>(
    client: LocalApiClient,
    graphs: readonly G[],
    signal?: AbortSignal,
  ) {
    let available: GraphRef[];
    try {
      available = await client.graphsAvailable({ signal });
    } catch {
      return undefined;
    }
    return graphs.filter((g) => !available.some((a) => sameGraph(a, g)));
  }
}
