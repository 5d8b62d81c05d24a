/**
 * The Local API calls an undo in the tray makes: each with the graph's token from the tray's own
 * store, decrypted only for the call (never handed to the renderer, a log or an error).
 */
import type { Caller } from '../../src-mcp/changes/index.ts';
import type { LocalApiClient } from '../../src-shared/local-api/index.ts';
import type { TrayStore } from './tray-store.ts';

export function trayCaller(store: TrayStore, api: LocalApiClient): Caller {
  return async (name, action, args, type) => {
    const graph = store.read().graphs.find((g) => g.name === name && (type === undefined || g.type === type));
    const token = graph?.token && !graph.token.revoked ? await store.openToken(graph) : undefined;
    if (!graph || !token)
      throw new Error(
        `Roam Companion has no working token for the graph '${name}'. Add it or request a token in Graphs, then undo again.`,
      );
    return api.call({ name: graph.name, type: graph.type, token }, action, args);
  };
}
