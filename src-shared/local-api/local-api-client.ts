/**
 * A small client for Roam Desktop's Local API (docs/architecture.md), shared by the MCP server, the
 * `connect` CLI and the tray core. It finds the port, authenticates, maps errors to
 * LocalApiError, and never times out on its own: Roam may legitimately hold a request for
 * 30 minutes while an encrypted graph waits for its password. Abort with a signal instead.
 */
import {
  scopesOf,
  TOKEN_ACCESS_LEVELS,
  tokenLevelFor,
  type AccessLevel,
  type GraphType,
  type TokenAccessLevel,
} from '../roam-config.ts';
import { isRepeatableAction } from './action-scopes.ts';
import { HttpTransportError, requestJson, type HttpJsonResponse } from './http-json.ts';
import { LocalApiError, errorFromResponse } from './local-api-error.ts';
import { MalformedRowsError, type ResultRow } from './result-row-stream.ts';
import { readPort } from './port-file.ts';

/** A graph as Roam knows it: name plus hosted/offline. */
export interface GraphRef {
  name: string;
  type: GraphType;
}

/** What `call` needs: the graph and its Local API token. */
export interface AuthenticatedGraph extends GraphRef {
  token: string;
}

export interface CallOptions {
  signal?: AbortSignal;
  /**
   * Read a row-shaped result (`data.q`) as it arrives: each row goes here (the array may be reused
   * after the callback returns) and `call` resolves to undefined. Other results are handed over row
   * by row too when they are arrays of rows.
   */
  onRow?: (row: ResultRow) => void;
}

export interface TokenRequest {
  graph: string;
  graphType: GraphType;
  /** Shown in Roam's permission dialog, e.g. "roam-mcp (Claude Desktop)". */
  description: string;
  /**
   * Always explicit: Roam's token request has no default access level. The level the user chose;
   * `read-edit-own` is asked as `full` (Roam has no such token; roam-mcp enforces it).
   */
  accessLevel: AccessLevel;
}

export interface TokenGrant {
  token: string;
  grantedAccessLevel: TokenAccessLevel;
  grantedScopes: { read: boolean; append: boolean; edit: boolean };
}

/** `unknown`: this Roam does not offer token introspection (404), nothing can be said. */
export type TokenInfo =
  | {
      status: 'valid';
      accessLevel?: TokenAccessLevel;
      scopes?: { read: boolean; append: boolean; edit: boolean };
    }
  | { status: 'invalid'; message: string }
  | { status: 'unknown' };

/**
 * The Local API version this client speaks, sent as `expectedApiVersion` on every action: Roam
 * answers VERSION_MISMATCH when its major.minor differs and ignores the patch (docs/mcp.md,
 * Roam versions), so features added in a patch are found through UNKNOWN_ACTION instead.
 */
export const EXPECTED_API_VERSION = '1.1.5';

export interface LocalApiClientOptions {
  /** Where `.roam-local-api.json` lives. */
  home: string;
  /** Overrides EXPECTED_API_VERSION (tests). */
  expectedApiVersion?: string;
}

export class LocalApiClient {
  private port: number | undefined;

  constructor(private readonly options: LocalApiClientOptions) {}

  /** The port in use (read from the port file on first use). */
  async currentPort(): Promise<number> {
    this.port ??= await readPort(this.options.home);
    return this.port;
  }

  /** Re-reads `~/.roam-local-api.json` (Roam restarted, perhaps on another port). */
  async refreshPort(): Promise<number> {
    this.port = await readPort(this.options.home);
    return this.port;
  }

