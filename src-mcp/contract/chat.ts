/**
 * The chat a change belongs to: one MCP session, carried by its chat scope (./chat-scope.ts:
 * one per HTTP chat, one per stdio server). The client's name and version come from `initialize`
 * (or a 2026-07-28 request's clientInfo) and are filled in when known.
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
  /** A chat through the tunnel (remote access, docs/remote.md): Activity marks it. */
  remote?: true;
}

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/** A short id a person can type: `length` characters of Crockford's base32, lower case. */
export function newId(length = 8): string {
  return Array.from(randomBytes(length), (b) => ALPHABET[b & 31]).join('');
}

/** A chat of an agent, started at `startedAt` (ISO). */
export function newChatRef(startedAt = new Date().toISOString()): ChatRef {
  return { id: `chat-${newId(8)}`, startedAt, kind: 'agent' };
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
