/**
 * The chats one HTTP server serves, each with its own scope (src-mcp/contract/chat-scope.ts):
 *
 * - a 2025-11-25 session (`initialize`, then `Mcp-Session-Id`) is a chat;
 * - a 2026-07-28 request names its chat with `Mcp-Session-Id` when its client sends one (the
 *   revision has no sessions, so a client keeps its own id per conversation); without it, all of
 *   a key's requests are one chat.
 *
 * A chat belongs to the key that opened it: another key naming its id gets a chat of its own.
 * The total is capped; a chat idle for `idleMs` ends (its journal entries stay, docs/undo.md).
 */
import type { KeyEntry } from './key-store.ts';
import { endChatScope, newChatScope, type ChatScope } from '../contract/chat-scope.ts';

export interface Chat {
  scope: ChatScope;
  key: string;
  lastSeen: number;
  /** Ends what serves the chat (a 2025 session's transport and server). */
  close?: () => Promise<void>;
}

export class Chats {
  private readonly byId = new Map<string, Chat>();

  constructor(
    readonly max: number,
    private readonly idleMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.byId.size;
  }

  /** The 2026-07-28 chat for this key and client id; undefined when the cap is reached. */
  modern(key: KeyEntry, clientId: string | null): Chat | undefined {
    const id = `modern\0${key.name}\0${clientId ?? ''}`;
    const known = this.byId.get(id);
    if (known) return this.touch(known);
    return this.open(id, key);
  }

  /** A new 2025 chat, registered under its session id once the SDK made one. */
  legacy(key: KeyEntry): { chat: Chat; register(sessionId: string): void; abandon(): void } | undefined {
    if (this.full()) return undefined;
    const chat: Chat = { scope: newChatScope(scopeOptions(key)), key: key.name, lastSeen: this.now() };
    return {
      chat,
      register: (sessionId) => this.byId.set(`legacy\0${sessionId}`, chat),
      abandon: () => endChatScope(chat.scope),
    };
  }

  /** The 2025 session's chat, only for the key that opened it. */
  session(key: KeyEntry, sessionId: string): Chat | undefined {
    const chat = this.byId.get(`legacy\0${sessionId}`);
    return chat && chat.key === key.name ? this.touch(chat) : undefined;
  }

  async endSession(sessionId: string): Promise<void> {
    await this.end(`legacy\0${sessionId}`);
  }

  /** Ends chats idle for longer than idleMs. */
  async sweep(): Promise<void> {
    const cutoff = this.now() - this.idleMs;
    for (const [id, chat] of [...this.byId]) if (chat.lastSeen < cutoff) await this.end(id);
  }

  /** Ends every chat of these keys (they were revoked: open streams close too). */
  async endKeys(names: readonly string[]): Promise<void> {
    for (const [id, chat] of [...this.byId]) if (names.includes(chat.key)) await this.end(id);
  }

  async closeAll(): Promise<void> {
    for (const id of [...this.byId.keys()]) await this.end(id);
  }

  /**
   * At the cap, a 2026-07-28 chat idle for EVICT_IDLE_MS makes room (that revision is stateless:
   * its client may name a new chat per conversation and never say it ended); 2025 sessions stay
   * until closed or idle for idleMs.
   */
  private full(): boolean {
    if (this.byId.size < this.max) return false;
    const cutoff = this.now() - EVICT_IDLE_MS;
    const idle = [...this.byId]
      .filter(([id, chat]) => id.startsWith('modern\0') && chat.lastSeen < cutoff)
      .sort(([, a], [, b]) => a.lastSeen - b.lastSeen)[0];
    if (!idle) return true;
    void this.end(idle[0]);
    return false;
  }

  private open(id: string, key: KeyEntry): Chat | undefined {
    if (this.full()) return undefined;
    const chat: Chat = { scope: newChatScope(scopeOptions(key)), key: key.name, lastSeen: this.now() };
    this.byId.set(id, chat);
    return chat;
  }

  private touch(chat: Chat): Chat {
    chat.lastSeen = this.now();
    return chat;
  }

  private async end(id: string): Promise<void> {
    const chat = this.byId.get(id);
    if (!chat) return;
    this.byId.delete(id);
    endChatScope(chat.scope);
    await chat.close?.().catch(() => {});
  }
}

const EVICT_IDLE_MS = 5 * 60_000;

const scopeOptions = (key: KeyEntry) => ({
  ...(key.access ? { accessCap: key.access } : {}),
  ...(key.toolsets ? { toolsets: key.toolsets } : {}),
});
