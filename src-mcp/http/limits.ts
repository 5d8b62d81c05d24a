/** What one HTTP server takes at most (src-mcp/http/http-hub.ts); tests and benches lower them. */
export interface HubLimits {
  /** The largest request body read, in bytes. */
  maxBodyBytes: number;
  /** Chats served at once (2025 sessions and 2026-07-28 chats together). */
  maxChats: number;
  /** Requests a minute per key. */
  ratePerMinute: number;
  /** A chat without a request for this long ends. */
  idleMs: number;
}

export const DEFAULT_LIMITS: HubLimits = {
  maxBodyBytes: 4 * 1024 * 1024,
  maxChats: 64,
  ratePerMinute: 1200,
  idleMs: 60 * 60_000,
};
