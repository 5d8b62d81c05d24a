/** What one HTTP server takes at most (src-mcp/http/http-hub.ts); tests and benches lower them. */
export interface HubLimits {
  /** The largest request body read, in bytes. */
  maxBodyBytes: number;
  /** Chats served at once (2025 sessions and 2026-07-28 chats together). */
  maxChats: number;
  /** Chats one key holds at once: its share of maxChats. */
  maxChatsPerKey: number;
  /** Requests a minute per key. */
  ratePerMinute: number;
  /** A chat without a request for this long ends. */
  idleMs: number;
  /** Open connections; past it a new one is answered 503 and closed. */
  maxConnections: number;
  /** How long a request's headers may take to arrive. */
  headersTimeoutMs: number;
  /** How long a whole request (headers and body) may take to arrive. */
  requestTimeoutMs: number;
}

export const DEFAULT_LIMITS: HubLimits = {
  maxBodyBytes: 4 * 1024 * 1024,
  maxChats: 64,
  maxChatsPerKey: 16,
  ratePerMinute: 1200,
  idleMs: 60 * 60_000,
  maxConnections: 256,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 60_000,
};
