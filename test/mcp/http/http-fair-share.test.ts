/**
 * One key cannot take what the others need, over real HTTP against the built bin (small limits,
 * outcomes only, no timing): a key holds at most its share of the chats in both protocol eras
 * while another key still gets in; at the server's cap the fullest key's least recently used chat
 * makes room for a key that holds fewer; past the connection limit a new connection gets a clear
 * 503; a request whose headers or body arrive too slowly gets a clear 408 and its connection ends.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonOf } from '../../harness/mcp-bin.ts';
import {
  RAW_INITIALIZE,
  startHttpWorld,
  type Era,
  type HttpClient,
  type HttpWorld,
} from '../../harness/http-world.ts';

const PER_KEY = 2;
const MAX_CHATS = 4;
const MAX_CONNECTIONS = 6;

/** The first request of a new chat, raw, so the refusal's body can be read: a 2025 initialize or a 2026-07-28 discover. */
async function firstRequest(
  world: HttpWorld,
  era: Era,
  key: string,
  chatId: string,
): Promise<{ status: number; reason?: string; message?: string }> {
  const body =
    era === 'v1'
      ? RAW_INITIALIZE
      : {
          jsonrpc: '2.0',
          id: 1,
          method: 'server/discover',
          params: {
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2026-07-28',
              'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
              'io.modelcontextprotocol/clientCapabilities': {},
            },
          },
        };
  const response = await fetch(world.url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(era === 'v2' ? { 'mcp-protocol-version': '2026-07-28', 'mcp-session-id': chatId } : {}),
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const error = (
    JSON.parse(text.startsWith('{') ? text : '{}') as {
      error?: { message: string; data?: { reason?: string } };
    }
  ).error;
  return { status: response.status, reason: error?.data?.reason, message: error?.message };
}

/** A raw connection, and everything the server writes to it until it closes it. */
function rawConnection(port: number): { socket: Socket; answer: Promise<string> } {
  const socket = connect(port, '127.0.0.1');
  const answer = new Promise<string>((resolve) => {
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    socket.on('close', () => resolve(text));
    socket.on('error', () => {});
  });
  return { socket, answer };
}

function connected(socket: Socket): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
}

