/**
 * The contract of the Roam Local API emulator, as Roam Desktop serves the API: a real HTTP server on 127.0.0.1
 * backed by DataScript, used by every test, benchmark and the demo. `startEmulator` lives in
 * ./index.ts.
 */
import type { AccessLevel, GraphType } from '../../src-shared/roam-config.ts';

/** A page for hand-written graphs: nested blocks as strings or {string, children}. */
export interface PageSpec {
  title: string;
  uid?: string;
  /** A daily note page: `:log/id` set, title like "November 22nd, 2026", uid "11-22-2026". */
  daily?: boolean;
  children?: BlockSpec[];
  /** Position in the left sidebar's Shortcuts (0 first); absent = not a shortcut. */
  sidebar?: number;
}
export type BlockSpec =
  string | { string: string; uid?: string; heading?: 1 | 2 | 3; children?: BlockSpec[] };

export interface GraphSpec {
  name: string;
  type?: GraphType;
  /** Tokens that authenticate against this graph (minted with `addToken` later too). */
  tokens?: Array<{ token: string; accessLevel: AccessLevel; ai?: boolean }>;
  /** 'demo' = the hand-written demo graph; generate = deterministic power-law graph. Default 'empty'. */
  content?: 'demo' | 'empty' | { generate: { blocks: number; seed?: number } } | PageSpec[];
  /** The logged-in user's permission on the graph (SCOPE_EXCEEDS_PERMISSION when a token exceeds it). */
  userPermission?: AccessLevel;
  /**
   * A public graph the user is not a member of (e.g. Roam's `help`): Roam Desktop can open it and
   * grant read-only tokens, but does not list it in /api/graphs/available (the official `connect`
   * adds it by name with `--public`). Implies `userPermission: 'read-only'`.
   */
  public?: boolean;
  /**
   * An older Roam build: these actions answer 404 UNKNOWN_ACTION on this graph, as builds that
   * predate them do (Roam's builds gained actions over time).
   */
  missingActions?: string[];
  /**
   * An older Roam build's result shapes: deletes answer null
   * with no deletion report (a missing uid is an error), getGraphGuidelines a markdown string or
   * null. Default false: current Roam.
   */
  olderShapes?: boolean;
  /**
   * How `data.ai.*` markdown writes a block reference (local-api-actions.md §13): `alias`, the
   * older format `[text](((uid)))` (default), or `ref-tag`, builds with relemma PR #2659:
   * `((uid))<ref>preview</ref>`, nested references in the preview without their uid.
   */
  refPreviews?: 'alias' | 'ref-tag';
  /**
   * Display names getGraphGuidelines reports (`humanUserDisplayName`, `aiUserDisplayName`); `ai`
   * is also the author of agent comments.
   */
  displayNames?: { human?: string; ai?: string };
  /** Comments by others (humans), for get_comments: on block `block`, written at `createdTime`. */
  comments?: CommentSpec[];
  /** Tools extensions registered for AI (listed in getGraphGuidelines, run by callExtensionTool). */
  extensionTools?: ExtensionToolSpec[];
  /** Developer-mode extensions `depot.reloadDeveloperExtensions` reloads. */
  developerExtensions?: Array<{ id: string; name: string }>;
}

export interface CommentSpec {
  block: string;
  author: string;
  /** ISO 8601. */
  createdTime: string;
  text: string;
}

/** An extension's AI tool, with what its handler does. */
export interface ExtensionToolSpec {
  /** Opaque id: `<extension-id>/<name>`, or a bare name for roam/js tools. */
  tool: string;
  description: string;
  scope: 'read' | 'append' | 'edit';
  extension?: string;
  /** JSON Schema (draft-07) the renderer checks `args` against. */
  inputSchema?: Record<string, unknown>;
  /** The handler's JSON result. */
  result?: unknown;
  /** The handler throws this message instead. */
  fails?: string;
}

/** Roam Desktop's UI; tests set and read it through `EmulatedGraph.ui`. */
export interface UiState {
  mainView: { type: string; uid?: string; title?: string; 'block-string'?: string } | null;
  sidebar: Array<Record<string, unknown>>;
  focused: { 'block-uid': string; 'window-id': string } | null;
  /** Uids of the multi-selected blocks. */
  selected: string[];
}

