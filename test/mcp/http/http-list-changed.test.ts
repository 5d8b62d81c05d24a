/**
 * list_changed reaches every chat of the one HTTP server: a capability probe made for one chat's
 * call changes the visible tools, and both a 2025 session (on its own stream) and a 2026-07-28
 * client (on its subscriptions/listen stream) are told; the tool is then listed for both.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { jsonOf, newToken } from '../../harness/mcp-bin.ts';
import { startHttpWorld, type HttpClient, type HttpWorld } from '../../harness/http-world.ts';

const A = newToken();
let world: HttpWorld;

beforeAll(async () => {
  world = await startHttpWorld({
    emulator: {
      semanticSearch: true,
      graphs: [{ name: 'alpha', content: 'demo', tokens: [{ token: A, accessLevel: 'full' }] }],
    },
    config: [{ name: 'alpha', nickname: 'Alpha', token: A }],
    keys: { one: undefined, two: undefined },
  });
}, 60_000);

afterAll(() => world?.close());

/** A client and a promise of its first tools/list_changed. */
async function listening(
  era: 'v1' | 'v2',
  key: string,
): Promise<{ client: HttpClient; changed: Promise<void> }> {
  let resolve: () => void = () => {};
  const changed = new Promise<void>((done) => (resolve = done));
  const client = await world.connect({
    era,
    key,
    chatId: `${era}-listener`,
    onNotification: (n) => {
      if (n.method === 'notifications/tools/list_changed') resolve();
    },
  });
  return { client, changed };
}

it('a probe for one chat tells every chat, in both eras', async () => {
  const legacy = await listening('v1', world.keys.one!);
  const modern = await listening('v2', world.keys.two!);
  for (const { client } of [legacy, modern])
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('semantic_search');
  jsonOf(await legacy.client.call('list_graphs'));
  await legacy.client.call('get_page', { title: 'Project Apollo' });
  await Promise.all([legacy.changed, modern.changed]);
  for (const { client } of [legacy, modern])
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('semantic_search');
});
