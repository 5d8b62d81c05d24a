/**
 * How this call can reach the person, and what they already said (docs/mcp.md, "Consent before a
 * write takes much away"). The channel is chosen in src-mcp/gate/channels/index.ts from the
 * connection; where none reaches the person the graph's setting decides (src-mcp/gate/consent.ts).
 * The policy `never` (`--confirm never`) asks nobody; a graph's own `confirm` wins for writes to it.
 */
import type { ConfirmPolicy } from '../../src-shared/roam-config.ts';
import { ToolError } from '../contract/tool-errors.ts';
import type { Answer, ConsentChannel, Connection } from './channels/channel.ts';
import { chooseChannel } from './channels/index.ts';
import { nobody } from './channels/nobody.ts';
import type { Proposal } from './proposals.ts';

export type { ConfirmPolicy };
export const DEFAULT_CONFIRM_POLICY: ConfirmPolicy = 'destructive';

/** How this call may reach the person, and what they already said. */
export interface Confirmation {
  channel: ConsentChannel;
  /** The person's answer to the question, when this is the retried call. */
  answer?: Answer;
  /** The proposal the person approved: this call is its write. */
  approved?: Proposal;
  /**
   * The server's policy; a graph's own `confirm` wins for writes to it. `never`: nothing is read
   * or counted for consent.
   */
  policy: ConfirmPolicy;
}

export const NEVER_ASK: Confirmation = { channel: nobody, policy: 'never' };

/** The call's confirmation: its connection's channel and the answer a retried call carries. */
export function confirmationOf(connection: Connection, policy: ConfirmPolicy): Confirmation {
  // The channel is found whatever the server's policy: a graph's own `confirm` may ask.
  const channel = chooseChannel(connection);
  const answer = channel.answer?.(connection);
  return answer ? { channel, answer, policy } : { channel, policy };
}

/** The graph's setting refuses such a write when nobody can be asked (`whenNobodyCanAsk: "refuse"`). */
export function nobodyToAsk(question: string, graph: string): ToolError {
  return new ToolError(
    'ACCESS_LEVEL',
    `Not done: ${question} Graph '${graph}' is set to refuse such a change when nobody can be asked, and this client can neither ask the person (form elicitation) nor show them an approval that counts (MCP Apps, over stdio or with a key 'roam-mcp install' or Roam Companion made for the client). Nothing was changed. To be asked, use a client that asks (Claude Code, VS Code, Cursor) or shows apps (Claude Desktop); or the person sets "whenNobodyCanAsk": "proceed" for the graph in ~/.roam-tools.json. Smaller steps are counted together and do not get around it.`,
    { graph, setting: 'whenNobodyCanAsk' },
  );
}

/** This connection's channel never lets a change that needs a yes go unasked (a remote chat). */
export function nobodyToAskHere(question: string, graph: string): ToolError {
  return new ToolError(
    'ACCESS_LEVEL',
    `Not done: ${question} Nobody can be asked from this connection (no form elicitation, no approval that counts here, no Roam Companion showing it), and such a change is never made unasked from it. Nothing was changed. The person can make it from a client on their computer.`,
    { graph },
  );
}

/** The graph asks before every write (`"confirm": "every-write"`) and this client can ask nobody. */
export function nobodyToAskEveryWrite(question: string, graph: string): ToolError {
  return new ToolError(
    'ACCESS_LEVEL',
    `Not done: ${question} Graph '${graph}' is set to ask the person before every write ("confirm": "every-write" in ~/.roam-tools.json), and this client can neither ask the person (form elicitation) nor show them an approval that counts (MCP Apps, over stdio or with a key 'roam-mcp install' or Roam Companion made for the client). Nothing was changed. Use a client that asks (Claude Code, VS Code, Cursor) or shows apps (Claude Desktop), or the person changes "confirm" for the graph.`,
    { graph, setting: 'confirm' },
  );
}

/**
 * A graph's consent ledger could not be used (src-mcp/gate/consent-ledger.ts) and this client can
 * ask nobody: like the journal, it is the record kept in the data folder before a write.
 */
export function nobodyToAskLedgerUnusable(question: string, graph: string): ToolError {
  return new ToolError(
    'JOURNAL_UNAVAILABLE',
    `Not done: ${question} This client can neither ask the person (form elicitation) nor show them an approval that counts (MCP Apps, over stdio or with a key 'roam-mcp install' or Roam Companion made for the client). Nothing was changed. Check that the Roam Companion data folder is writable and its consent ledger is roam-mcp's own (or remove it), then retry; or use a client that asks.`,
    { graph },
  );
}
