import type { IncomingMessage, ServerResponse } from 'node:http';
import { eventChannels } from '../../src-shared/constants.ts';
import type { TrayCore } from '../core/tray-core.ts';

/** `GET /events`: every core event as a Server-Sent Event named after its channel. */
export function handleEvents(core: TrayCore, req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
  });
  res.write('retry: 1000\n: connected\n\n');
  const unsubscribes = eventChannels.map((channel) =>
    core.on(channel, (payload) => {
      res.write(`event: ${channel}\ndata: ${JSON.stringify(payload)}\n\n`);
    }),
  );
  const stop = () => unsubscribes.forEach((unsubscribe) => unsubscribe());
  req.on('close', stop);
  res.on('close', stop);
}
