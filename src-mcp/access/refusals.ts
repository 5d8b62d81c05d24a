/**
 * The errors of access enforcement (docs/mcp.md, Access levels). Each says which setting refused
 * and how the user changes it: the tray's Graphs view, the config file (or `roam-mcp connect`),
 * ROAM_ACCESS_LEVEL, or --read-only in the MCP client's config. Never the token.
 */
import type { AccessLevel, ConfiguredGraph, SwitchedOffGraph } from '../../src-shared/roam-config.ts';
import type { ConfigSource } from '../config/load-config.ts';
import { currentScope } from '../contract/chat-scope.ts';
import type { EffectiveAccess } from './effective.ts';
import { ToolError } from '../contract/tool-errors.ts';

/** The error code when the chosen level or --read-only refused a call. */
export const ACCESS_LEVEL = 'ACCESS_LEVEL';
/** The error code when the named graph is in the config but switched off. */
export const GRAPH_SWITCHED_OFF = 'GRAPH_SWITCHED_OFF';

const MEANING: Record<AccessLevel, string> = {
  'read-only': 'agents may only read it',
  'read-append': 'agents may read it and add to it, but not edit, move or delete anything',
  'read-edit-own':
    'agents may read it and add to it, and edit, move or delete only blocks and pages an agent created',
  full: 'agents may read, add, edit, move and delete',
};

/**
 * The HTTP key of this chat when its cap is the level `chosen` (the graph's own level is not
 * narrower): the key, not the graph's setting, is what refuses.
 */
export function keyThatCaps(
  chosen: AccessLevel | undefined,
): { name: string; level: AccessLevel } | undefined {
  const { keyName, accessCap } = currentScope();
  return keyName && accessCap && chosen === accessCap ? { name: keyName, level: accessCap } : undefined;
}

/** How the user lets a client whose key is capped do more. */
export function keyHow(name: string): string {
  return `To allow it, the user gives this client a key with more access ('roam-mcp key create NAME --access LEVEL', or Roam Companion > AI clients), puts it in the client's config in place of key '${name}', then revokes '${name}' ('roam-mcp key revoke ${name}').`;
}

/** Where the chosen level is set (the chat's key, else the graph's setting), and how to change it. */
export function levelSetting(
  graph: { name: string; nickname: string },
  source: ConfigSource,
  level?: AccessLevel,
): { setting: string; how: string } {
  const key = keyThatCaps(level);
  if (key) return { setting: `key '${key.name}' (--access ${key.level})`, how: keyHow(key.name) };
  switch (source.kind) {
    case 'ipc':
      return {
        setting: 'Roam Companion > Graphs > access level',
        how: `To allow it, the user changes the access level of '${graph.nickname}' in Roam Companion > Graphs.`,
      };
    case 'env':
      return {
        setting: 'ROAM_ACCESS_LEVEL',
        how: "To allow it, the user changes ROAM_ACCESS_LEVEL in the MCP client's config, then restarts the MCP client.",
      };
    case 'file':
    case 'none': {
      const file = source.kind === 'file' ? source.path : '~/.roam-tools.json';
      return {
        setting: `accessLevel in ${file}`,
        how: `To allow it, the user changes "accessLevel" of graph '${graph.name}' in ${file} (or runs 'roam-mcp connect --graph ${JSON.stringify(graph.name)} --access-level full'), then restarts the MCP client.`,
      };
    }
  }
}

export function readOnlyFlagRefusal(toolName: string): ToolError {
  return new ToolError(
    ACCESS_LEVEL,
    `${toolName} changes the graph, but this roam-mcp runs with --read-only: agents may only read. Nothing was changed. To allow changes, the user removes --read-only from the MCP client's config and restarts the MCP client.`,
    { setting: '--read-only', access_level: 'read-only' },
  );
}

/** The chosen level of `graph` refuses `what` (e.g. "update_block edits existing content"). */
export function levelRefusal(
  what: string,
  graph: { name: string; nickname: string },
  level: AccessLevel,
  source: ConfigSource,
  extra: Record<string, unknown> = {},
): ToolError {
  const { setting, how } = levelSetting(graph, source, level);
  const capped = keyThatCaps(level)
    ? `this client's key caps graph '${graph.nickname}' at ${level}`
    : `graph '${graph.nickname}' is set to ${level}`;
  return new ToolError(
    ACCESS_LEVEL,
    `${what}, but ${capped} (${setting}): ${MEANING[level]}. Nothing was changed. ${how}`,
    { graph: graph.nickname, setting, access_level: level, ...extra },
  );
}

