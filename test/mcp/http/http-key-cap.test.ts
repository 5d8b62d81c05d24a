/**
 * A key's access cap, tried by a read-only key's chat over real HTTP against the built bin, in
 * both eras: it cannot add a graph to the person's setup (setup_new_graph, which would widen what
 * every chat reaches), and every refusal it meets names the key that refused and how to change it,
 * never the graph's setting (which allows it) — the same for select_graph's note.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, jsonOf } from '../../harness/mcp-bin.ts';
import { fullDemoGraph, startHttpWorld, type Era, type HttpWorld } from '../../harness/http-world.ts';

const work = fullDemoGraph('work', 'Work');
let world: HttpWorld;

beforeAll(async () => {
  world = await startHttpWorld({
    emulator: {
      graphs: [work.graph, { name: 'fresh', content: 'demo' }],
    },
    config: [work.config],
    keys: { reader: { access: 'read-only' } },
  });
  // The person would approve any dialog in Roam: only our refusal stands between.
  world.emulator.autoDecide({ kind: 'approve' });
}, 60_000);

afterAll(async () => {
  expect(world?.transcript() ?? '').not.toContain(world?.keys.reader ?? 'no key');
  await world?.close();
});

const tokenRequests = () => world.emulator.requests.filter((r) => r.path === '/api/graphs/tokens/request');

function expectNamesTheKey(text: string): void {
  expect(text).toContain("key 'reader'");
  expect(text).toContain('roam-mcp key create');
  expect(text).not.toContain('accessLevel in');
  expect(text).not.toContain('--access-level');
  expect(text).not.toContain('The user chose');
}

describe.each<Era>(['v1', 'v2'])('a read-only key (%s)', (era) => {
  it('lists the graphs Roam offers but does not add one: refused like any write, nothing asked or saved', async () => {
    const reader = await world.connect({ era, key: world.keys.reader!, chatId: `${era}-setup` });
    const listed = jsonOf<{ graphs: Array<{ name: string }> }>(await reader.call('setup_new_graph', {}));
    expect(listed.graphs.map((g) => g.name)).toContain('fresh');
    const asked = tokenRequests().length;
    const refused = errorOf(await reader.call('setup_new_graph', { graph: 'fresh', nickname: 'Fresh' }));
    expect(refused.code).toBe('ACCESS_LEVEL');
    expectNamesTheKey(refused.message);
    expect(tokenRequests().length).toBe(asked);
    const config = JSON.parse(await readFile(path.join(world.home, '.roam-tools.json'), 'utf8')) as {
      graphs: Array<{ name: string }>;
    };
    expect(config.graphs.map((g) => g.name)).toEqual(['work']);
    await reader.close();
  });

  it('a write on a full graph is refused naming the key, and select_graph says the key decides', async () => {
    const reader = await world.connect({ era, key: world.keys.reader!, chatId: `${era}-write` });
    const selected = jsonOf<{ permissions: string[]; permissions_note?: string }>(
      await reader.call('select_graph', { graph: 'Work' }),
    );
    expect(selected.permissions).toEqual(['read']);
    expectNamesTheKey(selected.permissions_note ?? '');
    const refused = errorOf(
      await reader.call('create_block', { graph: 'Work', markdown: 'x', pageTitle: 'Inbox' }),
    );
    expect(refused.code).toBe('ACCESS_LEVEL');
    expect(refused.setting).toBe("key 'reader' (--access read-only)");
    expectNamesTheKey(refused.message);
    await reader.close();
  });
});
