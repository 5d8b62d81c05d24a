/**
 * The question before a destructive write (docs/mcp.md, "Confirmation before destructive writes"):
 * when the client declares form elicitation and the policy is `destructive`, a call whose
 * question (src-mcp/gate/confirm-questions.ts) finds too much at stake answers `input_required`
 * with one form elicitation. The SDK carries it either way: on 2026-07-28 the client asks the
 * person and retries the call with the answer; on 2025-11-25 the SDK sends `elicitation/create`
 * itself and re-enters the call with the answer. Accepted → the write runs as usual; declined or
 * cancelled → nothing is written and the result says so plainly (not an error: the agent must not
 * retry). A client without form elicitation, or `--confirm never`, is never asked.
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

export type { ConfirmPolicy };
export const DEFAULT_CONFIRM_POLICY: ConfirmPolicy = 'destructive';

/** The key of the one input request; the retried call carries the answer under it. */
const ANSWER_KEY = 'confirm';

/** What this call may do about a question: ask it, or act on the answer already given. */
export interface Confirmation {
  /** The client declared form elicitation and the policy asks. */
  canAsk: boolean;
  /** The person's answer, when this is the retried call. */
  answer?: 'accept' | 'decline' | 'cancel';
}

export const NEVER_ASK: Confirmation = { canAsk: false };

/** Form mode: `elicitation: {}` (2025-06-18 and earlier clients), or an explicit `form`. */
export function declaresFormElicitation(capabilities: ClientCapabilities | undefined): boolean {
  const elicitation = capabilities?.elicitation;
  if (!elicitation) return false;
  return elicitation.form !== undefined || elicitation.url === undefined;
}

/**
 * The call's confirmation from its request: the client's capabilities (the request's `_meta` on
 * 2026-07-28, `initialize` on 2025 sessions) and the answer carried by a retried call.
 */
export function confirmationOf(
  ctx: ServerContext,
  sessionCapabilities: ClientCapabilities | undefined,
  policy: ConfirmPolicy,
): Confirmation {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const capabilities =
    (envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined) ?? sessionCapabilities;
  const canAsk = policy === 'destructive' && declaresFormElicitation(capabilities);
  if (!canAsk) return NEVER_ASK;
  const answer = inputResponse(ctx.mcpReq.inputResponses, ANSWER_KEY);
  return answer.kind === 'elicit' ? { canAsk, answer: answer.action } : { canAsk };
}

/** Thrown before the write when the person must be asked first. */
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
        ? `Not done: the person declined ${tool} when asked to confirm it. Nothing was changed. Do not retry unless they ask for it again.`
        : `Not done: the person closed the confirmation for ${tool} without answering. Nothing was changed. Ask them before trying again.`,
    );
    this.name = 'NotConfirmed';
  }
}

/**
 * Before a write: throws ConfirmationNeeded (ask), NotConfirmed (declined or cancelled), or
 * returns (go ahead). `question` runs only when an answer is still to be had.
 */
export async function confirmBeforeWrite(
  tool: string,
  confirmation: Confirmation,
  question: (() => Promise<string | undefined>) | undefined,
): Promise<void> {
  if (!question || !confirmation.canAsk) return;
  if (confirmation.answer === 'accept') return;
  if (confirmation.answer) throw new NotConfirmed(tool, confirmation.answer);
  const asked = await question();
  if (asked !== undefined) throw new ConfirmationNeeded(asked);
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
