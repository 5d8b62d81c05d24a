/**
 * setup_new_graph's work (docs/mcp.md, Setting up a graph from a chat): the graphs Roam Desktop
 * offers, marked when this server has them; and adding one: a token request the user approves in
 * Roam Desktop, the graph kept where this server keeps its graphs (the tray's store, else the
 * config file, 0600 and under its lock), usable at once by its nickname. Never a token in a
 * result. A `--read-only` server, or a chat whose HTTP key is read-only, lists but does not add:
 * adding widens what agents reach (every chat's), which a read-only setup was chosen not to do.
 */
import { LocalApiError, tokenRequestRefusal, type GraphRef } from '../../src-shared/local-api/index.ts';
import {
  ACCESS_LEVELS,
  DEFAULT_ACCESS_LEVEL,
  findGraph,
  narrowestAccess,
  type AccessLevel,
  type ConfiguredGraph,
  type GraphEntry,
  entryGraphId,
} from '../../src-shared/roam-config.ts';
import { graphId, sameGraph } from '../../src-shared/constants.ts';
import { nicknameProblem } from '../../src-shared/graph-identity.ts';
import { readConfigDocument, upsertGraph } from '../config/config-edit.ts';
import { saveTokenToFile } from '../config/config-file.ts';
import { assertConfigWritable, ConfigNotWritableError } from '../config/config-write.ts';
import {
  GRAPH_SWITCHED_OFF,
  graphsRefuseSetup,
  keyRefusesSetup,
  switchedOffError,
} from '../access/refusals.ts';
import type { SessionContext } from '../contract/tool-definition.ts';
import { tokenRequestCode, ToolError, type ToolErrorCode } from '../contract/tool-errors.ts';

const MAX_LISTED = 200;

/** What Roam Desktop offers, each marked with the nickname this server knows it by. */
async function available(scope: SessionContext): Promise<GraphRef[]> {
  return scope.gateway.connection.client.graphsAvailable({ signal: scope.signal });
}

export async function listAvailable(scope: SessionContext) {
  const limited = graphsRefuseSetup();
  if (limited) throw limited;
  const session = scope.gateway.session;
  const graphs = (await available(scope)).map((g) => {
    const known = session.list().find((c) => sameGraph(c, g));
    const off = known ? undefined : session.listSwitchedOff().find((c) => c.name === g.name);
    return {
      name: g.name,
      ...(g.type === 'offline' ? { type: g.type } : {}),
      connected: !!known,
      ...(known ? { nickname: known.nickname } : {}),
      ...(off ? { nickname: off.nickname, switched_off: true } : {}),
    };
  });
  return {
    graphs: graphs.slice(0, MAX_LISTED),
    ...(graphs.length > MAX_LISTED ? { more: graphs.length - MAX_LISTED } : {}),
    next_step:
      graphs.length === 0
        ? 'Roam Desktop offers no graph: the user signs in to Roam Desktop, then call setup_new_graph again.'
        : 'Ask the user which graph and what to call it, then call setup_new_graph with graph and nickname; they approve the request in Roam Desktop.',
  };
}

function refuse(code: ToolErrorCode, message: string): never {
  throw new ToolError(code, message, { suggested_next_tool: 'list_graphs' });
}

export async function addGraph(scope: SessionContext, name: string, nickname: string) {
  const { gateway } = scope;
  const session = gateway.session;
  const keyRefusal = keyRefusesSetup();
  if (keyRefusal) throw keyRefusal;
  if (session.readOnly) {
    refuse(
      'ACCESS_LEVEL',
      "This roam-mcp runs with --read-only, so it does not add graphs. The user can add it with 'roam-mcp connect' in a terminal (or in Roam Companion).",
    );
  }
  const problem = nicknameProblem(nickname);
  if (problem)
    throw new ToolError('INVALID_PARAMS', `The nickname '${nickname}' ${problem}.`, { field: 'nickname' });
  const offered = await available(scope);
  const ref = offered.find((g) => g.name === name);
  if (!ref) {
    throw new ToolError(
      'GRAPH_NOT_FOUND',
      `Roam Desktop has no graph named '${name}'. Call setup_new_graph without arguments to see the graphs it has.`,
      { available_graphs: offered.slice(0, 50).map((g) => g.name), suggested_next_tool: 'setup_new_graph' },
    );
  }
  const existing = session.list().find((g) => sameGraph(g, ref));
  if (!existing) refuseSwitchedOff(scope, ref.name);
  if (existing) {
    return {
      graph_name: existing.name,
      nickname: existing.nickname,
      already_configured: true,
      next_step: `Nothing changed. Call select_graph with graph '${existing.nickname}'.`,
    };
  }
  const where = scope.gateway.tokens.destination();
  // The file may have changed since this server read it: the person's entry there decides.
  const inFile = where.kind === 'file' ? await fileEntry(where.path, ref) : undefined;
  if (where.kind === 'file' && inFile?.disabled) {
    throw switchedOffError({ name: ref.name, nickname: inFile.nickname ?? ref.name }, where);
  }
  const chosen = inFile?.nickname ?? nickname;
  const clash = findGraph(session.list(), chosen);
  if (clash) {
    throw new ToolError(
      'INVALID_PARAMS',
      `The nickname '${chosen}' is already used by graph '${clash.name}'. Ask the user for another nickname. Nothing was requested.`,
      { field: 'nickname' },
    );
  }
  const level = inFile?.accessLevel ?? DEFAULT_ACCESS_LEVEL;
  await checkDestination(where, { name: ref.name, type: ref.type, nickname: chosen });
  const grant = await requestToken(scope, ref, chosen, level);
  const saved = await keep(scope, where, { name: ref.name, type: ref.type, nickname: chosen }, grant);
  gateway.addGraph(saved.graph, grant.token, grant.grantedAccessLevel);
  return {
    graph_name: saved.graph.name,
    nickname: saved.graph.nickname,
    access_level: saved.graph.accessLevel,
    saved_to: saved.to,
    ...(chosen !== nickname
      ? { note: `The config file already names this graph '${chosen}': that nickname is kept.` }
      : {}),
    next_step: `Call select_graph with graph '${saved.graph.nickname}' to read its guidelines.`,
  };
}

