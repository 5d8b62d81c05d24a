/**
 * What a call answers when the gate held its write (outcome.ts), and the replay of a waiting
 * proposal: the person's Approve runs the write they saw through the same write path, as the
 * agent's change, with nobody asked again; an answer in Roam Companion is the same approve_change
 * or keep_change call the approval view makes, inside the chat that made the proposal. The write
 * path itself is src-mcp/server/tool-call.ts, handed in as `RunCall`.
 */
import type { CallToolResult, InputRequiredResult } from '@modelcontextprotocol/server';
import type { CallScope } from '../contract/call-scope.ts';
import { currentScope, inChat, type ChatScope } from '../contract/chat-scope.ts';
import type { ToolDefinition } from '../contract/tool-definition.ts';
import { nobody } from './channels/nobody.ts';
import type { Confirmation } from './confirm.ts';
import type { Held } from './outcome.ts';
import {
  APPROVE_TOOL,
  KEEP_TOOL,
  settle,
  type PersonAnswer,
  type Proposal,
  type Proposals,
  type TrayAnswered,
} from './proposals.ts';

/** One tools/call through the write path, in the running chat. */
export type RunCall = (
  name: string,
  args: unknown,
  scope: CallScope,
  confirmation?: Confirmation,
) => Promise<CallToolResult | InputRequiredResult>;

/** What approve_change answers: the write the person approved, for the write path to run. */
export class ApprovedWrite {
  constructor(readonly proposal: Proposal) {}
}

/**
 * Declined, cancelled, changed since asked, or waiting: a plain result, not an error (an error
 * invites a retry). A tool with an outputSchema gets its own shape of "nothing done", as a client
 * checks structuredContent.
 */
function notDone(tool: ToolDefinition, rawArgs: unknown, message: string): CallToolResult {
  const result: CallToolResult = { content: [{ type: 'text', text: message }] };
  const nothing = tool.takes?.nothingDone?.((rawArgs ?? {}) as Record<string, unknown>) ?? {};
  if (tool.outputSchema) result.structuredContent = { ...nothing, notes: [message] };
  return result;
}

/**
 * The call's answer when the gate held its write: the question (ask now), nothing done, or a
 * waiting proposal — nothing written, the call answers at once; Roam Companion shows it when it
 * shows proposals, and the chat's approval view gets its data when the channel gave it some.
 */
export function heldResult(
  held: Held,
  tool: ToolDefinition,
  rawArgs: unknown,
  proposals: Proposals,
  run: RunCall,
): CallToolResult | InputRequiredResult {
  if (held.kind === 'ask') return held.reply;
  const result = notDone(tool, rawArgs, held.message);
  if (held.kind === 'not-done') return result;
  const chat = currentScope();
  proposals.offerInTray(held.proposal, (answer) => answerInChat(answer, held, chat, run));
  return held.toChat ? { ...result, _meta: held.toChat } : result;
}

/**
 * The person's answer in Roam Companion, made later, with the proposal's one-time values, inside
 * the chat that made it. Its request is over, so it runs on a scope of its own. Answers the
 * outcome the model would read.
 */
function answerInChat(
  answer: PersonAnswer,
  wait: Extract<Held, { kind: 'wait' }>,
  chat: ChatScope,
  run: RunCall,
): Promise<TrayAnswered> {
  const own: CallScope = { signal: new AbortController().signal, progress: () => {}, notice: () => {} };
  const args = { proposal: wait.proposal.id, code: wait.code };
  return inChat(chat, async () => {
    const result = (await run(answer === 'approve' ? APPROVE_TOOL : KEEP_TOOL, args, own)) as CallToolResult;
    const first = result.content[0];
    return { done: !result.isError, outcome: first?.type === 'text' ? first.text : '' };
  });
}

/** The person approved a proposal: its write runs now, through the write path, as the agent's change. */
export async function runApproved(
  { proposal }: ApprovedWrite,
  scope: CallScope,
  run: RunCall,
): Promise<CallToolResult> {
  // Nobody is asked again: the answer is a CallToolResult.
  const result = (await run(proposal.tool, proposal.args, scope, {
    channel: nobody,
    approved: proposal,
    policy: 'destructive',
  })) as CallToolResult;
  const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join(' ');
  if (proposal.status !== 'changed')
    settle(
      proposal,
      result.isError ? 'failed' : 'approved',
      result.isError
        ? `Approved, but ${proposal.tool} failed: ${text.slice(0, 300)}`
        : `Approved by the person and done (${proposal.tool}); it can be undone with undo_changes.`,
    );
  // The outcome first (what the view tells the model), then the write's own result and its app data.
  return {
    ...result,
    content: [{ type: 'text', text: proposal.outcome ?? '' }, ...result.content],
  };
}
