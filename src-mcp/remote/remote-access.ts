/**
 * Remote access as the person at the machine sees it: the sign-ins waiting for an answer, the
 * connections, the switch. `roam-mcp remote` and the tray's Settings > Remote access both use
 * this; nothing here is reachable through the tunnel (the listener has no such route), so an
 * approval can come only from someone who can write this machine's data folder.
 */
import { ACCESS_LEVELS, graphId, type AccessLevel, type GraphType } from '../../src-shared/constants.ts';
import { findGraph } from '../../src-shared/roam-config.ts';
import { parseToolsets } from '../../src-shared/toolsets.ts';
import { tidy } from './grants.ts';
import {
  RemoteStore,
  RemoteStoreError,
  type Decision,
  type Grant,
  type RemoteAt,
  type ServedAt,
  type WaitingRequest,
} from './remote-store.ts';

/** A sign-in waiting at the machine, as it is shown: never its secrets. */
export interface RequestInfo {
  id: string;
  /** The code the sign-in page shows: the person matches them. */
  code: string;
  clientName: string;
  /** false: the name is the client's own claim (registered); true: its https metadata address vouches for it. */
  verified: boolean;
  /** Where the answer goes: shown prominently (a matching code does not stop phishing by link). */
  redirectHost: string;
  redirectUri: string;
  scopes: string[];
  createdAt: string;
  expiresAt: string;
  status: WaitingRequest['status'];
  /** After approval: the graphIds its chats may reach (absent: every graph). */
  graphs?: string[];
}

/** A connection, as it is shown: never a token or its hash. */
export interface ConnectionInfo {
  id: string;
  clientName: string;
  verified: boolean;
  redirectHost: string;
  /** The public URL's MCP endpoint its tokens are for. */
  resource: string;
  level?: AccessLevel;
  toolsets?: string[];
  /** The graphIds its chats may reach (absent: every graph). */
  graphs?: string[];
  createdAt: string;
  usedAt?: string;
}

export interface RemoteStatus {
  enabled: boolean;
  /** Where a server serves remote access now, if one does (its process is alive). */
  served?: ServedAt;
  waiting: number;
  connections: number;
}

/** A process of this user with that id is running. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const requestInfo = (r: WaitingRequest): RequestInfo => ({
  id: r.id,
  code: r.code,
  clientName: r.clientName,
  verified: r.verified,
  redirectHost: new URL(r.redirectUri).host,
  redirectUri: r.redirectUri,
  scopes: r.scopes,
  createdAt: r.createdAt,
  expiresAt: r.expiresAt,
  status: r.status,
  ...(r.decision?.graphs ? { graphs: r.decision.graphs } : {}),
});

const connectionInfo = (g: Grant): ConnectionInfo => ({
  id: g.id,
  clientName: g.clientName,
  verified: g.verified,
  redirectHost: new URL(g.redirectUri).host,
  resource: g.resource,
  ...(g.decision.level ? { level: g.decision.level } : {}),
  ...(g.decision.toolsets ? { toolsets: g.decision.toolsets } : {}),
  ...(g.decision.graphs ? { graphs: g.decision.graphs } : {}),
  createdAt: g.createdAt,
  ...(g.usedAt ? { usedAt: g.usedAt } : {}),
});

/** A configured graph, as an approval names it. */
export interface GraphChoice {
  name: string;
  type?: GraphType;
  nickname: string;
}

/**
 * `graphs` (nicknames or names, comma-separated) as the graphIds of `configured`: ids, so a
 * nickname changed later still means the graph the person chose.
 */
function graphIdsOf(graphs: string, configured: readonly GraphChoice[]): string[] {
  const known = configured.map((g) => g.nickname).join(', ') || 'none';
  const names = graphs
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  if (names.length === 0)
    throw new RemoteStoreError(`--graphs names no graph. Name one or more of: ${known} (comma-separated).`);
  const ids = names.map((name) => {
    const graph = findGraph(configured, name);
    if (!graph)
      throw new RemoteStoreError(
        `No configured graph is called '${name}'. Name one or more of: ${known} (nickname or name, comma-separated). Nothing was answered.`,
      );
    return graphId(graph);
  });
  return [...new Set(ids)];
}

