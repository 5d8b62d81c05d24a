/**
 * `roam-mcp serve --http` through the built bin, with real SDK clients of both eras over HTTP and
 * the emulator as Roam: both eras are served; two chats on one server keep their own selection,
 * tickets and undo scope; a key's level caps every graph for its chats; and the key never appears
 * in anything the server said.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allTextOf, errorOf, jsonOf } from '../../harness/mcp-bin.ts';
import { fullDemoGraph, startHttpWorld, type Era, type HttpWorld } from '../../harness/http-world.ts';

const work = fullDemoGraph('work', 'Work');
const home = fullDemoGraph('home', 'Home');
let world: HttpWorld;

beforeAll(async () => {
  world = await startHttpWorld({
    emulator: {
      graphs: [work.graph, home.graph],
    },
    config: [work.config, home.config],
    keys: {
      'claude-code': undefined,
      cursor: undefined,
      reader: { access: 'read-only' },
      narrow: { tools: 'core' },
    },
  });
}, 60_000);

afterAll(async () => {
  const said = world?.transcript() ?? '';
  for (const key of Object.values(world?.keys ?? {})) expect(said).not.toContain(key);
  expect(said).not.toContain(work.token);
  await world?.close();
});

it('says where it serves: on stderr, and in a 0600 file of the data folder with its pid', async () => {
  const file = path.join(world.home, 'data', 'http-server.json');
  expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
    url: world.url,
    pid: world.server.pid,
    chats: 0,
  });
  expect((await stat(file)).mode & 0o777).toBe(0o600);
  expect(world.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
});

it('counts the chats it serves in that file, as they start and end (the tray shows them)', async () => {
  const file = path.join(world.home, 'data', 'http-server.json');
  const chats = async () => (JSON.parse(await readFile(file, 'utf8')) as { chats: number }).chats;
  const session = await world.connect({ era: 'v1', key: world.keys.cursor! });
  await world.connect({ era: 'v2', key: world.keys.cursor!, chatId: 'counted' });
  await expect.poll(chats).toBe(2);
  await session.close(); // a 2025 session ends with its DELETE
  await expect.poll(chats).toBe(1);
  expect((await stat(file)).mode & 0o777).toBe(0o600);
});

const currentNickname = async (client: Awaited<ReturnType<HttpWorld['connect']>>) =>
  jsonOf<{ nickname: string }>(await client.call('current_graph')).nickname;

describe.each<Era>(['v1', 'v2'])('era %s', (era) => {
  it('serves tools and keeps selection and tickets per chat on one server', async () => {
    const a = await world.connect({ era, key: world.keys['claude-code']!, chatId: `${era}-a` });
    const b = await world.connect({ era, key: world.keys.cursor!, chatId: `${era}-b` });
    expect((await a.listTools()).tools.map((t) => t.name)).toContain('select_graph');
    jsonOf(await a.call('select_graph', { graph: 'Work' }));
    jsonOf(await b.call('select_graph', { graph: 'Home' }));
    expect(await currentNickname(a)).toBe('Work');
    expect(await currentNickname(b)).toBe('Home');
    // b's ticket is for Home only: its write to Work is refused, a's is not.
    expect(
      errorOf(await b.call('create_block', { graph: 'Work', markdown: 'x', pageTitle: 'Inbox' })).code,
    ).toBe('GRAPH_TICKET_REQUIRED');
    jsonOf(await a.call('create_block', { markdown: `from ${era} a`, pageTitle: 'Inbox' }));
    await a.close();
    await b.close();
  });

  it('undo_changes takes back only the calling chat’s changes', async () => {
    const a = await world.connect({ era, key: world.keys['claude-code']!, chatId: `${era}-undo-a` });
    const b = await world.connect({ era, key: world.keys['claude-code']!, chatId: `${era}-undo-b` });
    for (const client of [a, b]) jsonOf(await client.call('select_graph', { graph: 'Work' }));
    jsonOf(await a.call('create_block', { markdown: `${era} kept by b`, pageTitle: 'Undo Test' }));
    jsonOf(await b.call('create_block', { markdown: `${era} undone by b`, pageTitle: 'Undo Test' }));
    const listed = jsonOf<{ changes: Array<{ summary?: string }> }>(await b.call('list_changes', {}));
    expect(JSON.stringify(listed)).toContain(`${era} undone by b`);
    expect(JSON.stringify(listed)).not.toContain(`${era} kept by b`);
    jsonOf(await b.call('undo_changes', { all: true }));
    const page = allTextOf(await a.call('get_page', { title: 'Undo Test' }));
    expect(page).toContain(`${era} kept by b`);
    expect(page).not.toContain(`${era} undone by b`);
    await a.close();
    await b.close();
  });

  it('a read-only key caps every graph for its chats, whatever the graph allows', async () => {
    const reader = await world.connect({ era, key: world.keys.reader!, chatId: `${era}-reader` });
    const tools = (await reader.listTools()).tools.map((t) => t.name);
    expect(tools).toContain('get_page');
    expect(tools).not.toContain('create_block');
    expect(
      errorOf(await reader.call('create_block', { graph: 'Work', markdown: 'x', pageTitle: 'Inbox' })).code,
    ).toBe('ACCESS_LEVEL');
    await reader.close();
  });

  it("a key's toolsets limit its chats; other chats keep the server's", async () => {
    const narrow = await world.connect({ era, key: world.keys.narrow!, chatId: `${era}-narrow` });
    const wide = await world.connect({ era, key: world.keys.cursor!, chatId: `${era}-wide` });
    const narrowTools = (await narrow.listTools()).tools.map((t) => t.name);
    expect(narrowTools).toContain('get_page');
    expect(narrowTools).not.toContain('get_hubs');
    expect(errorOf(await narrow.call('get_hubs', { graph: 'Work' })).code).toBe('TOOLSET_NOT_ENABLED');
    expect((await wide.listTools()).tools.map((t) => t.name)).toContain('get_hubs');
    await narrow.close();
    await wide.close();
  });
});
