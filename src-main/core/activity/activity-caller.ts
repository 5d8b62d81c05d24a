/**
 * The Local API calls an undo in the tray makes: each with the graph's token from the tray's own
 * store, decrypted only for the call (never handed to the renderer, a log or an error).
 */
import { undoCaller, type Caller } from '../../../src-mcp/changes/index.ts';
import type { LocalApiClient } from '../../../src-shared/local-api/index.ts';
import type { TrayStore } from '../store/tray-store.ts';

export function trayCaller(store: TrayStore, api: LocalApiClient): Caller {
  const missing = (name: string) =>
    new Error(
      `Roam Companion has no working token for the graph '${name}'. Add it or request a token in Graphs, then undo again.`,
    );
  return undoCaller({
    graphs: () => store.read().graphs.filter((g) => g.token && !g.token.revoked),
    async call(graph, action, args) {
      const token = await store.openToken(graph);
      if (!token) throw missing(graph.name);
      return api.call({ name: graph.name, type: graph.type, token }, action, args);
    },
    missing,
  });
}