export function switchedOffError(graph: SwitchedOffGraph, source: ConfigSource): ToolError {
  const how =
    source.kind === 'ipc'
      ? 'in Roam Companion; switch it on in Roam Companion > Graphs, then try again.'
      : source.kind === 'file'
        ? `in ${source.path} ("disabled": true); to use it, the user runs 'roam-mcp connect --enable ${JSON.stringify(graph.nickname)}' (or removes "disabled" from its entry), then restarts the MCP client.`
        : 'in the config; switch it on there, then restart the MCP client.';
  return new ToolError(GRAPH_SWITCHED_OFF, `Graph '${graph.nickname}' is switched off ${how}`, {
    graph: graph.nickname,
  });
}

/**
 * Why a write tool is hidden and refused when every graph is read-only: the user's setting
 * (ACCESS_LEVEL) or, when only the tokens are read-only, the tokens (INSUFFICIENT_SCOPE).
 */
/** What the refusal reads of the graph session (graph-session.ts imports this file). */
interface SessionView {
  list(): readonly ConfiguredGraph[];
  access(graph: ConfiguredGraph): EffectiveAccess;
  readonly source: ConfigSource;
}

export function everyGraphReadOnlyRefusal(toolName: string, session: SessionView): ToolError {
  const graphs = session.list();
  const byUser = graphs.filter((g) => session.access(g).decidedBy === 'chosen');
  if (byUser.length === 0) {
    return new ToolError(
      'INSUFFICIENT_SCOPE',
      `${toolName} changes the graph, but every configured graph has a read-only token. Get a token with more access ('roam-mcp connect', or Roam: Settings > Graph > Local API Tokens), then restart the MCP client.`,
    );
  }
  const first = byUser[0] as ConfiguredGraph;
  if (graphs.length === 1) {
    return levelRefusal(`${toolName} changes the graph`, first, 'read-only', session.source);
  }
  const { setting, how } = levelSetting(first, session.source, 'read-only');
  return new ToolError(
    ACCESS_LEVEL,
    `${toolName} changes the graph, but every configured graph is read-only (${setting}: ${byUser.map((g) => `'${g.nickname}'`).join(', ')}). Nothing was changed. ${how}`,
    { setting, access_level: 'read-only' },
  );
}

/** setup_new_graph under a chat that may reach only some graphs: Roam Desktop's list would name the others. */
export function graphsRefuseSetup(): ToolError | undefined {
  if (!currentScope().graphs) return undefined;
  return new ToolError(
    ACCESS_LEVEL,
    'setup_new_graph is not available in this chat: its connection reaches only the graphs the person chose when approving it. Nothing was changed. The person can add a graph in Roam Companion or with roam-mcp connect, then approve a new connection that includes it.',
  );
}

/** setup_new_graph under a chat whose key is read-only: adding a graph changes the person's setup. */
export function keyRefusesSetup(): ToolError | undefined {
  const limited = graphsRefuseSetup();
  if (limited) return limited;
  const { keyName, accessCap } = currentScope();
  if (!keyName || accessCap !== 'read-only') return undefined;
  return new ToolError(
    ACCESS_LEVEL,
    `setup_new_graph adds a graph to the person's setup, but this client's key '${keyName}' is read-only (--access read-only): its chats may only read. Nothing was changed. ${keyHow(keyName)}`,
    { setting: `key '${keyName}' (--access read-only)`, access_level: 'read-only' },
  );
}

/** What a write tool does, in a refusal: its kind of write, unless it is special. */
export function whatItDoes(tool: { name: string; writes?: 'append' | 'edit' }): string {
  if (tool.name === 'reload_dev_extensions')
    return 'reload_dev_extensions runs extension code, which can change anything';
  return tool.writes === 'append'
    ? `${tool.name} adds to the graph`
    : `${tool.name} edits, moves or deletes existing content`;
}
