/**
 * How this call can reach the person (docs/mcp.md, "Consent before a write takes much away"),
 * best first: the client's form elicitation (both eras: on 2026-07-28 the call answers
 * `input_required` and the client asks and retries with the answer; on 2025-11-25 the SDK sends
 * `elicitation/create` itself and re-enters the call with the answer); else, for a host that
 * renders MCP Apps (`extensions["io.modelcontextprotocol/ui"]`), a waiting proposal with an
 * approval view; else, when Roam Companion shows proposals (the server is its HTTP server), a
 * waiting proposal answered there; else nobody can be asked and the graph's setting decides: the write goes ahead
 * (the default; the undo is there) or is refused (`whenNobodyCanAsk: "refuse"`, and always under
 * `every-write`). The policy `never` (`--confirm never`) asks nobody; a graph's own `confirm` wins
 * for writes to it (src-mcp/gate/consent.ts).
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  inputRequired,
  inputResponse,
  type ClientCapabilities,
  type InputRequiredResult,
  type ServerContext,
} from '@modelcontextprotocol/server';

import type { ConfirmPolicy } from '../../src-shared/roam-config.ts';
import { ToolError } from '../contract/tool-errors.ts';
import type { Proposal } from './proposals.ts';

export type { ConfirmPolicy };
export const DEFAULT_CONFIRM_POLICY: ConfirmPolicy = 'destructive';

/** The MCP Apps extension a host declares when it renders apps. */
export const APPS_EXTENSION = 'io.modelcontextprotocol/ui';

/** The key of the one input request; the retried call carries the answer under it. */
const ANSWER_KEY = 'confirm';

export type Answer = 'accept' | 'decline' | 'cancel';

/** How this call may reach the person, and what they already said. */
export interface Confirmation {
  /** `tray`: only Roam Companion can show the proposal (it also shows an `app` one). */
  channel: 'elicit' | 'app' | 'tray' | 'none';
  /** The person's answer to the elicitation, when this is the retried call. */
  answer?: Answer;
  /** The proposal the person approved: this call is its write. */
  approved?: Proposal;
  /**
   * The server's policy; a graph's own `confirm` wins for writes to it. `never`: nothing is read
   * or counted for consent.
   */
  policy: ConfirmPolicy;
}

export const NEVER_ASK: Confirmation = { channel: 'none', policy: 'never' };

/** Form mode: `elicitation: {}` (2025-06-18 and earlier clients), or an explicit `form`. */
export function declaresFormElicitation(capabilities: ClientCapabilities | undefined): boolean {
  const elicitation = capabilities?.elicitation;
  if (!elicitation) return false;
  return elicitation.form !== undefined || elicitation.url === undefined;
}

export function rendersApps(capabilities: ClientCapabilities | undefined): boolean {
  const extensions = (capabilities as { extensions?: Record<string, unknown> } | undefined)?.extensions;
  return extensions?.[APPS_EXTENSION] !== undefined;
}

/** The client's capabilities: the request's `_meta` on 2026-07-28, `initialize` on 2025 sessions. */
export function capabilitiesOf(
  ctx: ServerContext,
  sessionCapabilities: ClientCapabilities | undefined,
): ClientCapabilities | undefined {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  return (envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined) ?? sessionCapabilities;
}

/**
 * The call's confirmation from its request: its client's channel and the answer a retried call
 * carries. `trayShows`: whether Roam Companion shows this server's proposals (`ctx.proposals`).
 */
export function confirmationOf(
  ctx: ServerContext,
  sessionCapabilities: ClientCapabilities | undefined,
  policy: ConfirmPolicy,
  trayShows: boolean,
): Confirmation {
  // The channel is found whatever the server's policy: a graph's own `confirm` may ask.
  const capabilities = capabilitiesOf(ctx, sessionCapabilities);
  if (declaresFormElicitation(capabilities)) {
    const answer = inputResponse(ctx.mcpReq.inputResponses, ANSWER_KEY);
    return answer.kind === 'elicit'
      ? { channel: 'elicit', answer: answer.action, policy }
      : { channel: 'elicit', policy };
  }
  if (rendersApps(capabilities)) return { channel: 'app', policy };
  return { channel: trayShows ? 'tray' : 'none', policy };
}

