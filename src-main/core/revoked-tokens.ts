/**
 * Finds stored tokens Roam no longer accepts (revoked in Settings > Graph > Local API Tokens) by
 * asking `tokens/info`; a 401 marks the token 'revoked' so the UI can offer a new request.
 * Tokens the MCP children see rejected arrive the same way, as `token-rejected`.
 */
import type { LocalApiClient } from '../../src-shared/local-api/index.ts';
import type { GraphStore } from './graph-store.ts';

/** Returns true when at least one token was newly marked revoked. */
export async function checkRevokedTokens(store: GraphStore, api: LocalApiClient): Promise<boolean> {
  let changed = false;
  for (const graph of store.read().graphs) {
    if (!graph.token || graph.token.revoked) continue;
    try {
      const token = await store.openToken(graph);
      if (!token) continue;
      const info = await api.tokenInfo({ name: graph.name, type: graph.type, token });
      if (info.status === 'invalid') {
        await store.markRevoked(graph);
        changed = true;
      }
    } catch {
      // Roam went away or the token cannot be decrypted here: check again next time.
    }
  }
  return changed;
}
