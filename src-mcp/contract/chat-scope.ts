/**
 * What belongs to one chat and not to the process (docs/mcp.md, "State and the two protocol
 * eras"): the graph selection, the graph tickets, the key's access cap, the client's name and the
 * journal's chat (the undo scope). Every request runs inside its chat's scope (`inChat`): over
 * HTTP (src-mcp/http/) one process serves many chats, each its own scope; on stdio the server
 * serves one, which it makes when it starts serving. Everything else (graphs, tokens, probes,
 * link indexes, the journal writer) is shared by every chat of the server.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { AccessLevel } from '../../src-shared/constants.ts';
import type { ToolsetName } from '../../src-shared/toolsets.ts';
import { newChatRef, type ChatRef } from './chat.ts';

export interface ChatScope {
  /** graphId of the graph chosen with select_graph (or an explicit `graph`). */
  selected?: string;
  /** graphIds whose guidelines select_graph returned in this chat. */
  readonly tickets: Set<string>;
  /** The key's level: it caps every graph for this chat (narrowest of key, graph and token wins). */
  readonly accessCap?: AccessLevel;
  /** The key's name, which a refusal by its cap names (never the key itself). */
  readonly keyName?: string;
  /** The key's toolsets: this chat sees and may call only their tools (else the server's). */
  readonly toolsets?: readonly ToolsetName[];
  /** The client's name, from `initialize` or a 2026-07-28 request's clientInfo. */
  clientName?: string;
  /**
   * An approval given in this chat (the MCP Apps approval view) counts as the person's: set by
   * whoever opens the chat, for a host known to render apps and keep a result's `_meta` from the
   * model (docs/reliability.md, "Who can approve"). Else a proposal waits in Roam Companion only.
   */
  readonly approvesInChat?: boolean;
  /**
   * A chat through the tunnel (src-mcp/remote/): a write that needs the person's yes is never made
   * because nobody can be asked (docs/remote.md).
   */
  readonly remote?: boolean;
  /**
   * The graphIds this chat may reach (a remote connection's approval, docs/remote.md); every other
   * graph is not there for it: not listed, not resolvable, named like an unknown graph. Undefined:
   * every configured graph.
   */
  readonly graphs?: readonly string[];
  /** The journal's chat (src-mcp/contract/chat.ts). */
  readonly chat: ChatRef;
}

const storage = new AsyncLocalStorage<ChatScope>();
/** Work outside any served chat (a handler called without a server, in a test): a chat of its own. */
const outside = newScope();
/** Every chat alive, so a graph removed from the config is dropped from each chat's state. */
const live = new Set<ChatScope>([outside]);

/** The chat scope the running request belongs to. */
export function currentScope(): ChatScope {
  return storage.getStore() ?? outside;
}

/** The running request's chat, as the journal and the proposals record it. */
export function currentChat(): ChatRef {
  return currentScope().chat;
}

/** The client said who it is. */
export function noteChatClient(name: string | undefined, version: string | undefined): void {
  if (!name) return;
  currentChat().client = { name, ...(version ? { version } : {}) };
}

/**
 * A scope whose chat starts now; the chat's id is drawn at its first use: the bin loads
 * node:crypto only then (scripts/build.mjs, lazyBuiltins), after the server's first answer.
 */
function newScope(options: Omit<ChatScope, 'tickets' | 'chat'> = {}): ChatScope {
  const startedAt = new Date().toISOString();
  let chat: ChatRef | undefined;
  return {
    tickets: new Set(),
    ...options,
    get chat() {
      return (chat ??= { ...newChatRef(startedAt), ...(options.remote ? { remote: true as const } : {}) });
    },
  };
}

/** A new chat (an HTTP client's, or the one a stdio server serves); `end` it when it closes or expires. */
export function newChatScope(
  options: {
    accessCap?: AccessLevel;
    keyName?: string;
    toolsets?: readonly ToolsetName[];
    clientName?: string;
    approvesInChat?: boolean;
    remote?: boolean;
    graphs?: readonly string[];
  } = {},
): ChatScope {
  const scope = newScope(options);
  live.add(scope);
  return scope;
}

export function endChatScope(scope: ChatScope): void {
  live.delete(scope);
}

export function inChat<T>(scope: ChatScope | undefined, work: () => T): T {
  return scope ? storage.run(scope, work) : work();
}

export function liveScopes(): Iterable<ChatScope> {
  return live;
}