/** Thrown before the write when the person must be asked first (form elicitation). */
export class ConfirmationNeeded extends Error {
  constructor(readonly question: string) {
    super(question);
    this.name = 'ConfirmationNeeded';
  }
}

/** Thrown before the write when the person declined or cancelled: nothing was written. */
export class NotConfirmed extends Error {
  constructor(
    readonly tool: string,
    readonly answer: 'decline' | 'cancel',
  ) {
    super(
      answer === 'decline'
        ? `Not done: the person declined ${tool} when asked to confirm it. Nothing was changed. Do not retry, by this or any other tool, unless they ask for it again.`
        : `Not done: the person closed the confirmation for ${tool} without answering. Nothing was changed. Ask them before trying again.`,
    );
    this.name = 'NotConfirmed';
  }
}

/** Thrown before the write when it waits for the person's answer in the approval view. */
export class ProposalWaiting extends Error {
  constructor(
    readonly proposal: Proposal,
    readonly code: string,
    /** `app`: the chat shows the approval view (and Roam Companion too, when it shows proposals). */
    readonly shownIn: 'app' | 'tray',
    /** Roam Companion shows proposals too. */
    trayShows: boolean,
  ) {
    const where =
      shownIn === 'tray'
        ? 'in Roam Companion'
        : trayShows
          ? 'in the approval shown in this chat or in Roam Companion'
          : 'in the approval shown in this chat';
    super(
      `Waiting for the person, nothing changed yet: ${proposal.question} They answer ${where} (Approve or Keep). Do not retry or do it another way; list_changes shows what they decided (proposal ${proposal.id}).`,
    );
    this.name = 'ProposalWaiting';
  }
}

/** The graph's setting refuses such a write when nobody can be asked (`whenNobodyCanAsk: "refuse"`). */
export function nobodyToAsk(question: string, graph: string): ToolError {
  return new ToolError(
    'ACCESS_LEVEL',
    `Not done: ${question} Graph '${graph}' is set to refuse such a change when nobody can be asked, and this client can neither ask the person (form elicitation) nor show them an approval (MCP Apps). Nothing was changed. To be asked, use a client that asks (Claude Code, VS Code, Cursor) or shows apps (Claude Desktop); or the person sets "whenNobodyCanAsk": "proceed" for the graph in ~/.roam-tools.json. Smaller steps are counted together and do not get around it.`,
    { graph, setting: 'whenNobodyCanAsk' },
  );
}

/** The graph asks before every write (`"confirm": "every-write"`) and this client can ask nobody. */
export function nobodyToAskEveryWrite(question: string, graph: string): ToolError {
  return new ToolError(
    'ACCESS_LEVEL',
    `Not done: ${question} Graph '${graph}' is set to ask the person before every write ("confirm": "every-write" in ~/.roam-tools.json), and this client can neither ask the person (form elicitation) nor show them an approval (MCP Apps). Nothing was changed. Use a client that asks (Claude Code, VS Code, Cursor) or shows apps (Claude Desktop), or the person changes "confirm" for the graph.`,
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
    `Not done: ${question} This client can neither ask the person (form elicitation) nor show them an approval (MCP Apps). Nothing was changed. Check that the Roam Companion data folder is writable and its consent ledger is roam-mcp's own (or remove it), then retry; or use a client that asks.`,
    { graph },
  );
}

/** Thrown when an approved proposal's write finds the graph changed since the person saw it. */
export class ChangedSinceAsked extends Error {
  constructor(readonly proposal: Proposal) {
    super(
      `Not done: ${proposal.tool} would now take away more than the person was shown when they approved it (the graph changed since). Nothing was changed. Call it again if it is still wanted: the person is asked about it as it is now.`,
    );
    this.name = 'ChangedSinceAsked';
  }
}

/** The `input_required` answer that carries the question: a form with nothing to fill in. */
export function askResult(question: string): InputRequiredResult {
  return inputRequired({
    inputRequests: {
      [ANSWER_KEY]: inputRequired.elicit({
        message: question,
        requestedSchema: { type: 'object', properties: {} },
      }),
    },
  });
}
