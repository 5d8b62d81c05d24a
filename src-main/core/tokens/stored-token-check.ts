/**
 * Asks Roam (`tokens/info`) about every stored token: a 401 marks it 'revoked' (revoked in
 * Settings > Graph > Local API Tokens) so the UI can offer a new request, and a valid answer
 * records what the token grants, so the graph view can compare it with the chosen level (tokens
 * imported from `~/.roam-tools.json` arrive without it). Tokens the MCP children see rejected
 * arrive the same way, as `token-rejected`.
 */
import type { LocalApiClient } from '../../../src-shared/local-api/index.ts';
import type { TrayStore } from '../store/tray-store.ts';

/** Returns true when the store changed (a token newly revoked, or its grant learned or changed). */
export async function checkStoredTokens(store: TrayStore, api: LocalApiClient): Promise<boolean> {
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
      } else if (
        info.status === 'valid' &&
        info.accessLevel &&
        info.accessLevel !== graph.grantedAccessLevel
      ) {
        await store.recordGrant(graph, graph.token.last4, info.accessLevel);
        changed = true;
      }
    } catch {
      // Roam went away or the token cannot be decrypted here: check again next time.
    }
  }
  return changed;
}
