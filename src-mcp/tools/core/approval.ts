/**
 * The person's answer to a waiting proposal (docs/mcp.md, "Consent before a write takes much
 * away"), called only by the approval view in the chat (`_meta.ui.visibility: ["app"]`: hosts
 * keep them from the model, and clients that render no apps are not shown them): a proposal id
 * and the one-time code from the proposal's result `_meta`, nothing else. Approve runs the write
 * the person saw, through the same write path, checked against Roam again; Keep writes nothing.
 * Their names are the gate's APPROVE_TOOL and KEEP_TOOL (src-mcp/gate/proposals.ts). read_proposal
 * lets the view learn a proposal's fate when the person answered elsewhere (the tray, another view).
 */
import * as z from 'zod';
import { defineTool } from '../../contract/tool-definition.ts';
import { takesNothing } from '../../gate/plan-readers.ts';
import { APPROVE_TOOL, KEEP_TOOL, settle } from '../../gate/proposals.ts';
import { ApprovedWrite } from '../../gate/replay.ts';

const answer = { proposal: z.string().min(1).max(40), code: z.string().min(1).max(64) };
const APP_ONLY = { ui: { visibility: ['app'] } };

export const approvalTools = [
  defineTool({
    name: APPROVE_TOOL,
    title: 'Approve change',
    description: 'App only: the person approves a waiting change.',
    toolset: 'core',
    feature: 'approval',
    actions: [],
    scope: 'session',
    writes: 'edit',
    // The write it runs goes through the gate again, checked against what the person saw.
    takes: takesNothing('runs the approved write, which the gate judges itself'),
    _meta: APP_ONLY,
    annotations: { destructiveHint: true, idempotentHint: false, openWorldHint: false },
    inputSchema: answer,
    handler: (args, ctx) =>
      Promise.resolve(new ApprovedWrite(ctx.proposals.redeem(args.proposal, args.code))),
  }),
  defineTool({
    name: KEEP_TOOL,
    title: 'Keep as it is',
    description: 'App only: the person keeps things as they are.',
    toolset: 'core',
    feature: 'approval',
    actions: [],
    scope: 'session',
    _meta: APP_ONLY,
    annotations: { idempotentHint: false, openWorldHint: false },
    inputSchema: answer,
    async handler(args, ctx) {
      const proposal = ctx.proposals.redeem(args.proposal, args.code);
      settle(proposal, 'kept', 'Kept: the person chose to keep things as they are. Nothing was changed.');
      await ctx.consent.rememberKept(proposal);
      return proposal.outcome;
    },
  }),
  defineTool({
    name: 'read_proposal',
    title: 'Read proposal',
    description: 'App only: what became of a change that waited for the person.',
    toolset: 'core',
    feature: 'approval',
    actions: [],
    scope: 'session',
    _meta: APP_ONLY,
    annotations: { idempotentHint: true, openWorldHint: false },
    inputSchema: { proposal: answer.proposal },
    handler: (args, ctx) => Promise.resolve(ctx.proposals.fate(args.proposal)),
  }),
];
