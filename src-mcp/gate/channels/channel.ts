/**
 * One way the person can be reached before a write (docs/mcp.md, "Consent before a write takes
 * much away"). Each channel is one file in this folder implementing this interface; `index.ts`
 * lists them best first and picks, for each call, the first that serves its connection.
 */
import type { ClientCapabilities } from '@modelcontextprotocol/server';
import type { Reached, ShownPart } from '../outcome.ts';
import type { Proposal } from '../proposals.ts';

/** The person's answer to a question asked in the chat. */
export type Answer = 'accept' | 'decline' | 'cancel';

/** What a channel may know of the call's connection. */
export interface Connection {
  /** The client's capabilities: a 2026-07-28 request's `_meta`, else the session's `initialize`. */
  capabilities: ClientCapabilities | undefined;
  /** The answers a retried call carries (`inputResponses`). */
  inputResponses: Record<string, unknown> | undefined;
  /** Roam Companion shows this server's proposals (it is the tray's HTTP server). */
  trayShows: boolean;
  /**
   * An approval given in the chat is the person's: its host is one that renders apps and keeps a
   * result's `_meta` from the model (docs/reliability.md, "Who can approve").
   */
  approvesInChat: boolean;
  /** Through the tunnel (src-mcp/remote/): reaching nobody never lets a write go unasked. */
  remote?: boolean;
}

/** What the gate needs the person to answer. */
export interface Need {
  tool: string;
  question: string;
  shown: readonly ShownPart[];
  /** Roam Companion shows proposals too. */
  trayShows: boolean;
  /** Leaves a proposal waiting for the person; its one-time code approves it. */
  propose(): { proposal: Proposal; code: string };
}

export interface ConsentChannel {
  /** For logs and tests. */
  readonly name: string;
  /** Whether this channel can reach the person on this connection. */
  serves(connection: Connection): boolean;
  /** The person's answer this very call carries (a retried question), if any. */
  answer?(connection: Connection): Answer | undefined;
  /**
   * Reaches the person: asks now or leaves a proposal waiting. Absent for a channel that reaches
   * nobody: the graph's setting then decides (go ahead, or refuse).
   */
  reach?(need: Need): Reached;
  /**
   * Reaching nobody, a write that needs the person's yes is refused whatever the graph's setting
   * (a remote chat's is never "go ahead because nobody can ask").
   */
  readonly refusesUnasked?: boolean;
}