  /** Runs one roamAlphaAPI action (`POST /api/{graph}`) and returns its `result`. */
  async call<T = unknown>(
    graph: AuthenticatedGraph,
    action: string,
    args: unknown[] = [],
    options: CallOptions = {},
  ): Promise<T> {
    const query = graph.type === 'offline' ? '?type=offline' : '';
    const expectedApiVersion = this.options.expectedApiVersion ?? EXPECTED_API_VERSION;
    const body = { action, args, expectedApiVersion };
    const response = await this.send('POST', `/api/${encodeURIComponent(graph.name)}${query}`, {
      body,
      headers: { authorization: `Bearer ${graph.token}` },
      signal: options.signal,
      retryStaleSocket: isRepeatableAction(action),
      onRow: options.onRow,
    });
    let result: unknown;
    try {
      result = this.successResult(response, action);
    } catch (error) {
      if (error instanceof LocalApiError && error.kind === 'protocol' && !isRepeatableAction(action))
        throw unconfirmedWrite(response);
      throw error;
    }
    if (!options.onRow || response.streamed) return (options.onRow ? undefined : result) as T;
    if (result === null || result === undefined) return undefined as T;
    if (!Array.isArray(result) || !result.every(Array.isArray)) throw protocolError(response);
    for (const row of result as unknown[][]) options.onRow(row);
    return undefined as T;
  }

  /** Graph windows open in Roam right now (no token needed). */
  async graphsOpen(options: CallOptions = {}): Promise<GraphRef[]> {
    return this.graphList('/api/graphs/open', options);
  }

  /** Every graph the signed-in user can open (no token needed). */
  async graphsAvailable(options: CallOptions = {}): Promise<GraphRef[]> {
    return this.graphList('/api/graphs/available', options);
  }

  /**
   * Asks the user, in Roam, for a token (docs/mcp.md, Token exchange). Long-polls until they answer or Roam's
   * 5-minute timeout; refusals come back as LocalApiError kind 'exchange' with Roam's code.
   */
  async requestToken(request: TokenRequest, options: CallOptions = {}): Promise<TokenGrant> {
    const response = await this.send('POST', '/api/graphs/tokens/request', {
      body: { ...request, accessLevel: tokenLevelFor(request.accessLevel), ai: true },
      signal: options.signal,
      retryStaleSocket: true,
    });
    if (response.status < 200 || response.status >= 300)
      throw errorFromResponse(response.status, response.body);
    const body = response.body as (Partial<TokenGrant> & { success?: boolean }) | undefined;
    if (!body || typeof body.token !== 'string' || !body.token) {
      throw new LocalApiError({
        status: response.status,
        code: 'PROTOCOL_ERROR',
        kind: 'protocol',
        message:
          'Roam approved the token request but sent no token. Try again, or create a token in Roam: Settings > Graph > Local API Tokens.',
      });
    }
    const granted = isTokenLevel(body.grantedAccessLevel)
      ? body.grantedAccessLevel
      : (levelFromScopes(body.grantedScopes) ?? tokenLevelFor(request.accessLevel));
    const scopes = scopesOf(granted);
    return {
      token: body.token,
      grantedAccessLevel: granted,
      grantedScopes: { read: true, append: scopes.includes('append'), edit: scopes.includes('edit') },
    };
  }

  /**
   * What Roam knows about a token (`POST /api/graphs/tokens/info`). Real Roam may not offer
   * this endpoint: a 404 gives `{status: 'unknown'}`, a 401 `{status: 'invalid'}`.
   */
  async tokenInfo(graph: AuthenticatedGraph, options: CallOptions = {}): Promise<TokenInfo> {
    const response = await this.send('POST', '/api/graphs/tokens/info', {
      body: { graph: graph.name, graphType: graph.type },
      headers: { authorization: `Bearer ${graph.token}` },
      signal: options.signal,
      retryStaleSocket: true,
    });
    if (response.status === 404) return { status: 'unknown' };
    if (response.status === 401)
      return { status: 'invalid', message: errorFromResponse(401, response.body).message };
    const result = this.successResult(response) as Record<string, unknown> | undefined;
    const source =
      (result && typeof result === 'object' ? result : (response.body as Record<string, unknown>)) ?? {};
    const level = source.accessLevel ?? source.grantedAccessLevel;
    const accessLevel = isTokenLevel(level) ? level : levelFromScopes(source.scopes ?? source.grantedScopes);
    if (!accessLevel) return { status: 'valid' };
    const scopes = scopesOf(accessLevel);
    return {
      status: 'valid',
      accessLevel,
      scopes: { read: true, append: scopes.includes('append'), edit: scopes.includes('edit') },
    };
  }