export interface EmulatorOptions {
  /** HOME under which `.roam-local-api.json` ({"port": N}) is written. */
  home: string;
  /** 0 or undefined: an ephemeral port. */
  port?: number;
  graphs: GraphSpec[];
  /** How long a token request waits for the user before 408 TIMEOUT (Roam: 5 minutes). */
  tokenRequestTimeoutMs?: number;
  /**
   * Reported as `apiVersion` on every answer (default "1.1.5"); an `expectedApiVersion` whose
   * major.minor differs gives 400 VERSION_MISMATCH (the patch is ignored, as Roam does).
   */
  apiVersion?: string;
  /** Offer `data.ai.semanticSearch` (lexical-vector similarity). Default false: UNKNOWN_ACTION. */
  semanticSearch?: boolean;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body: unknown;
  /** For `POST /api/{graph}`: the graph and action. */
  graph?: string;
  action?: string;
  status?: number;
}

/** The user's answer to a token-request dialog. */
export type TokenDecision =
  | { kind: 'approve'; accessLevel?: AccessLevel /* lower than requested = downgrade */ }
  | { kind: 'reject' }
  | { kind: 'never-allow' }
  | { kind: 'no-answer' /* let it run into TIMEOUT */ };

export type Fault =
  | { kind: 'latency'; ms: number }
  | { kind: 'drop' /* destroy the socket without a response */ }
  | { kind: 'status'; status: 500 | 504 }
  | { kind: 'malformed-json' };

export interface PendingTokenRequest {
  graph: string;
  graphType: GraphType;
  accessLevel: AccessLevel;
  description: string;
}

export interface Emulator {
  readonly port: number;
  /** `http://127.0.0.1:{port}` */
  readonly url: string;
  readonly requests: RecordedRequest[];
  clearRequests(): void;
  /**
   * Mints a new valid token for the graph and returns it; `ai: true` = requested with `ai: true`,
   * so its writes are attributed to the graph's AI user (as roam-mcp's token requests are).
   */
  addToken(graph: string, type: GraphType, accessLevel: AccessLevel, options?: { ai?: boolean }): string;
  revokeToken(token: string): void;
  setUserPermission(graph: string, type: GraphType, level: AccessLevel): void;
  /** Simulates a corrupted local-api-tokens.edn (500 on authenticated calls). */
  setTokenFileCorrupted(corrupted: boolean): void;
  /** Answers the pending token request for that graph, or the next one if none is pending yet. */
  decide(graph: string, decision: TokenDecision, type?: GraphType): void;
  /** Default answer for every request (after `delayMs`), e.g. for the demo; null = wait for `decide`. */
  autoDecide(decision: TokenDecision | null, delayMs?: number): void;
  pendingTokenRequests(): PendingTokenRequest[];
  /** Clears a "Never Allow" (what the user does in Roam's settings). */
  unblock(graph: string, type?: GraphType): void;
  /** Applies to matching requests (all when `match` is omitted) `times` times (default: until cleared). */
  setFault(fault: Fault | null, options?: { action?: string; times?: number }): void;
  /** Roam quits: the port closes (the port file stays, as after a crash). */
  stop(): Promise<void>;
  /** Roam starts again, on `port` or a new ephemeral one, and rewrites the port file. */
  start(port?: number): Promise<void>;
  /** Direct database access, for edits "made by another client" and for assertions. */
  graph(name: string, type?: GraphType): EmulatedGraph;
  close(): Promise<void>;
}

/** Runs an action exactly as `POST /api/{graph}` would (no auth, no recording). */
export interface ActionRunner {
  run(action: string, args?: unknown[]): unknown;
}

export interface EmulatedGraph extends ActionRunner {
  /**
   * `run` writes as the signed-in person (`:user/uid` "human-user-uid", named by
   * `displayNames.human`, default "Roam User"): "a person's edit". `asPerson('Bea')` writes as
   * another person (user uid "person-Bea", display name "Bea"); `asAgent()` as the AI user
   * ("ai-user-uid"), like a token requested with `ai: true`. Every write is stamped with a
   * strictly newer `:edit/time`.
   */
  asPerson(displayName?: string): ActionRunner;
  asAgent(): ActionRunner;
  /** Number of blocks (entities with :block/string) and pages (with :node/title). */
  counts(): { pages: number; blocks: number };
  /** The live desktop UI state of this graph's window: tests may change it. */
  ui: UiState;
}
