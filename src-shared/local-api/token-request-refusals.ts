/**
 * Roam's refusals of a token request (docs/mcp.md, Token exchange) and who may ask again after
 * each: the one table the MCP server, the connect CLI and the tray read.
 *
 * - `anyone`: nobody decided anything (no answer in time, cancelled, another dialog open).
 * - `person`: the user clicked Deny. An agent must not ask again; the person may change their mind.
 * - `after-unblock`: "Never Allow". Roam refuses every request until the graph is unblocked in its settings.
 */
export type AskAgain = 'anyone' | 'person' | 'after-unblock';

export const TOKEN_REQUEST_REFUSALS = {
  USER_REJECTED: { outcome: 'rejected', askAgain: 'person' },
  GRAPH_BLOCKED: { outcome: 'blocked', askAgain: 'after-unblock' },
  REQUEST_IN_PROGRESS: { outcome: 'in-progress', askAgain: 'anyone' },
  TIMEOUT: { outcome: 'timeout', askAgain: 'anyone' },
  CANCELLED: { outcome: 'cancelled', askAgain: 'anyone' },
} as const satisfies Record<string, { outcome: string; askAgain: AskAgain }>;

export type TokenRequestRefusal = (typeof TOKEN_REQUEST_REFUSALS)[keyof typeof TOKEN_REQUEST_REFUSALS];

/** The refusal Roam's error code names, or undefined for any other failure. */
export function tokenRequestRefusal(code: string): TokenRequestRefusal | undefined {
  return Object.hasOwn(TOKEN_REQUEST_REFUSALS, code)
    ? TOKEN_REQUEST_REFUSALS[code as keyof typeof TOKEN_REQUEST_REFUSALS]
    : undefined;
}
