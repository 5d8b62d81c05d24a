/**
 * Nobody can be asked from a remote chat (src-mcp/remote/): a write that needs the person's yes
 * is refused whatever the graph's setting. Whoever holds the connection's token may be far from
 * the machine, so the undo is no reason to let them take much away unasked (issue 50).
 */
import type { ConsentChannel } from './channel.ts';

export const nobodyRemote: ConsentChannel = {
  name: 'none',
  serves: ({ remote }) => remote === true,
  refusesUnasked: true,
};
