import type { GraphView } from '../../../src-shared/ipc-contract.ts';

/**
 * How the graph's chosen access level compares with its token's grant, from the core's `covers`:
 * `wider` needs a new token; `narrower` is enforced by roam-mcp; `unknown` when Roam has not said.
 */
export type AccessFit = 'no-token' | 'unknown' | 'same' | 'narrower' | 'wider';

export function accessFit(graph: GraphView): AccessFit {
  const { token } = graph;
  if (token.state !== 'ok' && token.state !== 'waiting') return 'no-token';
  if (!token.last4) return 'no-token';
  if (!token.grantedAccessLevel || !token.covers) return 'unknown';
  if (!token.covers.includes(graph.accessLevel)) return 'wider';
  return token.grantedAccessLevel === graph.accessLevel ? 'same' : 'narrower';
}
