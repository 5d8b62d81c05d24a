/**
 * Roam Companion: when it shows this server's proposals (the server is the tray's HTTP server), a
 * waiting proposal answered there. The one-time values stay in this process: the chat is told
 * only that the change waits.
 */
import { waitingMessage } from '../outcome.ts';
import type { ConsentChannel } from './channel.ts';

export const companion: ConsentChannel = {
  name: 'tray',
  serves: ({ trayShows }) => trayShows,
  reach({ propose }) {
    const { proposal, code } = propose();
    return { kind: 'wait', proposal, code, message: waitingMessage(proposal, 'in Roam Companion') };
  },
};
