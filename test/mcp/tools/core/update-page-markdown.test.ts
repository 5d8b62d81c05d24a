/**
 * update_page_markdown through the built bin against the emulator: a rewrite that keeps uids (and
 * so the references to them), Roam's normalisation not counted as a change, a dry run that writes
 * nothing, one change undone exactly, refusals per access level, hidden blocks untouched, bounded
 * calls and the over-limit errors.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Emulator, type PageSpec } from '../../../emulator/index.ts';
import { errorOf, jsonOf, newToken, type McpHandle } from '../../../harness/mcp-bin.ts';
import { startStdioWorld, type StdioWorld } from '../../../harness/stdio-world.ts';
import { httpContext } from '../../../harness/http-context.ts';
import { updatePageMarkdownTools } from '../../../../src-mcp/tools/core/update-page-markdown.ts';
import { runBinIn } from '../../changes/changes-setup.ts';
import { graphSnapshot } from '../../changes/graph-snapshot.ts';

const FULL = newToken();
const APPEND = newToken();
const OWN = newToken();

const PEOPLE: PageSpec = {
  title: 'People',
  uid: 'peoplepg1',
  children: [
    { string: 'Engineers', uid: 'engineer1', children: [{ string: 'Ada', uid: 'adaadaada' }, 'Grace'] },
    { string: 'Managers', uid: 'manager01', children: [{ string: 'Bob', uid: 'bobbobbob' }] },
    { string: 'Old note', uid: 'oldnote01' },
    { string: 'A draft of the plan', uid: 'draft0001' },
  ],
};
const REFERRER: PageSpec = {
  title: 'Elsewhere',
  uid: 'elsewhere',
  children: [{ string: 'See ((adaadaada)) and ((bobbobbob))', uid: 'referrer1' }],
};
const FORMATTED: PageSpec = {
  title: 'Formatted',
  uid: 'formatted',
  children: [
    { string: 'Heading', uid: 'heading01', heading: 1 },
    { string: 'some __italic__ words', uid: 'italic001' },
  ],
};
const HIDING: PageSpec = {
  title: 'Hiding',
  uid: 'hidingpg1',
  children: [
    { string: 'first', uid: 'first0001' },
    {
      string: 'secret #.rm-hide',
      uid: 'secret001',
      children: [{ string: 'deeper secret', uid: 'secret002' }],
    },
    { string: 'second', uid: 'second001' },
    {
      string: 'holder',
      uid: 'holder001',
      children: [{ string: 'private [[.rm-private]]', uid: 'private01' }],
    },
  ],
};

let world: StdioWorld | undefined;
let emulator: Emulator;
let mcp: McpHandle;

const pages = (extra: PageSpec[] = []): PageSpec[] => [PEOPLE, REFERRER, FORMATTED, HIDING, ...extra];

interface Node {
  uid: string;
  string: string;
  heading?: number;
  children: Node[];
}
type Raw = Record<string, unknown>;

/** The page's outline as Roam holds it (hidden blocks included). */
function outline(graph: string, title: string): Node[] {
  const raw = emulator
    .graph(graph)
    .run('data.q', [
      `[:find (pull ?p [:block/uid :block/string :block/order :block/heading {[:block/children :limit nil] ...}]) . :in $ ?t :where [?p :node/title ?t]]`,
      title,
    ]) as Raw;
  const read = (r: Raw): Node[] =>
    ((r[':block/children'] as Raw[] | undefined) ?? [])
      .sort((a, b) => (a[':block/order'] as number) - (b[':block/order'] as number))
      .map((c) => ({
        uid: c[':block/uid'] as string,
        string: c[':block/string'] as string,
        ...(c[':block/heading'] ? { heading: c[':block/heading'] as number } : {}),
        children: read(c),
      }));
  return read(raw);
}
const texts = (nodes: Node[]): unknown =>
  nodes.map((n) => (n.children.length ? [n.string, texts(n.children)] : n.string));
