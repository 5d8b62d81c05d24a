/**
 * One gate by effect (src-mcp/gate/consent.ts), tried as an adversary would, through the built
 * bin with real SDK clients that declare form elicitation, in both eras: a decline is remembered
 * for its page whatever tool comes next; a deletion split into small calls is asked once it adds
 * up; an undo counts what it would delete like any delete (by ids, or one change that made many
 * blocks); hidden blocks are counted, never quoted; a small change asks nothing. Each scenario is
 * its own client with its own data folder (its own consent ledger), so what one took away never
 * counts for another (test/mcp/gate/graph-ledger.test.ts shares one).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator, type PageSpec } from '../../emulator/index.ts';
import { consentClient, type Answer, type ConsentClient, type Era } from '../../harness/consent-client.ts';
import { jsonOf, textOf, writeToolsConfig } from '../../harness/mcp-bin.ts';
import { graphWithToken } from '../../harness/stdio-world.ts';
import { removeDir, tempDir } from '../../harness/temp-dir.ts';
import { blocks, uidOf } from './numbered-blocks.ts';

const SECRET = 'SECRET-7731';

function pagesFor(t: string): PageSpec[] {
  return [
    { title: `Big ${t}`, uid: uidOf(`bg${t}`, 0), children: blocks(`b${t}`, 30) },
    { title: `Split ${t}`, uid: uidOf(`sp${t}`, 0), children: blocks(`s${t}`, 25) },
    {
      title: `Small ${t}`,
      uid: uidOf(`sm${t}`, 0),
      children: [{ string: 'a parent', uid: uidOf(`p${t}`, 0), children: ['child one', 'child two'] }],
    },
    {
      title: `Hidden ${t}`,
      uid: uidOf(`hd${t}`, 0),
      children: [
        ...blocks(`h${t}`, 5),
        { string: `${SECRET} #.rm-hide`, children: [`${SECRET} under`, `${SECRET} under too`] },
      ],
    },
    { title: `Made ${t}`, uid: uidOf(`md${t}`, 0), children: [{ string: 'first' }] },
    { title: `Texts ${t}`, uid: uidOf(`tx${t}`, 0), children: blocks(`x${t}`, 12) },
  ];
}

// One graph, `g`, named in ~/.roam-tools.json with a full-access token; only the scenarios' own
// clients start the bin.
let home: string;
let emulator: Emulator;
beforeAll(async () => {
  const g = graphWithToken({ name: 'g', content: ['1', '2'].flatMap(pagesFor) }, { accessLevel: 'full' });
  home = await tempDir('roam-stdio-');
  emulator = await startEmulator({ graphs: [g.graph], home });
  await writeToolsConfig(home, [g.config]);
});
afterAll(async () => {
  await emulator?.close();
  if (home) await removeDir(home);
});

const q = (query: string, ...args: unknown[]) => emulator.graph('g').run('data.q', [query, ...args]);
const onPage = (title: string) =>
  (q('[:find (count ?b) . :in $ ?t :where [?p :node/title ?t] [?b :block/page ?p]]', title) as
    number | null) ?? 0;

describe.each([
  ['2025-11-25', '1'],
  ['2026-07-28', '2'],
] as const)('on %s', (era: Era, t) => {
  let answer: Answer = 'decline';
  const clients: ConsentClient[] = [];
  const client = async () => {
    // Its own data folder: what agents took from the graph is counted per machine, and each
    // scenario here stands for a machine of its own.
    const data = `${home}/data-${era}-${clients.length}`;
    const c = await consentClient(home, era, {
      answer: () => answer,
      env: { ROAM_COMPANION_DATA_DIR: data },
    });
    clients.push(c);
    jsonOf(await c.call('select_graph', { graph: 'g' }));
    return c;
  };
  afterAll(() => Promise.all(clients.map((c) => c.close())));

  it('a declined delete_page is asked again when update_page_markdown "" would empty the page, and when one block of it goes', async () => {
    answer = 'decline';
    const c = await client();
    const page = uidOf(`bg${t}`, 0);
    expect(textOf(await c.call('delete_page', { uid: page }))).toMatch(/declined delete_page/);
    expect(c.asked[0]).toBe(
      `Delete the page 'Big ${t}' and its 30 blocks in graph 'g'? It can be undone from this chat.`,
    );
    const rewrite = await c.call('update_page_markdown', { title: `Big ${t}`, markdown: '' });
    expect(rewrite.isError).toBeFalsy();
    expect(textOf(rewrite)).toMatch(/declined update_page_markdown/);
    expect(c.asked[1]).toBe(
      `Delete 30 blocks on 'Big ${t}' ('b${t} line 0', 'b${t} line 1', 'b${t} line 2' and 27 more) in graph 'g'? The person declined a change to 'Big ${t}' earlier. It can be undone from this chat.`,
    );
    // One block is small, but it is taken from the page the person kept.
    expect(textOf(await c.call('delete_block', { uid: uidOf(`b${t}`, 7) }))).toMatch(/declined delete_block/);
    expect(c.asked[2]).toMatch(
      /^Delete 1 block on 'Big .+' \('b. line 7'\) in graph 'g'\? The person declined a change to 'Big .+' earlier/,
    );
    expect(onPage(`Big ${t}`)).toBe(30);
  });

  it('a deletion split into calls of 10 is asked once it adds up, and after a yes the count starts again', async () => {
    answer = 'decline';
    const c = await client();
    const uids = blocks(`s${t}`, 25).map((b) => b.uid);
    expect(jsonOf(await c.call('delete_blocks', { uids: uids.slice(0, 10) }))).toMatchObject({
      succeeded: 10,
    });
    expect(c.asked).toEqual([]);
    const second = await c.call('delete_blocks', { uids: uids.slice(10, 20) });
    expect(textOf(second)).toMatch(/declined delete_blocks/);
    expect(second.structuredContent).toMatchObject({ success: false, succeeded: 0 });
    expect(c.asked[0]).toMatch(
      /^Delete 10 blocks on 'Split .+' .* Agents already took away 10 blocks there in the last 10 minutes\./,
    );
    expect(onPage(`Split ${t}`)).toBe(15);
    answer = 'accept';
    expect(jsonOf(await c.call('delete_blocks', { uids: uids.slice(10, 20) }))).toMatchObject({
      succeeded: 10,
    });
    expect(c.asked).toHaveLength(2);
    expect(jsonOf(await c.call('delete_blocks', { uids: uids.slice(20, 25) }))).toMatchObject({
      succeeded: 5,
    });
    expect(c.asked).toHaveLength(2);
    expect(onPage(`Split ${t}`)).toBe(0);
  });

  it('replacing the text of 11 blocks is asked like removing them; writing a text as it is replaces nothing', async () => {
    answer = 'decline';
    const c = await client();
    const uids = blocks(`x${t}`, 12).map((b) => b.uid);
    const same = await c.call('update_blocks', {
      updates: uids.map((uid, i) => ({ uid, string: `x${t} line ${i}` })),
    });
    expect(jsonOf(same)).toMatchObject({ succeeded: 12 });
    expect(c.asked).toEqual([]);
    const rewrite = await c.call('update_blocks', {
      updates: uids.slice(0, 11).map((uid) => ({ uid, string: 'rewritten' })),
    });
    expect(textOf(rewrite)).toMatch(/declined update_blocks/);
    expect(c.asked[0]).toMatch(
      new RegExp(
        `^Replace the text of 11 blocks on 'Texts ${t}' \\('x${t} line 0', 'x${t} line 1', 'x${t} line 2' and 8 more\\)`,
      ),
    );
    expect(
      q('[:find (count ?b) . :in $ ?s :where [?b :block/string ?s]]', 'rewritten') as number | null,
    ).toBeNull();
  });

  it('deleting one block with two children asks nothing', async () => {
    const c = await client();
    expect(jsonOf(await c.call('delete_block', { uid: uidOf(`p${t}`, 0) }))).toMatchObject({
      deleted: 'block',
    });
    expect(c.asked).toEqual([]);
    expect(onPage(`Small ${t}`)).toBe(0);
  });

  it('a page holding hidden blocks: they are counted, never quoted', async () => {
    answer = 'decline';
    const c = await client();
    await c.call('delete_page', { uid: uidOf(`hd${t}`, 0) });
    expect(c.asked).toEqual([
      `Delete the page 'Hidden ${t}' and its 8 blocks (3 of them hidden) in graph 'g'? It can be undone from this chat.`,
    ]);
    expect(JSON.stringify(c.asked)).not.toContain(SECRET);
    expect(onPage(`Hidden ${t}`)).toBe(8);
  });

  it('undo_changes by ids of 15 changes asks, as does undoing one change that created 60 blocks', async () => {
    answer = 'decline';
    const c = await client();
    for (let i = 0; i < 15; i++)
      jsonOf(await c.call('create_block', { pageTitle: `Made ${t}`, markdown: `made ${i}` }));
    jsonOf(
      await c.call('create_block', {
        pageTitle: `Made ${t}`,
        markdown: Array.from({ length: 60 }, (_, i) => `- big ${i}`).join('\n'),
      }),
    );
    expect(c.asked).toEqual([]);
    const listed = jsonOf<{ changes: Array<{ id: string }> }>(await c.call('list_changes', { limit: 100 }));
    const [sixty, ...fifteen] = listed.changes.map((ch) => ch.id);
    expect(fifteen).toHaveLength(15);
    const before = onPage(`Made ${t}`);
    expect(before).toBe(76);

    expect(textOf(await c.call('undo_changes', { ids: fifteen }))).toMatch(/declined undo_changes/);
    expect(c.asked[0]).toMatch(/^Undo 15 changes this chat made in graph 'g'\? That would delete 15 blocks/);
    expect(textOf(await c.call('undo_changes', { ids: [sixty] }))).toMatch(/declined undo_changes/);
    expect(c.asked[1]).toMatch(/^Undo 1 change this chat made in graph 'g'\? That would delete 60 blocks/);
    expect(onPage(`Made ${t}`)).toBe(before);
    // A dry run asks nothing and still says what an undo would do.
    expect(
      jsonOf<{ undone: number }>(await c.call('undo_changes', { ids: [sixty], dryRun: true })).undone,
    ).toBe(1);
    expect(c.asked).toHaveLength(2);
  });
});
