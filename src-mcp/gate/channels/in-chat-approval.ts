/**
 * The in-chat approval: for a host that renders MCP Apps (`extensions["io.modelcontextprotocol/ui"]`)
 * and whose approvals count (docs/reliability.md, "Who can approve"), a waiting proposal whose
 * approval view the chat shows; its one-time values ride in the result's `_meta`, which hosts give
 * the app and never the model. Roam Companion shows it too when it shows proposals.
 */
import type { ClientCapabilities } from '@modelcontextprotocol/server';
import { waitingMessage } from '../outcome.ts';
import { APPROVE_META, APPROVE_TOOL, KEEP_META, KEEP_TOOL, PROPOSAL_META } from '../proposals.ts';
import type { ConsentChannel } from './channel.ts';

/** The MCP Apps extension a host declares when it renders apps. */
export const APPS_EXTENSION = 'io.modelcontextprotocol/ui';

export function rendersApps(capabilities: ClientCapabilities | undefined): boolean {
  const extensions = (capabilities as { extensions?: Record<string, unknown> } | undefined)?.extensions;
  return extensions?.[APPS_EXTENSION] !== undefined;
}

export const inChatApproval: ConsentChannel = {
  name: 'app',
  serves: ({ capabilities, approvesInChat }) => approvesInChat && rendersApps(capabilities),
  reach({ propose, trayShows }) {
    const { proposal, code } = propose();
    const answer = { proposal: proposal.id, code };
    const where = trayShows
      ? 'in the approval shown in this chat or in Roam Companion'
      : 'in the approval shown in this chat';
    return {
      kind: 'wait',
      proposal,
      code,
      message: waitingMessage(proposal, where),
      toChat: {
        [PROPOSAL_META]: proposal.view,
        [APPROVE_META]: { tool: APPROVE_TOOL, arguments: answer },
        [KEEP_META]: { tool: KEEP_TOOL, arguments: answer },
      },
    };
  },
};
