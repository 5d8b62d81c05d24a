/**
 * The emulator in its own process for bench/navigation.ts, so the benchmark's process.cpuUsage()
 * measures our server's work only. Talks over the IPC channel: replies `ready` with the port,
 * then answers `requests` (the request log since the last `clear`), `edit` and `close`.
 */
import { startEmulator } from '../test/emulator/index.ts';

interface Start {
  home: string;
  graph: string;
  blocks: number;
  token: string;
}

const send = (message: unknown) => process.send?.(message);

process.once('message', async (start: Start) => {
  const began = performance.now();
  const emulator = await startEmulator({
    home: start.home,
    port: 0,
    graphs: [
      {
        name: start.graph,
        content: { generate: { blocks: start.blocks, seed: 7 } },
        tokens: [{ token: start.token, accessLevel: 'read-only' }],
      },
    ],
  });
  send({
    type: 'ready',
    url: emulator.url,
    loadMs: performance.now() - began,
    counts: emulator.graph(start.graph).counts(),
  });
  process.on('message', async (message: { type: string; text?: string; parentUid?: string }) => {
    if (message.type === 'requests') {
      send({
        type: 'requests',
        requests: emulator.requests
          .filter((r) => r.action)
          .map((r) => ({ action: r.action, status: r.status })),
      });
    } else if (message.type === 'clear') {
      emulator.clearRequests();
      send({ type: 'cleared' });
    } else if (message.type === 'edit') {
      emulator
        .graph(start.graph)
        .run('data.block.create', [
          { location: { 'parent-uid': message.parentUid, order: 'last' }, block: { string: message.text } },
        ]);
      send({ type: 'edited' });
    } else if (message.type === 'close') {
      await emulator.close();
      send({ type: 'closed' });
      process.exit(0);
    }
  });
});
