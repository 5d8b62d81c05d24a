/**
 * What the consent gate answers before a write (src-mcp/gate/consent.ts), as a value: go ahead
 * with a reservation, ask now, leave waiting, refuse, or not done — each with what the person was
 * shown. The write path turns a held outcome into the call's answer (src-mcp/gate/replay.ts);
 * how the person is reached is the channel's (src-mcp/gate/channels/).
 */
import type { InputRequiredResult } from '@modelcontextprotocol/server';
import type { GraphRef, TakenAway } from '../contract/taken-away.ts';
import type { ToolError } from '../contract/tool-errors.ts';
import type { Proposal } from './proposals.ts';

/** One graph's part of what a call takes away: a yes is bound to these, graph by graph. */
export interface ShownPart {
  graph: GraphRef;
  taken: TakenAway;
}

/** A write let through: settled once it ran, whatever became of it. */
export interface Reservation {
  settle(): Promise<void>;
}

/** The person is reached: asked now (the reply carries the question) or a proposal left waiting. */
export type Reached =
  | { kind: 'ask'; question: string; shown: readonly ShownPart[]; reply: InputRequiredResult }
  | {
      kind: 'wait';
      proposal: Proposal;
      code: string;
      /** What the model reads: nothing changed yet, where the person answers. */
      message: string;
      /** The result `_meta` for an approval view in the chat; absent when only Roam Companion shows it. */
      toChat?: Record<string, unknown>;
    };

export type Outcome =
  | { kind: 'go'; reservation: Reservation }
  | Reached
  | { kind: 'refuse'; error: ToolError; question: string }
  | { kind: 'not-done'; reason: 'declined' | 'cancelled' | 'changed'; message: string };

/** An outcome that writes nothing now: the call answers it instead of running its write. */
export type Held = Extract<Outcome, { kind: 'ask' | 'wait' | 'not-done' }>;

/**
 * Carries a held outcome out of a running handler (update_page_markdown asks the gate from inside,
 * through `ctx.allowEdits`); the write path catches it and answers the outcome.
 */
export class Halted extends Error {
  constructor(readonly held: Held) {
    super(held.kind === 'ask' ? held.question : held.message);
    this.name = 'Halted';
  }
}

/** The write path's step after the gate: the reservation to go ahead with, or the call stops here. */
export function goAhead(outcome: Outcome): Reservation {
  if (outcome.kind === 'go') return outcome.reservation;
  // A refusal is the call's error, like any other.
  if (outcome.kind === 'refuse') throw outcome.error;
  throw new Halted(outcome);
}

export function declined(tool: string, answer: 'decline' | 'cancel'): Outcome {
  return answer === 'decline'
    ? {
        kind: 'not-done',
        reason: 'declined',
        message: `Not done: the person declined ${tool} when asked to confirm it. Nothing was changed. Do not retry, by this or any other tool, unless they ask for it again.`,
      }
    : {
        kind: 'not-done',
        reason: 'cancelled',
        message: `Not done: the person closed the confirmation for ${tool} without answering. Nothing was changed. Ask them before trying again.`,
      };
}

/** An approved proposal's write finds the graph changed since the person saw it. */
export function changedSinceAsked(proposal: Proposal): Outcome {
  return {
    kind: 'not-done',
    reason: 'changed',
    message: `Not done: ${proposal.tool} would now take away more than the person was shown when they approved it (the graph changed since). Nothing was changed. Call it again if it is still wanted: the person is asked about it as it is now.`,
  };
}

/** What the model reads of a waiting proposal, answered `where`. */
export function waitingMessage(proposal: Proposal, where: string): string {
  return `Waiting for the person, nothing changed yet: ${proposal.question} They answer ${where} (Approve or Keep). Do not retry or do it another way; list_changes shows what they decided (proposal ${proposal.id}).`;
}