/** The graph's entry in the config file as it is now (nickname, level, switched off), if any. */
async function fileEntry(file: string, ref: GraphRef) {
  let graphs: readonly GraphEntry[];
  try {
    graphs = (await readConfigDocument(file)).graphs as unknown as GraphEntry[];
  } catch (error) {
    refuse('CONFIG_INVALID', `Cannot add the graph: ${(error as Error).message} Nothing was requested.`);
  }
  const entry = graphs.find((g) => entryGraphId(g) === graphId(ref));
  if (!entry) return undefined;
  return {
    nickname: typeof entry.nickname === 'string' && entry.nickname ? entry.nickname : undefined,
    accessLevel: ACCESS_LEVELS.includes(entry.accessLevel as AccessLevel)
      ? (entry.accessLevel as AccessLevel)
      : undefined,
    disabled: entry.disabled === true,
  };
}

/** A graph the user switched off is switched on by the user, not set up again by an agent. */
function refuseSwitchedOff(scope: SessionContext, name: string): void {
  try {
    scope.gateway.session.resolve(name);
  } catch (error) {
    if (error instanceof ToolError && error.code === GRAPH_SWITCHED_OFF) throw error;
  }
}

type Destination = { kind: 'tray' } | { kind: 'file'; path: string };

/** Before the dialog in Roam: the graph can be kept, and its nickname is free there too. */
async function checkDestination(
  where: Destination | { kind: 'none'; reason: string },
  graph: { name: string; type: GraphRef['type']; nickname: string },
): Promise<void> {
  if (where.kind === 'none') {
    refuse(
      'CONFIG_NOT_WRITABLE',
      `Cannot add a graph: ${where.reason}. The user can add it with 'roam-mcp connect' in a terminal.`,
    );
  }
  if (where.kind === 'file') {
    try {
      await assertConfigWritable(where.path);
      upsertGraph(await readConfigDocument(where.path), graph);
    } catch (error) {
      const why = error instanceof ConfigNotWritableError ? error.message : (error as Error).message;
      refuse('CONFIG_NOT_WRITABLE', `Cannot add the graph to ${where.path}: ${why} Nothing was requested.`);
    }
  }
}

async function requestToken(scope: SessionContext, ref: GraphRef, nickname: string, level: AccessLevel) {
  const { gateway } = scope;
  scope.progress(
    `Asking Roam Desktop for access to '${ref.name}': the user approves the request in Roam (it waits up to 5 minutes).`,
  );
  try {
    return await gateway.connection.whenRunning(
      ref,
      () =>
        gateway.connection.client.requestToken(
          {
            graph: ref.name,
            graphType: ref.type,
            description: `roam-mcp (${nickname})`,
            accessLevel: level,
          },
          { signal: scope.signal },
        ),
      scope,
    );
  } catch (error) {
    if (!(error instanceof LocalApiError && error.kind === 'exchange')) throw error;
    const askAgain = tokenRequestRefusal(error.code)?.askAgain;
    throw new ToolError(tokenRequestCode(error), `Graph '${ref.name}' was not added: ${error.message}`, {
      retryable: askAgain === undefined || askAgain === 'anyone',
      ...(askAgain === 'anyone' ? { suggested_next_tool: 'setup_new_graph' } : {}),
    });
  }
}

/**
 * Keeps the graph and its token; says where, never the token. What the session gets is what the
 * config then says (the person's level in the file stays when narrower than the grant).
 */
async function keep(
  scope: SessionContext,
  where: Destination | { kind: 'none'; reason: string },
  named: { name: string; type: GraphRef['type']; nickname: string },
  grant: { token: string; grantedAccessLevel: NonNullable<ConfiguredGraph['grantedAccessLevel']> },
): Promise<{ graph: ConfiguredGraph; to: string }> {
  const { gateway } = scope;
  if (where.kind === 'file') {
    await saveTokenToFile(where.path, named, grant.token, grant.grantedAccessLevel);
    // A server that started without a config file now has one: later tokens go there too.
    gateway.session.source = { kind: 'file', path: where.path };
    const now = await fileEntry(where.path, named);
    const graph: ConfiguredGraph = {
      ...named,
      nickname: now?.nickname ?? named.nickname,
      accessLevel: narrowestAccess([now?.accessLevel, grant.grantedAccessLevel]),
      grantedAccessLevel: grant.grantedAccessLevel,
    };
    return { graph, to: where.path };
  }
  const graph: ConfiguredGraph = {
    ...named,
    accessLevel: narrowestAccess([DEFAULT_ACCESS_LEVEL, grant.grantedAccessLevel]),
    grantedAccessLevel: grant.grantedAccessLevel,
  };
  await gateway.tokens.saved(graph, grant.token, grant.grantedAccessLevel);
  return { graph, to: 'Roam Companion (encrypted)' };
}
