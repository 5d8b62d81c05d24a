/**
 * The chat a change belongs to: this MCP session. On stdio one process serves one connection, so
 * the id is made once per process; the client's name and version come from `initialize` (or a
 * 2026-07-28 request's clientInfo) and are filled in when known.
 */
import { randomBytes } from 'node:crypto';

/** Who made the change: one MCP session (the `roam-mcp` process), or a person's undo. */
export interface ChatRef {
  id: string;
  client?: { name?: string; version?: string };
  /** ISO time the session started. */
  startedAt: string;
  /** 'agent' for an MCP session; 'person' for the CLI and the tray. */
  kind?: 'agent' | 'person';
}

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/** A short id a person can type: `length` characters of Crockford's base32, lower case. */
export function newId(length = 8): string {
  return Array.from(randomBytes(length), (b) => ALPHABET[b & 31]).join('');
}

const startedAt = new Date().toISOString();
let chat: ChatRef | undefined;
let chatSource: (() => ChatRef | undefined) | undefined;

/**
 * This process's chat, or the chat of the running request when one process serves many
 * (`useChatSource`, src-mcp/contract/chat-scope.ts). Its id is drawn at the first use, not when the
 * module loads: the bin loads node:crypto only then (scripts/build.mjs, lazyBuiltins), after the
 * server's first answer.
 */
export function currentChat(): ChatRef {
  return chatSource?.() ?? (chat ??= { id: `chat-${newId(8)}`, startedAt, kind: 'agent' });
}

/** A chat of an agent starting now (one of many served by one process over HTTP). */
export function newChatRef(): ChatRef {
  return { id: `chat-${newId(8)}`, startedAt: new Date().toISOString(), kind: 'agent' };
}

/** Where `currentChat` finds the running request's chat (undefined: the process's own). */
export function useChatSource(source: () => ChatRef | undefined): void {
  chatSource = source;
}

/** The client said who it is. */
export function noteChatClient(name: string | undefined, version: string | undefined): void {
  if (!name) return;
  currentChat().client = { name, ...(version ? { version } : {}) };
}

/** The chat of a person acting through the CLI or the tray (their undo runs). */
export function personChat(client: string, version?: string): ChatRef {
  return {
    id: `person-${newId(8)}`,
    startedAt: new Date().toISOString(),
    kind: 'person',
    client: { name: client, ...(version ? { version } : {}) },
  };
}
