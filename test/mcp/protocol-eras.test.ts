/**
 * The same bin, opened the three ways clients open a stdio session, on the wire (hand-written
 * JSON-RPC lines, so nothing an SDK adds or strips hides what the server sends): `initialize` at
 * 2025-06-18 and 2025-11-25, and 2026-07-28's `server/discover` with the per-request `_meta`
 * envelope and no handshake. 2026-07-28 results carry `resultType`, the cache hints and the
 * server's identity; 2025 results carry none of them; tools/list has one order everywhere, the
 * catalogue's (docs/mcp.md, "Using the 2026-07-28 revision").
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterEach, expect, it } from 'vitest';
import { tools as catalogue } from '../../src-mcp/server/tool-catalogue.ts';
import { binCommand, binEnv, newToken, removeHome, tempHome } from '../harness/mcp-bin.ts';

type Message = { id?: number; result?: Record<string, unknown>; error?: { code: number; message: string } };

const envelope = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'wire-test', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

const opened: Array<{ child: ChildProcessWithoutNullStreams; home: string }> = [];

afterEach(async () => {
  for (const { child, home } of opened.splice(0)) {
    child.kill();
    await removeHome(home);
  }
});

/** The bin with one graph from env vars; `send` writes a request and resolves with its answer. */
async function openBin() {
  const home = await tempHome();
  const [command, args] = binCommand();
  const child = spawn(command, args, {
    env: binEnv(home, { ROAM_GRAPH: 'solo', ROAM_API_TOKEN: newToken() }),
  });
  opened.push({ child, home });
  const waiting = new Map<number, (message: Message) => void>();
  createInterface({ input: child.stdout }).on('line', (line) => {
    const message = JSON.parse(line) as Message;
    if (message.id !== undefined) waiting.get(message.id)?.(message);
  });
  let nextId = 1;
  return {
    send(method: string, params: Record<string, unknown> = {}): Promise<Message> {
      const id = nextId++;
      return new Promise((resolve) => {
        waiting.set(id, resolve);
        child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
      });
    },
    notify(method: string) {
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method })}\n`);
    },
  };
}

const names = (message: Message) => (message.result?.tools as Array<{ name: string }>).map((t) => t.name);
const catalogueOrder = catalogue.map((t) => t.name);

it.each(['2025-06-18', '2025-11-25'])('initialize at %s: the 2025 wire, no 2026 fields', async (version) => {
  const bin = await openBin();
  const init = await bin.send('initialize', {
    protocolVersion: version,
    capabilities: {},
    clientInfo: { name: 'wire-test', version: '1' },
  });
  expect(init.result).toMatchObject({ protocolVersion: version, serverInfo: { name: 'roam-mcp' } });
  bin.notify('notifications/initialized');
  const list = await bin.send('tools/list');
  for (const field of ['resultType', 'ttlMs', 'cacheScope']) expect(list.result).not.toHaveProperty(field);
  expect(names(list)).toEqual(catalogueOrder.filter((name) => names(list).includes(name)));
});

it('server/discover at 2026-07-28: no handshake, resultType, cache hints and serverInfo on every result', async () => {
  const bin = await openBin();
  const discover = await bin.send('server/discover', { _meta: envelope });
  expect(discover.result).toMatchObject({
    resultType: 'complete',
    supportedVersions: ['2026-07-28'],
    capabilities: { tools: { listChanged: true }, resources: { listChanged: true } },
    ttlMs: 3_600_000,
    cacheScope: 'private',
    _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'roam-mcp' } },
  });
  expect(discover.result?.instructions).toMatch(/select_graph/);

  const first = await bin.send('tools/list', { _meta: envelope });
  expect(first.result).toMatchObject({ resultType: 'complete', ttlMs: 60_000, cacheScope: 'private' });
  const again = await bin.send('tools/list', { _meta: envelope });
  expect(names(again)).toEqual(names(first));
  expect(names(first)).toEqual(catalogueOrder.filter((name) => names(first).includes(name)));
  expect(names(first)).toContain('select_graph');

  const templates = await bin.send('resources/templates/list', { _meta: envelope });
  expect(templates.result).toMatchObject({ ttlMs: 3_600_000, cacheScope: 'private' });
  const resources = await bin.send('resources/list', { _meta: envelope });
  expect(resources.result).toMatchObject({ ttlMs: 60_000, cacheScope: 'private' });

  const call = await bin.send('tools/call', { _meta: envelope, name: 'list_graphs', arguments: {} });
  expect(call.result).toMatchObject({
    resultType: 'complete',
    structuredContent: { items: [{ name: 'solo' }] },
  });
  expect(call.result).not.toHaveProperty('ttlMs');
});

it('discover then initialize is the 2025 fallback; after a served 2026-07-28 request, initialize is refused', async () => {
  const init = {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'wire-test', version: '1' },
  };
  const probing = await openBin();
  await probing.send('server/discover', { _meta: envelope });
  expect((await probing.send('initialize', init)).result).toMatchObject({ protocolVersion: '2025-11-25' });

  const pinned = await openBin();
  await pinned.send('server/discover', { _meta: envelope });
  await pinned.send('tools/list', { _meta: envelope });
  const refused = await pinned.send('initialize', init);
  expect(refused.error?.message).toMatch(/Unsupported protocol version: 2025-11-25/);
  expect((await pinned.send('tools/list')).error).toBeDefined();
});

it('both eras list the same tools in the same order', async () => {
  const legacy = await openBin();
  await legacy.send('initialize', {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'wire-test', version: '1' },
  });
  legacy.notify('notifications/initialized');
  const modern = await openBin();
  await modern.send('server/discover', { _meta: envelope });
  expect(names(await modern.send('tools/list', { _meta: envelope }))).toEqual(
    names(await legacy.send('tools/list')),
  );
});
