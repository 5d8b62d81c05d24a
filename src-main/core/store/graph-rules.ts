/**
 * The rules a stored graph follows: how one is first stored, and the MCP server's own validation
 * (shared `validateGraphs`) applied to every stored graph.
 */
import { validateGraphs, type AccessLevel, type GraphEntry } from '../../../src-shared/roam-config.ts';
import { CoreError } from '../core-error.ts';
import type { StoredGraph } from './stored-graph.ts';

/** A stored graph as the shared config rules see it. */
export function toEntry(graph: StoredGraph): GraphEntry {
  const entry: GraphEntry = { name: graph.name, type: graph.type, accessLevel: graph.accessLevel };
  if (graph.nickname !== undefined) entry.nickname = graph.nickname;
  if (graph.disabled) entry.disabled = true;
  return entry;
}

/** A graph as it is first stored: the default access level for new tokens unless one is given. */
export function newStoredGraph(
  fields: {
    name: string;
    type: StoredGraph['type'];
    nickname?: string;
    description?: string;
    accessLevel?: AccessLevel;
  },
  defaultAccessLevel: AccessLevel,
): StoredGraph {
  const graph: StoredGraph = {
    name: fields.name,
    type: fields.type,
    accessLevel: fields.accessLevel ?? defaultAccessLevel,
  };
  if (fields.nickname) graph.nickname = fields.nickname;
  if (fields.description) graph.description = fields.description;
  return graph;
}

/**
 * The MCP server's rules (shared validateGraphs), applied to every stored graph as if enabled so a
 * disabled graph cannot be re-enabled into a clash. A hosted/offline shadowing that the change
 * would introduce is refused here rather than silently ignored by the server later.
 */
export function assertGraphRules(before: readonly StoredGraph[], after: readonly StoredGraph[]): void {
  const asEnabled = (list: readonly StoredGraph[]) => list.map((g) => ({ ...toEntry(g), disabled: false }));
  const previous = validateGraphs(asEnabled(before));
  const next = validateGraphs(asEnabled(after));
  const newWarnings = next.warnings
    .filter((w) => !previous.warnings.includes(w))
    .map(
      (w) =>
        `Not saved: ${w} Keeping both would hide the offline graph from AI clients; remove one of them first.`,
    );
  const problems = [...next.errors.filter((e) => !previous.errors.includes(e)), ...newWarnings];
  if (problems.length) throw new CoreError('VALIDATION', problems.join(' '));
}