// Three servers of their own, side by side: the slow requests' timeouts are waited for while the
// others run.
describe.concurrent('one key, connection or request cannot take what the others need', () => {
  describe('chats: a fair share per key', () => {
    let world: HttpWorld;
    beforeAll(async () => {
      world = await startHttpWorld({
        keys: { greedy: { access: 'read-only' }, other: undefined, third: undefined },
        env: {
          ROAM_MCP_HTTP_MAX_CHATS: String(MAX_CHATS),
          ROAM_MCP_HTTP_MAX_CHATS_PER_KEY: String(PER_KEY),
        },
      });
    }, 60_000);
    afterAll(() => world?.close());

    it('one key holds at most its share in both eras; the others still get in, then the fullest key makes room', async () => {
      const greedy: HttpClient[] = [];
      const eras: Era[] = ['v1', 'v2'];
      for (let i = 0; i < PER_KEY; i++) {
        greedy.push(await world.connect({ era: eras[i % 2]!, key: world.keys.greedy!, chatId: `g${i}` }));
      }
      for (const era of eras) {
        const refused = await firstRequest(world, era, world.keys.greedy!, `more-${era}`);
        expect(refused, era).toMatchObject({ status: 503, reason: 'TOO_MANY_SESSIONS_FOR_KEY' });
        expect(refused.message, era).toContain(`The key 'greedy' already holds ${PER_KEY} chats`);
        expect(refused.message, era).toContain('roam-mcp key create');
      }
      // Another key gets its share, in both eras, while greedy's chats stay served.
      const other = [
        await world.connect({ era: 'v1', key: world.keys.other! }),
        await world.connect({ era: 'v2', key: world.keys.other!, chatId: 'o1' }),
      ];
      for (const client of [...greedy, ...other]) jsonOf(await client.call('list_graphs'));
      // The server is full (4 of 4): a third key's chat takes the least recently used chat of a key
      // holding more than it will (greedy's first, used longest ago).
      await greedy[1]!.call('list_graphs');
      for (const client of other) await client.call('list_graphs');
      const third = await world.connect({ era: 'v1', key: world.keys.third! });
      jsonOf(await third.call('list_graphs'));
      await expect(greedy[0]!.call('list_graphs')).rejects.toThrow(
        /unknown to the server|Session not found|404/,
      );
      for (const client of [greedy[1]!, ...other]) jsonOf(await client.call('list_graphs'));
      // Everyone holds at most as much as the newcomer would: the cap holds, and says so.
      for (const era of eras) {
        const full = await firstRequest(world, era, world.keys.third!, 't2');
        expect(full, era).toMatchObject({ status: 503, reason: 'TOO_MANY_SESSIONS' });
        expect(full.message, era).toContain(`already serves ${MAX_CHATS} chats, its limit`);
      }
    });
  });

  describe('connections: capped, slow requests timed out', () => {
    let world: HttpWorld;
    beforeAll(async () => {
      world = await startHttpWorld({
        keys: { good: undefined },
        env: {
          ROAM_MCP_HTTP_MAX_CONNECTIONS: String(MAX_CONNECTIONS),
          // Held connections must outlive the test; slow ones are tested in the world below.
          ROAM_MCP_HTTP_HEADERS_TIMEOUT_MS: '600000',
          ROAM_MCP_HTTP_REQUEST_TIMEOUT_MS: '600000',
        },
      });
    }, 60_000);
    afterAll(() => world?.close());

    it('past the connection limit a new connection is answered 503 and closed; room comes back', async () => {
      const held = Array.from({ length: MAX_CONNECTIONS }, () => rawConnection(world.port));
      await Promise.all(held.map(({ socket }) => connected(socket)));
      // The server accepts connections in the order they came: the extra one comes after the held.
      const extra = rawConnection(world.port);
      const answer = await extra.answer;
      expect(answer).toMatch(/^HTTP\/1\.1 503 /);
      expect(answer).toContain('TOO_MANY_CONNECTIONS');
      expect(answer).toContain(`already has ${MAX_CONNECTIONS} open connections`);
      for (const { socket, answer: closed } of held) {
        socket.destroy();
        await closed;
      }
      // The server sees those closes in its own time: the next connection gets in once it has.
      await expect
        .poll(async () => (await firstRequest(world, 'v1', 'not-a-key', '')).reason, { timeout: 10_000 })
        .toBe('KEY_INVALID');
      const client = await world.connect({ era: 'v2', key: world.keys.good! });
      jsonOf(await client.call('list_graphs'));
      await client.close();
    });
  });

  describe('slow requests', () => {
    let world: HttpWorld;
    beforeAll(async () => {
      world = await startHttpWorld({
        keys: { good: undefined },
        env: { ROAM_MCP_HTTP_HEADERS_TIMEOUT_MS: '1000', ROAM_MCP_HTTP_REQUEST_TIMEOUT_MS: '2000' },
      });
    }, 60_000);
    afterAll(() => world?.close());

    it('headers that never end, and a body that never ends: a clear 408, the connection closed', async () => {
      const slowHeaders = rawConnection(world.port);
      await connected(slowHeaders.socket);
      slowHeaders.socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${world.port}\r\n`);
      const slowBody = rawConnection(world.port);
      await connected(slowBody.socket);
      slowBody.socket.write(
        `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${world.port}\r\nAuthorization: Bearer ${world.keys.good}\r\n` +
          'Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{"jsonrpc":',
      );
      for (const answer of [await slowHeaders.answer, await slowBody.answer]) {
        expect(answer).toMatch(/^HTTP\/1\.1 408 /);
        expect(answer).toContain('REQUEST_TIMEOUT');
        expect(answer).toContain('within 1000 ms');
      }
      const client = await world.connect({ era: 'v2', key: world.keys.good! });
      jsonOf(await client.call('list_graphs'));
      await client.close();
      expect(world.transcript()).not.toContain(world.keys.good!);
    });
  });
});
