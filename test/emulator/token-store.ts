/**
 * Local API tokens per (graph name, graph type), and Roam's authentication outcomes,
 * with their exact statuses and messages.
 */
import type { AccessLevel, GraphType } from '../../src-shared/roam-config.ts';
import { LOCAL_TOKEN_PREFIX, REMOTE_TOKEN_PREFIX } from '../../src-shared/roam-config.ts';
import { randomNanoid } from './roam-uid.ts';

export interface TokenGrant {
  graph: string;
  type: GraphType;
  accessLevel: AccessLevel;
  /** Requested with `ai: true`: its writes are attributed to the graph's AI user. */
  ai?: boolean;
}

/** Roam's 401 codes (the official client branches on them). */
export type AuthFailureCode =
  'MISSING_TOKEN' | 'INVALID_TOKEN_FORMAT' | 'WRONG_GRAPH_TYPE' | 'TOKEN_NOT_FOUND' | 'TOKEN_FILE_CORRUPTED';
interface AuthFailure {
  status: number;
  code: AuthFailureCode;
  message: string;
}
export type AuthResult = { ok: true; grant: TokenGrant } | ({ ok: false } & AuthFailure);

/** A fresh 52-character local token: prefix + 29-character nanoid secret. */
export function mintTokenValue(): string {
  return LOCAL_TOKEN_PREFIX + randomNanoid(29);
}

export class TokenStore {
  private readonly tokens = new Map<string, TokenGrant>();
  corrupted = false;

  add(token: string, grant: TokenGrant): void {
    this.tokens.set(token, grant);
  }

  mint(grant: TokenGrant): string {
    const token = mintTokenValue();
    this.add(token, grant);
    return token;
  }

  revoke(token: string): void {
    this.tokens.delete(token);
  }

  private hasTokensFor(graph: string, type: GraphType): boolean {
    for (const grant of this.tokens.values()) if (grant.graph === graph && grant.type === type) return true;
    return false;
  }

  /** The token of a well-formed local Bearer header, or the failure for a malformed one. */
  private parseHeader(header: string | undefined): { token: string } | AuthFailure {
    const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match)
      return {
        status: 401,
        code: 'MISSING_TOKEN',
        message: 'Authorization header with Bearer token is required',
      };
    const token = match[1] as string;
    if (!token.startsWith(LOCAL_TOKEN_PREFIX)) {
      const message = token.startsWith(REMOTE_TOKEN_PREFIX)
        ? 'This endpoint requires a local API token'
        : 'Invalid token format';
      return { status: 401, code: 'INVALID_TOKEN_FORMAT', message };
    }
    if (this.corrupted)
      return {
        status: 500,
        code: 'TOKEN_FILE_CORRUPTED',
        message: 'Token file corrupted. Check local-api-tokens.edn',
      };
    return { token };
  }

  /** Which graph and level a token grants (`/api/graphs/tokens/info`): revoked ones are "Invalid or expired". */
  identify(header: string | undefined): AuthResult {
    const parsed = this.parseHeader(header);
    if (!('token' in parsed)) return { ok: false, ...parsed };
    const grant = this.tokens.get(parsed.token);
    return grant
      ? { ok: true, grant }
      : { ok: false, status: 401, code: 'TOKEN_NOT_FOUND', message: 'Invalid or expired token' };
  }

  /** Checks an Authorization header value against the graph the request targets. */
  authenticate(header: string | undefined, graph: string, type: GraphType): AuthResult {
    const fail = (code: AuthFailureCode, message: string): AuthResult => ({
      ok: false,
      status: 401,
      code,
      message,
    });
    const parsed = this.parseHeader(header);
    if (!('token' in parsed)) return { ok: false, ...parsed };
    const token = parsed.token;
    const grant = this.tokens.get(token);
    if (grant && grant.graph === graph && grant.type === type) return { ok: true, grant };
    if (grant && grant.graph === graph) {
      return fail(
        'WRONG_GRAPH_TYPE',
        grant.type === 'offline'
          ? `Token is valid for offline graph '${graph}', not hosted. Add ?type=offline to your request URL.`
          : `Token is valid for hosted graph '${graph}', not offline. Remove ?type=offline from your request URL.`,
      );
    }
    if (this.hasTokensFor(graph, type)) {
      return fail(
        'TOKEN_NOT_FOUND',
        "Token not valid for this graph. Check that you're using the correct token for this graph.",
      );
    }
    return fail(
      'TOKEN_NOT_FOUND',
      `Token not recognized for ${type} graph '${graph}'. Check that the graph name is correct and create a token in Settings > Graph > Local API Tokens.`,
    );
  }
}
