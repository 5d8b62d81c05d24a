/**
 * The one place a call's channel is chosen: the first of CHANNELS, best first, that serves its
 * connection. A new channel is a file in this folder and its line here.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { ConsentChannel, Connection } from './channel.ts';
import { companion } from './companion.ts';
import { formElicitation } from './form-elicitation.ts';
import { inChatApproval } from './in-chat-approval.ts';
import { nobody } from './nobody.ts';
import { nobodyRemote } from './nobody-remote.ts';

const CHANNELS: readonly ConsentChannel[] = [
  formElicitation,
  inChatApproval,
  companion,
  nobodyRemote,
  nobody,
];

export function chooseChannel(connection: Connection): ConsentChannel {
  return CHANNELS.find((channel) => channel.serves(connection)) ?? nobody;
}

/** The client's capabilities: the request's `_meta` on 2026-07-28, `initialize` on 2025 sessions. */
export function capabilitiesOf(
  ctx: ServerContext,
  sessionCapabilities: ClientCapabilities | undefined,
): ClientCapabilities | undefined {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  return (envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined) ?? sessionCapabilities;
}
