/**
 * A waiting proposal (src-mcp/gate/proposals.ts) for a client that renders MCP Apps but cannot ask
 * by elicitation, through the built bin in both eras: the write returns at once with nothing
 * written; the one-time values that answer it are only in the result's `_meta`; the app-only
 * tools are listed to apps clients only and accept nothing but a live proposal's own id and code,
 * once, from its own chat; Approve writes (journaled, undoable) unless the page changed since;
 * Keep writes nothing and is remembered for the page. A plain client is never held.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { PageSpec } from '../../emulator/index.ts';
import { consentClient, type ConsentClient, type Era } from '../../harness/consent-client.ts';
import { jsonOf, newToken, textOf } from '../../harness/mcp-bin.ts';
import { startStdioWorld, type StdioWorld } from '../../harness/stdio-world.ts';
import { blocks, uidOf } from './numbered-blocks.ts';

const TOKEN = newToken();
const STRICT = newToken();
const SECRET = 'HIDDEN-5512';

function pagesFor(t: string): PageSpec[] {
  return ['Doomed', 'Edited', 'Kept', 'Guessed', 'Plain'].map((name, k) => ({
    title: `${name} ${t}`,
    uid: uidOf(`${name.slice(0, 2).toLowerCase()}${t}`, 0),
    children: [
      ...blocks(`${name.slice(0, 1).toLowerCase()}${k}${t}`, 12),
      { string: `${SECRET} #.rm-hide`, children: [`${SECRET} below`] },
    ],
  }));
}

let world: StdioWorld;
beforeAll(async () => {
  world = await startStdioWorld({
    emulator: {
      graphs: [
        { name: 'g', content: ['1', '2'].flatMap(pagesFor), tokens: [{ token: TOKEN, accessLevel: 'full' }] },
        { name: 'strict', content: pagesFor('s'), tokens: [{ token: STRICT, accessLevel: 'full' }] },
      ],
    },
    config: [
      { name: 'g', token: TOKEN, accessLevel: 'full' },
      { name: 'strict', token: STRICT, accessLevel: 'full', whenNobodyCanAsk: 'refuse' },
    ],
    orient: ['g', 'strict'],
  });
});
afterAll(() => world?.close());

const exists = (uid: string, graph = 'g') =>
  world.emulator.graph(graph).run('data.q', ['[:find ?e . :in $ ?u :where [?e :block/uid ?u]]', uid]) != null;

interface Answer {
  tool: string;
  arguments: { proposal: string; code: string };
}
const approveOf = (result: CallToolResult) => result._meta?.['roam-companion/approve'] as Answer;
const keepOf = (result: CallToolResult) => result._meta?.['roam-companion/keep'] as Answer;
const errorCode = (result: CallToolResult) =>
  result.isError ? (JSON.parse(textOf(result)) as { error: { code: string } }).error.code : undefined;

describe.each([
  ['2025-11-25', '1'],
  ['2026-07-28', '2'],
] as const)('on %s', (era: Era, t) => {
  let app: ConsentClient;
  let plain: ConsentClient;
  beforeAll(async () => {
    // Each era's chats share a data folder (one consent ledger) of their own.
    const env = { ROAM_COMPANION_DATA_DIR: `${world.home}/data-${era}` };
    app = await consentClient(world.home, era, { apps: true, env });
    plain = await consentClient(world.home, era, { env });
    for (const c of [app, plain]) jsonOf(await c.call('select_graph', { graph: 'g' }));
  });
  afterAll(() => Promise.all([app?.close(), plain?.close()]));

  it('lists the app-only tools to the apps client only, and shows the approval view with the writes it may hold', async () => {
    const appTools = await app.listTools();
    const plainTools = await plain.listTools();
    for (const name of ['approve_change', 'keep_change', 'read_proposal']) {
      expect(appTools.find((tool) => tool.name === name)?._meta).toEqual({ ui: { visibility: ['app'] } });
      expect(plainTools.some((tool) => tool.name === name)).toBe(false);
    }
    for (const name of ['delete_page', 'delete_blocks', 'update_page_markdown', 'undo_changes'])
      expect(appTools.find((tool) => tool.name === name)?._meta).toEqual({
        ui: { resourceUri: 'ui://roam-mcp/change-review.html' },
      });
  });

  it('holds a big delete as a proposal; only its own values approve it, once, and the delete is journaled and undoable', async () => {
    const page = uidOf(`do${t}`, 0);
    const held = await app.call('delete_page', { uid: page });
    expect(held.isError).toBeFalsy();
    expect(textOf(held)).toMatch(
      /^Waiting for the person, nothing changed yet: Delete the page 'Doomed .+' and its 14 blocks \(2 of them hidden\)/,
    );
    const approve = approveOf(held);
    expect(approve.tool).toBe('approve_change');
    expect(Object.keys(approve.arguments).sort()).toEqual(['code', 'proposal']);
    // The model reads the content: the code is never there, nor any hidden text anywhere.
    expect(JSON.stringify(held.content)).not.toContain(approve.arguments.code);
    expect(JSON.stringify(held)).not.toContain(SECRET);
    expect(exists(page)).toBe(true);

    const { proposal, code } = approve.arguments;
    const altered = `${code.slice(0, -1)}${code.endsWith('A') ? 'B' : 'A'}`;
    const attempts: Array<Record<string, unknown>> = [
      { proposal: 'p-made0up000', code: 'made-up' },
      { proposal, code: altered },
      { uid: page },
      { proposal, code, uid: page },
      { proposal: `${proposal}x`, code },
    ];
    for (const args of attempts)
      expect(errorCode(await app.call('approve_change', args))).toBe('INVALID_PARAMS');
    expect(exists(page)).toBe(true);

    const done = await app.call('approve_change', { proposal, code });
    expect(done.isError).toBeFalsy();
    expect(textOf(done)).toMatch(/^Approved by the person and done \(delete_page\)/);
    expect(exists(page)).toBe(false);
    expect(errorCode(await app.call('approve_change', { proposal, code }))).toBe('INVALID_PARAMS');
    expect(errorCode(await app.call('keep_change', { proposal, code }))).toBe('INVALID_PARAMS');

    const listed = jsonOf<{
      proposals: Array<{ id: string; status: string; tool: string }>;
      changes: Array<{ id: string; tool: string; undoable: boolean }>;
    }>(await app.call('list_changes', {}));
    expect(listed.proposals.find((p) => p.id === proposal)).toMatchObject({
      status: 'approved',
      tool: 'delete_page',
    });
    const change = listed.changes[0]!;
    expect(change).toMatchObject({ tool: 'delete_page', undoable: true });
    // Putting the page back takes nothing away: the undo is not held.
    expect(jsonOf<{ undone: number }>(await app.call('undo_changes', { ids: [change.id] })).undone).toBe(1);
    expect(exists(page)).toBe(true);
  });

  it('a person editing the page between the proposal and Approve: nothing is deleted and the outcome says why', async () => {
    const page = uidOf(`ed${t}`, 0);
    const { proposal, code } = approveOf(await app.call('delete_page', { uid: page })).arguments;
    world.emulator
      .graph('g')
      .run('data.block.update', [{ block: { uid: uidOf(`e1${t}`, 3), string: 'the person wrote this' } }]);
    const result = await app.call('approve_change', { proposal, code });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toMatch(
      /^Not done: the page changed after the person was asked\. Nothing was changed\./,
    );
    expect(exists(page)).toBe(true);
    const listed = jsonOf<{ proposals: Array<{ id: string; status: string }> }>(
      await app.call('list_changes', {}),
    );
    expect(listed.proposals.find((p) => p.id === proposal)?.status).toBe('changed');
  });

  it('Keep writes nothing and is remembered for the page: one block of it through another tool is held too', async () => {
    const page = uidOf(`ke${t}`, 0);
    const kept = await app.call(
      'keep_change',
      keepOf(await app.call('delete_page', { uid: page })).arguments,
    );
    expect(textOf(kept)).toMatch(/^Kept: /);
    const one = await app.call('delete_block', { uid: uidOf(`k2${t}`, 0) });
    expect(textOf(one)).toMatch(
      /^Waiting for the person.*Delete 1 block on 'Kept .+'.*declined a change to 'Kept/,
    );
    expect(exists(uidOf(`k2${t}`, 0))).toBe(true);
    expect(exists(page)).toBe(true);
  });

  it('three wrong codes withdraw a proposal: the right one then fails too', async () => {
    const { proposal, code } = approveOf(
      await app.call('delete_page', { uid: uidOf(`gu${t}`, 0) }),
    ).arguments;
    for (const guess of ['a', 'b', 'c'])
      expect(errorCode(await app.call('approve_change', { proposal, code: guess }))).toBe('INVALID_PARAMS');
    expect(errorCode(await app.call('approve_change', { proposal, code }))).toBe('INVALID_PARAMS');
    expect(exists(uidOf(`gu${t}`, 0))).toBe(true);
  });

  it('a plain client (no elicitation, no apps) is not held: the graph’s default goes ahead', async () => {
    expect(jsonOf(await plain.call('delete_page', { uid: uidOf(`pl${t}`, 0) }))).toMatchObject({
      deleted: 'page',
    });
    expect(exists(uidOf(`pl${t}`, 0))).toBe(false);
  });

  it('a graph set to refuse when nobody can be asked: the plain client is refused, says how to be asked, and small steps add up', async () => {
    jsonOf(await plain.call('select_graph', { graph: 'strict' }));
    const refused = await plain.call('delete_page', { uid: uidOf('dos', 0), graph: 'strict' });
    expect(errorCode(refused)).toBe('ACCESS_LEVEL');
    expect(textOf(refused)).toMatch(
      /^\{"error".*Not done: Delete the page 'Doomed s'.*set to refuse such a change when nobody can be asked/,
    );
    expect(exists(uidOf('dos', 0), 'strict')).toBe(true);
    const tens = blocks(t === '1' ? 'e1s' : 'k2s', 12).map((b) => b.uid);
    expect(
      jsonOf(await plain.call('delete_blocks', { uids: tens.slice(0, 6), graph: 'strict' })),
    ).toMatchObject({
      succeeded: 6,
    });
    expect(errorCode(await plain.call('delete_blocks', { uids: tens.slice(6, 12), graph: 'strict' }))).toBe(
      'ACCESS_LEVEL',
    );
    expect(exists(tens[11]!, 'strict')).toBe(true);
  });
});