/** Graph ids as a window sends them (its checkboxes), each one a configured graph's. */
function knownIds(ids: readonly string[], configured: readonly GraphChoice[]): string[] {
  const known = configured.map((g) => g.nickname).join(', ') || 'none';
  if (ids.length === 0) throw new RemoteStoreError(`Choose at least one graph (of: ${known}).`);
  const gone = ids.find((id) => !configured.some((g) => graphId(g) === id));
  if (gone !== undefined)
    throw new RemoteStoreError(
      `A graph chosen is no longer configured (${gone}). Choose among: ${known}. Nothing was answered.`,
    );
  return [...new Set(ids)];
}

/**
 * What the person chose, checked: a level of ACCESS_LEVELS, toolsets as `--tools` takes them,
 * graphs among `configured` (the graphs this machine serves).
 */
export function decisionOf(
  choice: { level?: string; tools?: string; graphs?: string; graphIds?: readonly string[] },
  configured: readonly GraphChoice[] = [],
): Decision {
  if (choice.level !== undefined && !(ACCESS_LEVELS as readonly string[]).includes(choice.level))
    throw new RemoteStoreError(
      `'${choice.level}' is not an access level. Use one of: ${ACCESS_LEVELS.join(', ')}.`,
    );
  const toolsets = choice.tools === undefined ? undefined : parseToolsets(choice.tools, '--tools');
  if (toolsets && 'error' in toolsets) throw new RemoteStoreError(toolsets.error);
  const graphs =
    choice.graphIds !== undefined
      ? knownIds(choice.graphIds, configured)
      : choice.graphs === undefined
        ? undefined
        : graphIdsOf(choice.graphs, configured);
  return {
    ...(choice.level ? { level: choice.level as AccessLevel } : {}),
    ...(toolsets ? { toolsets: toolsets.sets } : {}),
    ...(graphs ? { graphs } : {}),
  };
}

export class RemoteAccess {
  private readonly store: RemoteStore;

  constructor(
    where: RemoteAt = {},
    private readonly now: () => number = Date.now,
  ) {
    this.store = new RemoteStore(where);
  }

  get file(): string {
    return this.store.file;
  }

  async status(): Promise<RemoteStatus> {
    const state = await this.store.read();
    const now = this.now();
    return {
      enabled: state.enabled,
      ...(state.served && isAlive(state.served.pid) ? { served: state.served } : {}),
      waiting: state.requests.filter((r) => r.status === 'waiting' && Date.parse(r.expiresAt) > now).length,
      connections: state.grants.length,
    };
  }

  /** The sign-ins waiting for an answer, oldest first. */
  async requests(): Promise<RequestInfo[]> {
    const now = this.now();
    return (await this.store.read()).requests
      .filter((r) => r.status === 'waiting' && Date.parse(r.expiresAt) > now)
      .map(requestInfo);
  }

  async approve(id: string, decision: Decision = {}): Promise<RequestInfo> {
    return this.answer(id, 'approved', decision);
  }

  async deny(id: string): Promise<RequestInfo> {
    return this.answer(id, 'denied');
  }

  private async answer(id: string, status: 'approved' | 'denied', decision?: Decision): Promise<RequestInfo> {
    const now = this.now();
    return this.store.update((state) => {
      tidy(state, now);
      const request = state.requests.find((r) => r.id === id);
      if (!request)
        throw new RemoteStoreError(
          `No sign-in '${id}' is waiting (it expired after 10 minutes, or was answered). List them with roam-mcp remote requests.`,
        );
      if (request.status !== 'waiting')
        throw new RemoteStoreError(`The sign-in '${id}' was answered already (${request.status}).`);
      request.status = status;
      if (decision) request.decision = decision;
      return requestInfo(request);
    });
  }

  async connections(): Promise<ConnectionInfo[]> {
    return (await this.store.read()).grants.map(connectionInfo);
  }

  /** Ends the connection: its tokens stop at the next request, its open streams at once. */
  async revoke(id: string): Promise<boolean> {
    return this.store.update((state) => {
      const before = state.grants.length;
      state.grants = state.grants.filter((g) => g.id !== id);
      return state.grants.length < before;
    });
  }

  /** The switch: off refuses everything through the tunnel and ends the connections' streams. */
  async setEnabled(enabled: boolean): Promise<void> {
    await this.store.update((state) => {
      state.enabled = enabled;
    });
  }
}
