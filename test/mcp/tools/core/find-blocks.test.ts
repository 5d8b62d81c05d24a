/**
 * find_blocks through the built bin against the emulator: each filter alone and combined, times
 * relative to now (the emulator's loaded blocks are from January 2026, the agent's from today),
 * hidden blocks and everything under them never returned, paging, one Datalog round trip for the
 * match (and one for the breadcrumbs), a clear error for a time it cannot read.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Emulator, type PageSpec } from '../../../emulator/index.ts';
import { errorOf, jsonOf, newToken, type McpHandle } from '../../../harness/mcp-bin.ts';
import { startStdioWorld, type StdioWorld } from '../../../harness/stdio-world.ts';

const TOKEN = newToken();
const content: PageSpec[] = [
  {
    title: 'Tasks',
    uid: 'taskspage',
    children: [
      { string: '{{[[TODO]]}} Buy milk', uid: 'todomilk1' },
      { string: '{{[[DONE]]}} Buy bread', uid: 'donebread' },
      {
        string: 'Errands #shopping',
        uid: 'errands01',
        children: [{ string: '{{[[TODO]]}} Call the shop', uid: 'todoshop1' }],
      },
      {
        string: 'secret list #.rm-hide',
        uid: 'secretlst',
        children: [{ string: '{{[[TODO]]}} hidden milk task', uid: 'hiddentsk' }],
      },
    ],
  },
  {
    title: 'Other',
    uid: 'otherpage',
    children: [{ string: 'milk in another page [[shopping]]', uid: 'othermilk' }],
  },
];

interface Hit {
  uid: string;
  page: string;
  breadcrumb: string[];
  text: string;
  created: string;
  edited: string;
}
interface Found {
  items: Hit[];
  total: number;
  offset: number;
  limit: number;
  nextOffset?: number;
}

let world: StdioWorld | undefined;
let emulator: Emulator;
let mcp: McpHandle;
let fresh: string;

const find = async (args: Record<string, unknown>) => jsonOf<Found>(await mcp.call('find_blocks', args));
const uids = async (args: Record<string, unknown>) => (await find(args)).items.map((hit) => hit.uid).sort();

beforeAll(async () => {
  world = await startStdioWorld({
    emulator: { graphs: [{ name: 'main', content, tokens: [{ token: TOKEN, accessLevel: 'full' }] }] },
    config: [{ name: 'main', token: TOKEN, accessLevel: 'full' }],
    orient: ['main'],
  });
  ({ emulator, mcp } = world);
  const made = jsonOf<{ uids: string[] }>(
    await mcp.call('create_block', { parentUid: 'taskspage', markdown: '{{[[TODO]]}} fresh milk, today' }),
  );
  fresh = made.uids[0] as string;
});
afterAll(() => world?.close());
beforeEach(() => emulator.clearRequests());

describe('find_blocks', () => {
  it('finds by text in any case, with page, breadcrumb, text and times, never a hidden block', async () => {
    const found = await find({ text: 'MILK', sort: 'created-asc' });
    expect(found.items.map((hit) => hit.uid)).toEqual(['todomilk1', 'othermilk', fresh]);
    expect(found.items[0]).toEqual({
      uid: 'todomilk1',
      page: 'Tasks',
      breadcrumb: [],
      text: '{{[[TODO]]}} Buy milk',
      created: expect.stringMatching(/^2026-01-01T/),
      edited: expect.stringMatching(/^2026-01-01T/),
    });
    expect(found.total).toBe(3);
    expect(JSON.stringify(found)).not.toMatch(/hidden|secret/);
    expect(await uids({ text: 'hidden milk' })).toEqual([]);
    expect(await uids({ text: '.rm-hide' })).toEqual([]);
    // The text is literal, never a pattern.
    expect(await uids({ text: '[[shopping]]' })).toEqual(['othermilk']);
    expect(await uids({ text: '.*' })).toEqual([]);
  });

  it('finds by TODO / DONE status, hidden tasks left out, with the breadcrumb of a nested one', async () => {
    expect(await uids({ status: 'todo' })).toEqual([fresh, 'todomilk1', 'todoshop1'].sort());
    expect(await uids({ status: 'done' })).toEqual(['donebread']);
    const nested = await find({ status: 'todo', text: 'shop' });
    expect(nested.items).toMatchObject([{ uid: 'todoshop1', breadcrumb: ['Errands #shopping'] }]);
  });

  it('finds by page and by tag, and combines them', async () => {
    expect(await uids({ page: 'Other' })).toEqual(['othermilk']);
    expect(await uids({ tag: 'shopping' })).toEqual(['errands01', 'othermilk']);
    expect(await uids({ tag: 'shopping', page: 'Tasks' })).toEqual(['errands01']);
    expect(await uids({ page: 'Tasks', text: 'milk', status: 'todo' })).toEqual([fresh, 'todomilk1'].sort());
    expect(await uids({ page: 'No such page' })).toEqual([]);
  });

  it('finds by creation and edit time: today, yesterday, 7d, ISO dates and times', async () => {
    expect(await uids({ createdAfter: 'today' })).toEqual([fresh]);
    expect(await uids({ editedAfter: '7d' })).toEqual([fresh]);
    expect(await uids({ editedAfter: 'yesterday', status: 'todo' })).toEqual([fresh]);
    expect(await uids({ createdBefore: 'today', text: 'milk' })).toEqual(['othermilk', 'todomilk1']);
    const first = (await find({ sort: 'created-asc', limit: 1 })).items[0] as Hit;
    expect(await uids({ createdAfter: '2020-01-01', createdBefore: first.created })).toEqual([]);
    expect(
      await uids({ createdAfter: first.created, createdBefore: first.created.replace(/\.\d+Z$/, '.999Z') }),
    ).toEqual([first.uid]);
  });

  it('tells an old block edited today from one created today', async () => {
    jsonOf(await mcp.call('update_block', { uid: 'donebread', string: '{{[[DONE]]}} Buy bread and butter' }));
    try {
      expect(await uids({ editedAfter: 'today' })).toEqual([fresh, 'donebread'].sort());
      expect(await uids({ createdAfter: 'today' })).toEqual([fresh]);
      const latest = await find({ sort: 'edited-desc', limit: 1 });
      expect(latest.items[0]).toMatchObject({ uid: 'donebread', text: '{{[[DONE]]}} Buy bread and butter' });
      expect(Date.parse(latest.items[0]!.edited)).toBeGreaterThan(Date.parse(latest.items[0]!.created));
    } finally {
      jsonOf(await mcp.call('update_block', { uid: 'donebread', string: '{{[[DONE]]}} Buy bread' }));
    }
  });

  it('sorts by created or edited time either way and pages like every list', async () => {
    const all = await find({ sort: 'created-desc', limit: 100 });
    expect(all.total).toBe(6);
    const created = all.items.map((hit) => hit.created);
    expect(created).toEqual([...created].sort().reverse());
    expect(all.items[0]?.uid).toBe(fresh);
    const first = await find({ sort: 'created-desc', limit: 4 });
    expect(first).toMatchObject({ total: 6, offset: 0, limit: 4, nextOffset: 4 });
    const last = await find({ sort: 'created-desc', limit: 4, offset: 4 });
    expect(last).toMatchObject({ total: 6, offset: 4, limit: 4 });
    expect(last.nextOffset).toBeUndefined();
    expect([...first.items, ...last.items].map((h) => h.uid)).toEqual(all.items.map((h) => h.uid));
    const edited = (await find({ sort: 'edited-asc', limit: 100 })).items.map((hit) => hit.edited);
    expect(edited).toEqual([...edited].sort());
  });

  it('matches in one Datalog round trip, and pulls the breadcrumbs of the page shown in one more', async () => {
    await find({ text: 'milk', status: 'todo', page: 'Tasks', createdAfter: '2020-01-01' });
    const queries = emulator.requests.filter((r) => r.action === 'data.q' || r.action === 'q');
    expect(queries).toHaveLength(2);
  });

  it('says how to write a time it cannot read', async () => {
    const error = errorOf(await mcp.call('find_blocks', { editedAfter: 'last tuesday' }));
    expect(error.code).toBe('INVALID_PARAMS');
    expect(error.message).toMatch(
      /editedAfter 'last tuesday' is not a time: use an ISO date or time .*today, yesterday.*7d/,
    );
  });
});