const writes = () =>
  emulator.requests.filter(
    (r) =>
      typeof r.action === 'string' &&
      /^data\.(block|page)\./.test(r.action) &&
      !r.action.startsWith('data.ai'),
  );
const rewrite = (args: Record<string, unknown>) =>
  mcp.call('update_page_markdown', { graph: 'main', ...args });

beforeAll(async () => {
  world = await startStdioWorld({
    emulator: {
      graphs: [
        { name: 'main', content: pages(), tokens: [{ token: FULL, accessLevel: 'full' }] },
        { name: 'append', content: pages(), tokens: [{ token: APPEND, accessLevel: 'full' }] },
        { name: 'own', content: pages(), tokens: [{ token: OWN, accessLevel: 'full', ai: true }] },
      ],
    },
    config: [
      { name: 'main', token: FULL, accessLevel: 'full' },
      { name: 'append', token: APPEND, accessLevel: 'read-append' },
      { name: 'own', token: OWN, accessLevel: 'read-edit-own' },
    ],
    orient: ['main', 'append', 'own'],
  });
  ({ emulator, mcp } = world);
});
afterAll(() => world?.close());
beforeEach(() => emulator.clearRequests());

describe('update_page_markdown', () => {
  it('keeps the uid of every block whose text stays, wherever it moves, so references survive', async () => {
    const markdown = [
      '- Managers',
      '  - Bob',
      '  - Ada',
      '- Engineers',
      '  - Grace',
      '  - Carol',
      '    - new child',
      '- A draft of the final plan',
    ].join('\n');
    const result = jsonOf<{ counts: Record<string, number>; deleted: Array<{ uid: string }> }>(
      await rewrite({ title: 'People', markdown }),
    );
    const after = outline('main', 'People');
    expect(texts(after)).toEqual([
      ['Managers', ['Bob', 'Ada']],
      ['Engineers', ['Grace', ['Carol', ['new child']]]],
      'A draft of the final plan',
    ]);
    expect(after.map((n) => n.uid)).toEqual(['manager01', 'engineer1', 'draft0001']);
    expect(after[0]?.children.map((n) => n.uid)).toEqual(['bobbobbob', 'adaadaada']);
    expect(result.counts).toMatchObject({ updated: 1, created: 2, deleted: 1 });
    expect(result.deleted).toEqual([{ uid: 'oldnote01', text: 'Old note' }]);
    const referrer = graphSnapshot(emulator.graph('main')).find((e) => e.uid === 'referrer1');
    expect(referrer?.string).toBe('See ((adaadaada)) and ((bobbobbob))');
    expect(referrer?.refs).toEqual(['adaadaada', 'bobbobbob']);
  });

  it('writes nothing when the markdown reads as the page in Roam’s stored form, or is get_page pasted back', async () => {
    const same = jsonOf<{ counts: Record<string, number> }>(
      await rewrite({ title: 'Formatted', markdown: '- # Heading\n- some *italic* words' }),
    );
    expect(same.counts).toEqual({ kept: 2, moved: 0, updated: 0, created: 0, deleted: 0, writeCalls: 0 });
    const page = (await mcp.call('get_page', { graph: 'main', title: 'Formatted' })).content[0] as {
      text: string;
    };
    const pasted = jsonOf<{ counts: Record<string, number> }>(
      await rewrite({ title: 'Formatted', markdown: page.text }),
    );
    expect(pasted.counts.writeCalls).toBe(0);
    expect(writes()).toEqual([]);
  });

  it('answers the plan of a dry run and writes nothing', async () => {
    const before = graphSnapshot(emulator.graph('main'));
    const plan = jsonOf<Record<string, unknown>>(
      await rewrite({
        title: 'Formatted',
        markdown: '- some _italic_ words, changed\n- # Heading\n- added',
        dryRun: true,
      }),
    );
    expect(plan).toEqual({
      page: { uid: 'formatted', title: 'Formatted' },
      dryRun: true,
      // The two blocks swap: one of them moves (the changed one, here), the other stays.
      counts: { kept: 1, moved: 1, updated: 1, created: 1, deleted: 0, writeCalls: 3 },
      moved: [{ uid: 'italic001', text: 'some __italic__ words' }],
      updated: [
        { uid: 'italic001', before: 'some __italic__ words', after: 'some __italic__ words, changed' },
      ],
      created: ['added'],
      deleted: [],
    });
    expect(writes()).toEqual([]);
    expect(graphSnapshot(emulator.graph('main'))).toEqual(before);
  });

  it('is one change that undo_changes takes back exactly: uids, order, text, references', async () => {
    jsonOf(
      await mcp.call('create_page', {
        graph: 'main',
        title: 'Undo me',
        markdown: '- alpha\n  - alpha child\n- beta\n  - beta child\n- gamma\n- delta',
      }),
    );
    const blocks = outline('main', 'Undo me');
    const gamma = blocks[2]?.uid as string;
    jsonOf(
      await mcp.call('create_block', {
        graph: 'main',
        parentUid: 'elsewhere',
        markdown: `points at ((${gamma}))`,
      }),
    );
    const before = graphSnapshot(emulator.graph('main'));
    const result = jsonOf<{ counts: Record<string, number> }>(
      await rewrite({
        title: 'Undo me',
        markdown: [
          '- delta',
          '  - alpha child',
          '- beta, renamed',
          '  - new under beta',
          '- # fresh heading',
          '  - fresh child',
        ].join('\n'),
      }),
    );
    expect(result.counts).toMatchObject({ updated: 1, created: 3, deleted: 3 });
    expect(result.counts.moved).toBeGreaterThan(0);
    expect(graphSnapshot(emulator.graph('main'))).not.toEqual(before);
    const listed = jsonOf<{ changes: Array<{ id: string; tool: string }> }>(
      await mcp.call('list_changes', {}),
    );
    expect(listed.changes[0]?.tool).toBe('update_page_markdown');
    expect(listed.changes[1]?.tool).toBe('create_block');
    const undo = jsonOf<{ undone: number; conflicts: number }>(
      await mcp.call('undo_changes', { ids: [listed.changes[0]?.id] }),
    );
    expect(undo).toMatchObject({ undone: 1, conflicts: 0 });
    expect(graphSnapshot(emulator.graph('main'))).toEqual(before);
  });

  it('is undone as one by a person too: roam-mcp undo <id>', async () => {
    const before = graphSnapshot(emulator.graph('main'));
    jsonOf(
      await rewrite({
        title: 'Formatted',
        markdown: '- # Heading, renamed\n- new line\n- some __italic__ words',
      }),
    );
    expect(outline('main', 'Formatted').map((n) => n.string)).toEqual([
      'Heading, renamed',
      'new line',
      'some __italic__ words',
    ]);
    const listed = jsonOf<{ changes: Array<{ id: string; tool: string }> }>(
      await mcp.call('list_changes', {}),
    );
    expect(listed.changes[0]?.tool).toBe('update_page_markdown');
    const undo = await runBinIn(world!.home, ['undo', listed.changes[0]!.id]);
    expect(undo.status, undo.stderr).toBe(0);
    expect(graphSnapshot(emulator.graph('main'))).toEqual(before);
  });

  it('never touches hidden blocks, keeps them after the block they followed, and never shows them', async () => {
    const result = await rewrite({ title: 'Hiding', markdown: '- second\n- first, edited\n- holder\n- new' });
    expect(JSON.stringify(result)).not.toMatch(/secret|private/);
    const after = outline('main', 'Hiding');
    expect(after.map((n) => n.uid).slice(0, 3)).toEqual(['second001', 'first0001', 'secret001']);
    expect(after[2]).toEqual({
      uid: 'secret001',
      string: 'secret #.rm-hide',
      children: [{ uid: 'secret002', string: 'deeper secret', children: [] }],
    });
    expect(after[3]?.children).toEqual([
      { uid: 'private01', string: 'private [[.rm-private]]', children: [] },
    ]);
  });

  it('refuses to delete a block that holds hidden blocks, and changes nothing', async () => {
    const before = graphSnapshot(emulator.graph('main'));
    const error = errorOf(await rewrite({ title: 'Hiding', markdown: '- second\n- first, edited' }));
    expect(error.code).toBe('HIDDEN_CONTENT');
    expect(error.message).toMatch(/'holder001' \(holder\).*Nothing was changed/);
    expect(error.message).not.toMatch(/private \[\[/);
    expect(writes()).toEqual([]);
    expect(graphSnapshot(emulator.graph('main'))).toEqual(before);
  });
});

describe('update_page_markdown and access levels', () => {
  it('under read-append, adds but refuses any edit, move or delete, naming what it would touch', async () => {
    const added = jsonOf<{ counts: Record<string, number> }>(
      await mcp.call('update_page_markdown', {
        graph: 'append',
        title: 'Formatted',
        markdown: '- # Heading\n- some __italic__ words\n- appended',
      }),
    );
    expect(added.counts).toMatchObject({ created: 1, updated: 0, moved: 0, deleted: 0 });
    const before = graphSnapshot(emulator.graph('append'));
    emulator.clearRequests();
    const refused = errorOf(
      await mcp.call('update_page_markdown', {
        graph: 'append',
        title: 'People',
        markdown: '- Managers\n  - Bob',
      }),
    );
    expect(refused.code).toBe('ACCESS_LEVEL');
    expect(refused.message).toMatch(/would delete 5 existing block\(s\) \('engineer1'.*read-append/);
    expect(writes()).toEqual([]);
    expect(graphSnapshot(emulator.graph('append'))).toEqual(before);
  });

  it('under read-edit-own, edits what an agent made and refuses a person’s block', async () => {
    jsonOf(
      await mcp.call('update_page_markdown', {
        graph: 'own',
        title: 'Formatted',
        markdown: '- # Heading\n- some __italic__ words\n- agent line',
      }),
    );
    const edited = jsonOf<{ counts: Record<string, number> }>(
      await mcp.call('update_page_markdown', {
        graph: 'own',
        title: 'Formatted',
        markdown: '- # Heading\n- some __italic__ words\n- agent line, revised',
      }),
    );
    expect(edited.counts).toMatchObject({ updated: 1 });
    const before = graphSnapshot(emulator.graph('own'));
    emulator.clearRequests();
    const refused = errorOf(
      await mcp.call('update_page_markdown', {
        graph: 'own',
        title: 'Formatted',
        markdown: '- # Heading\n- some __italic__ words, by the agent\n- agent line, revised',
      }),
    );
    expect(refused.code).toBe('ACCESS_LEVEL');
    expect(refused.message).toMatch(/'italic001' \(not created by an agent\)/);
    expect(writes()).toEqual([]);
    expect(graphSnapshot(emulator.graph('own'))).toEqual(before);
    // Moving the agent's block above the person's is allowed; moving or deleting a person's is not.
    const moved = jsonOf<{ counts: Record<string, number>; moved: Array<{ uid: string }> }>(
      await mcp.call('update_page_markdown', {
        graph: 'own',
        title: 'Formatted',
        markdown: '- agent line, revised\n- # Heading\n- some __italic__ words',
      }),
    );
    expect(moved.counts).toMatchObject({ moved: 1, updated: 0, created: 0, deleted: 0 });
    expect(moved.moved[0]?.uid).not.toMatch(/heading01|italic001/);
    for (const markdown of [
      '- agent line, revised\n- some __italic__ words\n- # Heading',
      '- agent line, revised\n- # Heading',
    ]) {
      const before = graphSnapshot(emulator.graph('own'));
      emulator.clearRequests();
      const error = errorOf(
        await mcp.call('update_page_markdown', { graph: 'own', title: 'Formatted', markdown }),
      );
      expect(error.code).toBe('ACCESS_LEVEL');
      expect(error.message).toMatch(/'(heading01|italic001)' \(not created by an agent\)/);
      expect(writes()).toEqual([]);
      expect(graphSnapshot(emulator.graph('own'))).toEqual(before);
    }
  });
});

describe('update_page_markdown bounds', () => {
  it('writes a page of thousands of new blocks in one call, and edits 100 of them in four', async () => {
    jsonOf(await mcp.call('create_page', { graph: 'main', title: 'Big' }));
    // 300 sections of 10 blocks: the emulator creates long flat lists slowly, Roam does not.
    const section = (i: number, edited: boolean) => [
      `- section ${i}`,
      ...Array.from({ length: 9 }, (_, j) => `  - line ${i}.${j}${edited && j === 0 ? ' (edited)' : ''}`),
    ];
    const markdown = (edited: (i: number) => boolean) =>
      Array.from({ length: 300 }, (_, i) => section(i, edited(i)).join('\n')).join('\n');
    emulator.clearRequests();
    const created = jsonOf<{ counts: Record<string, number> }>(
      await rewrite({ title: 'Big', markdown: markdown(() => false) }),
    );
    expect(created.counts).toMatchObject({ created: 3000, writeCalls: 1 });
    expect(writes()).toHaveLength(1);
    expect(outline('main', 'Big')).toHaveLength(300);
    const before = outline('main', 'Big');
    emulator.clearRequests();
    const result = jsonOf<{ counts: Record<string, number> }>(
      await rewrite({ title: 'Big', markdown: markdown((i) => i < 100) }),
    );
    expect(result.counts).toEqual({
      kept: 2900,
      updated: 100,
      created: 0,
      deleted: 0,
      moved: 0,
      writeCalls: 4,
    });
    expect(writes().map((r) => r.action)).toEqual(Array(4).fill('data.block.updateBlocks'));
    const after = outline('main', 'Big');
    expect(after[99]?.children[0]).toEqual({ ...before[99]?.children[0], string: 'line 99.0 (edited)' });
    expect(after[100]).toEqual(before[100]);
  });

  it('says what to do when the outline is too large or needs too many writes, and changes nothing', async () => {
    const huge = Array.from({ length: 5001 }, (_, i) => `- ${i}`).join('\n');
    const large = errorOf(await rewrite({ title: 'People', markdown: huge }));
    expect(large.code).toBe('TOO_LARGE');
    expect(large.message).toMatch(
      /5001 blocks, more than 5000\. Nothing was changed\. Rewrite the page in parts/,
    );

    jsonOf(await mcp.call('create_page', { graph: 'main', title: 'Reverse' }));
    // Reversed, 302 blocks need 301 moves: one past the limit of 300 writes.
    const lines = Array.from({ length: 302 }, (_, i) => `- item ${i}`);
    jsonOf(await rewrite({ title: 'Reverse', markdown: lines.join('\n') }));
    const before = graphSnapshot(emulator.graph('main'));
    emulator.clearRequests();
    const moves = errorOf(await rewrite({ title: 'Reverse', markdown: lines.reverse().join('\n') }));
    expect(moves.code).toBe('TOO_LARGE');
    expect(moves.message).toMatch(/needs 301 Local API writes, more than 300\. Nothing was changed/);
    expect(writes()).toEqual([]);
    expect(graphSnapshot(emulator.graph('main'))).toEqual(before);
  });
});

describe('update_page_markdown without its access check', () => {
  it('fails closed: a context that cannot check the plan writes nothing', async () => {
    const tool = updatePageMarkdownTools[0]!;
    if (tool.scope !== 'graph') throw new Error('a graph tool');
    const before = graphSnapshot(emulator.graph('main'));
    emulator.clearRequests();
    await expect(
      tool.handler({ title: 'People', markdown: '- only this' }, httpContext(emulator, 'main', FULL)),
    ).rejects.toThrow(/could not check its plan against the graph’s access level, so nothing was changed/);
    expect(writes()).toEqual([]);
    expect(graphSnapshot(emulator.graph('main'))).toEqual(before);
  });
});
