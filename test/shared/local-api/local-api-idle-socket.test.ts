/**
 * A write to the Local API is not retried when its kept-alive socket turns out to be closed, so
 * the client must not reuse a socket that sat idle long enough for the server to be closing it
 * (Node servers close idle sockets after 5 s). The stand-in server here resets any connection
 * used a second time after an idle pause: a reused idle socket fails the write; a fresh one works.
 */
import { rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { LocalApiClient } from '../../../src-shared/local-api/index.ts';
import { tempDir } from '../../harness/temp-dir.ts';

const TOKEN = 'roam-graph-local-token-AAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
let server: http.Server;
let home: string;
const sockets = new Map<Socket, number>();

beforeAll(async () => {
  home = await tempDir('idle-socket-');
  server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const uses = (sockets.get(req.socket) ?? 0) + 1;
      sockets.set(req.socket, uses);
      // What a server closing an idle keep-alive socket looks like to the client.
      if (uses > 1) return req.socket.destroy();
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true,"result":"ok"}');
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await writeFile(path.join(home, '.roam-local-api.json'), JSON.stringify({ port }));
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await rm(home, { recursive: true, force: true });
});

afterEach(() => {
  vi.useRealTimers();
});

it('a write after an idle pause goes out on a fresh socket', async () => {
  const client = new LocalApiClient({ home });
  const graph = { name: 'g', type: 'hosted' as const, token: TOKEN };
  // Only the clock moves (the client stamps a freed socket with Date.now()): no real wait.
  vi.useFakeTimers({ toFake: ['Date'] });
  expect(await client.call(graph, 'data.block.create', [{}], {})).toBe('ok');
  vi.setSystemTime(Date.now() + 2_100);
  expect(await client.call(graph, 'data.block.create', [{}], {})).toBe('ok');
  expect([...sockets.values()]).toEqual([1, 1]);
});