  private async graphList(path: string, options: CallOptions): Promise<GraphRef[]> {
    const response = await this.send('GET', path, { signal: options.signal, retryStaleSocket: true });
    const result = this.successResult(response);
    if (!Array.isArray(result)) throw protocolError(response);
    return result
      .filter((g): g is { name: string; type?: unknown } => !!g && typeof g.name === 'string')
      .map((g) => ({ name: g.name, type: g.type === 'offline' ? 'offline' : 'hosted' }));
  }

  /** `result` of a 2xx answer (a bare array is accepted for the discovery routes), else throws. */
  private successResult(response: HttpJsonResponse, action?: string): unknown {
    if (response.status < 200 || response.status >= 300)
      throw errorFromResponse(response.status, response.body, action);
    if (response.body === undefined) throw protocolError(response);
    if (Array.isArray(response.body)) return response.body;
    const body = response.body as { success?: unknown; result?: unknown };
    if (body.success === false) throw errorFromResponse(response.status, response.body, action);
    return body.result;
  }

  private async send(
    method: 'GET' | 'POST',
    path: string,
    init: {
      body?: unknown;
      headers?: Record<string, string>;
      signal?: AbortSignal;
      retryStaleSocket: boolean;
      onRow?: (row: ResultRow) => void;
    },
  ): Promise<HttpJsonResponse> {
    let port = await this.currentPort();
    for (let attempt = 0; ; attempt++) {
      try {
        return await requestJson(method, `http://127.0.0.1:${port}${path}`, init);
      } catch (error) {
        if (error instanceof MalformedRowsError)
          throw protocolError({ status: 200, body: undefined, raw: '' });
        if (!(error instanceof HttpTransportError)) throw error;
        if (error.code === 'ABORT_ERR' || init.signal?.aborted) {
          throw LocalApiError.cancelled('The request to Roam was cancelled.');
        }
        if (attempt === 0 && error.code === 'ECONNREFUSED') {
          const fresh = await this.refreshPort();
          if (fresh !== port) {
            port = fresh;
            continue;
          }
        }
        // A kept-alive socket the server closed meanwhile: nothing was processed, a fresh one is safe.
        if (attempt === 0 && error.staleSocket && init.retryStaleSocket) continue;
        throw transportError(error, port);
      }
    }
  }
}

function isTokenLevel(level: unknown): level is TokenAccessLevel {
  return TOKEN_ACCESS_LEVELS.includes(level as TokenAccessLevel);
}

function levelFromScopes(scopes: unknown): TokenAccessLevel | undefined {
  if (!scopes || typeof scopes !== 'object') return undefined;
  const s = scopes as Record<string, unknown>;
  if (s.edit === true) return 'full';
  if (s.append === true) return 'read-append';
  if (s.read === true) return 'read-only';
  return undefined;
}

function protocolError(response: HttpJsonResponse): LocalApiError {
  return new LocalApiError({
    status: response.status,
    code: 'PROTOCOL_ERROR',
    kind: 'protocol',
    message: `Roam Desktop answered with something that is not the Local API's JSON (HTTP ${response.status}). Check that the port in ~/.roam-local-api.json belongs to Roam Desktop, then try again.`,
  });
}

/** A write whose answer we cannot read: Roam may have applied it, so a blind retry could repeat it. */
function unconfirmedWrite(response: HttpJsonResponse): LocalApiError {
  return new LocalApiError({
    status: response.status,
    code: 'WRITE_UNCONFIRMED',
    kind: 'protocol',
    message: `Roam Desktop answered the change with something that is not the Local API's JSON (HTTP ${response.status}), so it may or may not have been applied. Check with get_block or search before retrying, so the change is not made twice.`,
  });
}

function transportError(error: HttpTransportError, port: number): LocalApiError {
  if (error.code === 'ECONNREFUSED') {
    return new LocalApiError({
      status: 0,
      code: 'ECONNREFUSED',
      kind: 'not-running',
      message: `Roam Desktop is not running (nothing answers on port ${port}). Open Roam Desktop, then try again.`,
    });
  }
  return new LocalApiError({
    status: 0,
    code: error.code,
    kind: 'connection-lost',
    message: error.maybeDelivered
      ? `The connection to Roam Desktop broke before it answered (${error.code}). The request may or may not have been applied: check the graph before retrying a change.`
      : `Could not reach Roam Desktop (${error.code}). Check that it is running, then try again.`,
  });
}
