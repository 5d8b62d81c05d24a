import type { GraphRef, LocalApiClient } from '../../../src-shared/local-api/index.ts';
import { sameGraph } from '../../../src-shared/constants.ts';
import { CoreError } from '../core-error.ts';

/**
 * A graph Roam Desktop does not have is never saved: it would be switched on, offered to agents
 * and asked for a token in vain. Roam's list of graphs decides; when Roam cannot be asked (not
 * running), the graph is added and the token request that follows says so.
 */
export async function assertRoamHasGraph(api: LocalApiClient, graph: GraphRef): Promise<void> {
  let available: GraphRef[];
  try {
    available = await api.graphsAvailable();
  } catch {
    return;
  }
  if (available.some((g) => sameGraph(g, graph))) return;
  const otherType = available.find((g) => g.name === graph.name);
  if (otherType) {
    throw new CoreError(
      'VALIDATION',
      `Roam Desktop has '${graph.name}' as an ${otherType.type} graph, not a ${graph.type} one. Choose ${otherType.type}; nothing was added.`,
    );
  }
  const names = available.map((g) => g.name);
  const listed = names.length > 10 ? `${names.slice(0, 10).join(', ')}, …` : names.join(', ');
  throw new CoreError(
    'VALIDATION',
    `Roam Desktop has no ${graph.type} graph named '${graph.name}'${names.length ? ` (it has: ${listed})` : ''}. ` +
      "Check the spelling: it is the name in the graph's address, roamresearch.com/#/app/<name>. Nothing was added.",
  );
}
