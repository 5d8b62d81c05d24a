/**
 * Where a token obtained by exchange goes (docs/mcp.md, Token exchange): back into the config file it came
 * from (atomic, locked, mode and everything else preserved; refused when the file is not ours to
 * rewrite), to the tray over IPC, or, for env-var config, nowhere but this process's memory. Returns a sentence saying which, without the token.
 */
import type { AccessLevel, GraphType, TokenAccessLevel } from '../../src-shared/roam-config.ts';
import { readStoredToken, saveTokenToFile } from '../config/config-file.ts';
import { ConfigNotWritableError } from '../config/config-write.ts';
import type { ConfigSource } from '../config/load-config.ts';
import type { ParentChannel } from '../contract/parent-channel.ts';

export interface TokenStore {
  saved(
    graph: { name: string; type: GraphType; nickname: string },
    token: string,
    granted: TokenAccessLevel,
  ): Promise<string>;
  /**
   * Where a graph set up in this session (setup_new_graph) is kept: the tray's store, a config
   * file (the one in use, else the first searched, ~/.roam-tools.json), or nowhere, with why.
   */
  destination(): { kind: 'tray' } | { kind: 'file'; path: string } | { kind: 'none'; reason: string };
  /** Roam answered 401 for this graph's token. */
  rejected(graph: { name: string; type: GraphType }): void;
  /** A token the config source holds now for the graph (stored meanwhile by another process). */
  stored(graph: {
    name: string;
    type: GraphType;
  }): Promise<{ token: string; accessLevel?: AccessLevel } | undefined>;
}

export function tokenStoreFor(source: () => ConfigSource, parent: ParentChannel | undefined): TokenStore {
  return {
    async saved(graph, token, granted) {
      const from = source();
      if (parent) {
        parent.send({
          type: 'token-obtained',
          graph: { name: graph.name, type: graph.type, nickname: graph.nickname },
          token,
          grantedAccessLevel: granted,
        });
        return 'The token was handed to Roam Companion, which stores it encrypted.';
      }
      if (from.kind === 'file') {
        try {
          await saveTokenToFile(from.path, graph, token, granted);
        } catch (error) {
          if (!(error instanceof ConfigNotWritableError)) throw error;
          return notSavedNotice(error, graph);
        }
        return `The token was saved to ${from.path}.`;
      }
      return (
        'The token is kept in memory for this session only, because the graph comes from environment variables. ' +
        "To keep access across restarts, run 'roam-mcp connect' to store a token in ~/.roam-tools.json."
      );
    },
    destination() {
      if (parent) return { kind: 'tray' };
      const from = source();
      if (from.kind === 'file') return { kind: 'file', path: from.path };
      if (from.kind === 'none' && from.searched[0]) return { kind: 'file', path: from.searched[0] };
      return {
        kind: 'none',
        reason:
          from.kind === 'env'
            ? 'this roam-mcp takes its graph from environment variables (ROAM_GRAPH, ROAM_API_TOKEN), so it keeps no graph list'
            : 'this roam-mcp has no config file to keep graphs in',
      };
    },
    async stored(graph) {
      const from = source();
      // Under the tray, new tokens arrive as config messages; env vars never change.
      return !parent && from.kind === 'file' ? readStoredToken(from.path, graph) : undefined;
    },
    rejected(graph) {
      parent?.send({ type: 'token-rejected', graph: { name: graph.name, type: graph.type } });
    },
  };
}

/** Why the token stays in memory, and exactly how to keep access next time (never the token). */
function notSavedNotice(error: ConfigNotWritableError, graph: { name: string; type: GraphType }): string {
  const connect = `roam-mcp connect --graph ${JSON.stringify(graph.name)}${graph.type === 'offline' ? ' --type offline' : ''}`;
  return (
    `The token was NOT saved and is kept in memory for this session only: ${error.reason} ` +
    `To keep access after a restart: ${error.fix}, then run '${connect}' in a terminal (or restart the MCP client, which asks Roam again).`
  );
}
