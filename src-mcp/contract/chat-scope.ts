/**
 * What belongs to one chat and not to the process (docs/mcp.md, "State and the two protocol
 * eras"): the graph selection, the graph tickets, the key's access cap, the client's name and the
 * journal's chat (the undo scope). On stdio the process is the chat, so there is one scope; over
 * HTTP (src-mcp/http/) one process serves many chats and each request runs inside its chat's
 * scope (`inChat`). Everything else (graphs, tokens, probes, link indexes, the journal writer) is
 * shared by every chat of the process.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { AccessLevel } from '../../src-shared/constants.ts';
import type { ToolsetName } from '../../src-shared/toolsets.ts';
import { newChatRef, useChatSource, type ChatRef } from './chat.ts';

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
  /** The journal's chat; undefined on stdio (the process's own, src-mcp/contract/chat.ts). */
  readonly chat?: ChatRef;
}

const storage = new AsyncLocalStorage<ChatScope>();
const processScope: ChatScope = { tickets: new Set() };
/** Every chat alive, so a graph removed from the config is dropped from each chat's state. */
const live = new Set<ChatScope>([processScope]);

useChatSource(() => storage.getStore()?.chat);

/** The chat the running request belongs to (the process's own outside any). */
export function currentScope(): ChatScope {
  return storage.getStore() ?? processScope;
}

/** A new chat of an HTTP client; `end` it when its session closes or expires. */
export function newChatScope(
  options: {
    accessCap?: AccessLevel;
    keyName?: string;
    toolsets?: readonly ToolsetName[];
    clientName?: string;
  } = {},
): ChatScope {
  const scope: ChatScope = { tickets: new Set(), chat: newChatRef(), ...options };
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
