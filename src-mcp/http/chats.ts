/**
 * The chats one HTTP server serves, each with its own scope (src-mcp/contract/chat-scope.ts):
 *
 * - a 2025-11-25 session (`initialize`, then `Mcp-Session-Id`) is a chat;
 * - a 2026-07-28 request names its chat with `Mcp-Session-Id` when its client sends one (the
 *   revision has no sessions, so a client keeps its own id per conversation); without it, all of
 *   a key's requests are one chat.
 *
 * A chat belongs to the key that opened it: another key naming its id gets a chat of its own.
 * The total is capped, and so is each key's share, so one key cannot take every chat; a chat idle
 * for `idleMs` ends (its journal entries stay, docs/undo.md).
 */
import { isClientId } from '../../src-shared/clients.ts';
import type { KeyEntry } from '../data-folder/key-store.ts';
import { endChatScope, newChatScope, type ChatScope } from '../contract/chat-scope.ts';

export interface Chat {
  scope: ChatScope;
  key: string;
  lastSeen: number;
  /** Ends what serves the chat (a 2025 session's transport and server). */
  close?: () => Promise<void>;
}

/** Why a new chat was not opened: the server's cap or the key's share. */
export type ChatsFull = 'server' | 'key';

export interface ChatLimits {
  /** Chats served at once, every key together. */
  max: number;
  /** Chats one key holds at once. */
  perKey: number;
  /** A chat without a request for this long ends. */
  idleMs: number;
}

export class Chats {
  private readonly byId = new Map<string, Chat>();
  private pending = 0;
  /** Told the number of chats each time it changes (the URL file says it, for the tray's status bar). */
  onCount?: (count: number) => void;
  /** What a new chat of `key` is: its cap and toolsets, and whether its approvals count. */
  scopeFor: (key: KeyEntry) => Parameters<typeof newChatScope>[0] = keyScope;

  constructor(
    readonly limits: ChatLimits,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.byId.size;
  }

  /** The 2026-07-28 chat for this key and client id, or why there is no room for a new one. */
  modern(key: KeyEntry, clientId: string | null): Chat | ChatsFull {
    const id = `modern\0${key.name}\0${clientId ?? ''}`;
    const known = this.byId.get(id);
    if (known) return this.touch(known);
    const full = this.makeRoom(key.name);
    if (full) return full;
    const chat = this.newChat(key);
    this.put(id, chat);
    return chat;
  }

  /**
   * A new 2025 chat, counted at once (a burst of initializes cannot pass the caps) and registered
   * under its session id once the SDK made one.
   */
  legacy(key: KeyEntry): { chat: Chat; register(sessionId: string): void; abandon(): void } | ChatsFull {
    const full = this.makeRoom(key.name);
    if (full) return full;
    const chat = this.newChat(key);
    const provisional = `pending\0${this.pending++}`;
    this.put(provisional, chat);
    return {
      chat,
      register: (sessionId) => {
        if (this.byId.get(provisional) !== chat) return; // ended before its session was made
        this.byId.delete(provisional);
        this.byId.set(`legacy\0${sessionId}`, chat); // renamed: the count stays
      },
      abandon: () => {
        if (this.byId.get(provisional) === chat) this.drop(provisional);
        endChatScope(chat.scope);
      },
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
    const cutoff = this.now() - this.limits.idleMs;
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
   * Room for one more chat of `key`, or why not:
   * - at its share, the key's own least recently used chat idle for EVICT_IDLE_MS makes room, in
   *   either era (only that key's client loses; a client that never says a chat ended, as
   *   2026-07-28 clients cannot and 2025 ones may not, would otherwise lock itself out for an hour);
   * - at the server's cap, the least recently used chat of the fullest key makes room when that key
   *   holds more than `key` will (its fair share is smaller than what it holds), else a 2026-07-28
   *   chat idle for EVICT_IDLE_MS; a 2025 session of a key within its share stays until closed or
   *   idle for idleMs.
   */
  private makeRoom(key: string): ChatsFull | undefined {
    const held = new Map<string, Array<[string, Chat]>>();
    for (const entry of this.byId) held.set(entry[1].key, [...(held.get(entry[1].key) ?? []), entry]);
    const mine = held.get(key) ?? [];
    const idleCutoff = this.now() - EVICT_IDLE_MS;
    const idle = (entries: Array<[string, Chat]>, modernOnly: boolean) =>
      oldest(
        entries.filter(
          ([id, chat]) =>
            (modernOnly ? id.startsWith('modern\0') : !id.startsWith('pending\0')) &&
            chat.lastSeen < idleCutoff,
        ),
      );
    if (mine.length >= this.limits.perKey) return this.evict(idle(mine, false)) ? undefined : 'key';
    if (this.byId.size < this.limits.max) return undefined;
    const fullest = [...held.values()].sort((a, b) => b.length - a.length)[0] ?? [];
    const settled = fullest.filter(([id]) => !id.startsWith('pending\0'));
    if (fullest.length > mine.length + 1 && this.evict(oldest(settled))) return undefined;
    return this.evict(idle([...this.byId], true)) ? undefined : 'server';
  }

  private evict(id: string | undefined): boolean {
    if (id === undefined) return false;
    void this.end(id);
    return true;
  }

  private put(id: string, chat: Chat): void {
    this.byId.set(id, chat);
    this.onCount?.(this.byId.size);
  }

  private drop(id: string): void {
    this.byId.delete(id);
    this.onCount?.(this.byId.size);
  }

  private newChat(key: KeyEntry): Chat {
    return { scope: newChatScope(this.scopeFor(key)), key: key.name, lastSeen: this.now() };
  }

  private touch(chat: Chat): Chat {
    chat.lastSeen = this.now();
    return chat;
  }

  private async end(id: string): Promise<void> {
    const chat = this.byId.get(id);
    if (!chat) return;
    this.drop(id);
    endChatScope(chat.scope);
    await chat.close?.().catch(() => {});
  }
}

/** The id of the least recently used chat among `entries`. */
function oldest(entries: Array<[string, Chat]>): string | undefined {
  return entries.sort(([, a], [, b]) => a.lastSeen - b.lastSeen)[0]?.[0];
}

const EVICT_IDLE_MS = 5 * 60_000;

/** A local key's chats: capped like the key; their in-chat approvals count for a client's key. */
export const keyScope = (key: KeyEntry) => ({
  ...(key.access ? { accessCap: key.access, keyName: key.name } : {}),
  ...(key.toolsets ? { toolsets: key.toolsets } : {}),
  // A key the tray or `install` made for a client bears its id: that host renders the approval
  // view. Any other key's chats are answered in Roam Companion only (docs/reliability.md).
  approvesInChat: isClientId(key.name),
});
