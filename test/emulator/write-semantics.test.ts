import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAction, postJson } from './http-client.ts';
import { startEmulator } from './index.ts';
import type { Emulator, PageSpec } from './types.ts';
import { tempDir } from '../harness/temp-dir.ts';

/** Roam's write semantics over real HTTP. */
const content: PageSpec[] = [
  {
    title: 'Source',
    uid: 'src-pg',
    children: [
      {
        string: 'parent text [[Topic]]',
        uid: 'par-blk',
        children: [
          {
            string: 'child text',
            uid: 'chi-blk',
            children: [{ string: 'grand ((par-blk))', uid: 'gra-blk' }],
          },
        ],
      },
      { string: 'keeper', uid: 'kee-blk' },
    ],
  },
  {
    title: 'Refs',
    uid: 'refs-pg',
    children: [
      { string: 'see ((par-blk)) and ((chi-blk))', uid: 'ref-r1' },
      { string: 'embed {{embed: ((gra-blk))}}', uid: 'ref-r2' },
      { string: 'unrelated ((kee-blk))', uid: 'ref-r3' },
    ],
  },
  { title: 'Note on ((chi-blk))', uid: 'note-pg' },
  { title: 'Gone', uid: 'gone-pg', children: [{ string: 'gone block [[Gone]]', uid: 'gone-blk' }] },
  {
    title: 'Linker',
    uid: 'linker-pg',
    children: [
      { string: '[[Gone]] and #Gone and #[[Gone]] but not #Gone2 or [[Gone 2]]', uid: 'lnk-l1' },
      { string: 'nested [[Ideas [[Gone]]]]', uid: 'lnk-l2' },
      { string: 'quote ((gone-blk))', uid: 'lnk-l3' },
      { string: 'Gone:: value', uid: 'lnk-l4' },
    ],
  },
  {
    title: 'Selfref',
    uid: 'self-pg',
    children: [
      { string: 'me', uid: 'self-blk', children: [{ string: 'kid ((self-kid))', uid: 'self-kid' }] },
      { string: '((self-blk)) and ((self-kid))', uid: 'self-r1' },
    ],
  },
  { title: 'Old', uid: 'old-pg' },
  { title: 'tagA', uid: 'taga-pg' },
  {
    title: 'Renamer',
    uid: 'renamer-pg',
    children: [
      { string: '[[Old]], #Old, #[[Old]], [[Older]], #Olden', uid: 'ren-n1' },
      { string: 'nested [[Plans [[Old]]]]', uid: 'ren-n2' },
      { string: 'Old:: attr', uid: 'ren-n3' },
      { string: 'tagged #tagA.', uid: 'ren-n4' },
    ],
  },
];

let home: string;
let emulator: Emulator;
let human: string;
let agent: string;

beforeAll(async () => {
  home = await tempDir('emulator-semantics-');
  emulator = await startEmulator({
    home,
    graphs: [
      {
        name: 'g',
        content,
        displayNames: { human: 'Ada', ai: 'Claude (AI)' },
        comments: [{ block: 'chi-blk', author: 'Bea', createdTime: '2026-01-02T10:00:00Z', text: 'nice' }],
      },
      {
        name: 'older',
        content,
        olderShapes: true,
        missingActions: ['data.block.create'],
      },
    ],
  });
  human = emulator.addToken('g', 'hosted', 'full');
  emulator.decide('g', { kind: 'approve' });
  const exchanged = await postJson(emulator, '/api/graphs/tokens/request', {
    graph: 'g',
    description: 'agent',
    accessLevel: 'full',
    ai: true,
  });
  agent = exchanged.body.token as string;
});

afterAll(async () => {
  await emulator.close();
  await rm(home, { recursive: true, force: true });
});

async function call(action: string, args: unknown[], token = human, graph = 'g') {
  return callAction(emulator, { graph, token, action, args });
}

async function run(action: string, ...args: unknown[]): Promise<unknown> {
  const reply = await call(action, args);
  if (reply.status !== 200) throw new Error(`${reply.status} ${reply.body.error?.message}`);
  return reply.body.result;
}

const pull = async (uid: string, pattern = '[*]') =>
  (await run('data.pull', pattern, `[:block/uid "${uid}"]`)) as Record<string, unknown> | null;
const stringOf = async (uid: string) => (await pull(uid, '[:block/string]'))?.[':block/string'];
const titleOf = async (uid: string) => (await pull(uid, '[:node/title]'))?.[':node/title'];
const pageByTitle = async (title: string) =>
  (await run(
    'data.q',
    '[:find ?u :in $ ?t :where [?p :node/title ?t] [?p :block/uid ?u]]',
    title,
  )) as string[][];
const refTitles = async (uid: string) =>
  (
    (await pull(uid, '[{:block/refs [:node/title :block/uid]}]'))?.[':block/refs'] as Array<
      Record<string, string>
    >
  )
    .map((r) => r[':node/title'] ?? `((${r[':block/uid']}))`)
    .sort();
interface UserRef {
  ':user/uid'?: string;
  ':user/display-name'?: string;
}
/** The attribution and time attributes a pull can ask for. */
interface Stamps {
  ':block/string': string;
  ':create/time': number;
  ':edit/time': number;
  ':page/edit-time': number;
  ':create/user': UserRef;
  ':edit/user': UserRef;
  ':page/edit-user': UserRef;
}
const stampsOf = async (uid: string, pattern: string) => (await pull(uid, pattern)) as unknown as Stamps;
const users = '{:create/user [:user/uid :user/display-name]} {:edit/user [:user/uid :user/display-name]}';

describe('deleting a block', () => {
  it("removes its subtree and replaces every ((uid)) to it elsewhere by that block's text, comments and titles included", async () => {
    const reply = await call('data.block.delete', [{ block: { uid: 'par-blk' } }], agent);
    expect(reply.body.result).toEqual({ deleted: true });
    for (const uid of ['par-blk', 'chi-blk', 'gra-blk']) expect(await pull(uid)).toBeNull();
    expect(await stringOf('ref-r1')).toBe('see parent text [[Topic]] and child text');
    // A reference inside the text that came in points into the deleted subtree too.
    expect(await stringOf('ref-r2')).toBe('embed {{embed: grand parent text [[Topic]]}}');
    expect(await stringOf('ref-r3')).toBe('unrelated ((kee-blk))');
    expect(await titleOf('note-pg')).toBe('Note on child text');
    expect(await refTitles('ref-r1')).toEqual(['Topic']);
    const comment = (await run(
      'data.q',
      '[:find ?s :where [?c :comment/author "Bea"] [?c :block/string ?s]]',
    )) as string[][];
    expect(comment).toEqual([['child text']]);
    // Roam's rewrite is a change by whoever deleted.
    const rewritten = await stampsOf('ref-r1', `[${users}]`);
    expect(rewritten[':edit/user'][':user/display-name']).toBe('Claude (AI)');
  });

  it('rewrites a block referring to several deleted blocks once: a reference the text brought in stays', async () => {
    await run('data.block.delete', { block: { uid: 'self-blk' } });
    expect(await stringOf('self-r1')).toBe('me and kid ((self-kid))');
  });
});

describe('deleting a page', () => {
  it('removes its blocks and de-links its referrers in block strings and page titles', async () => {
    expect(await run('data.page.delete', { page: { uid: 'gone-pg' } })).toEqual({ deleted: true });
    expect(await pull('gone-blk')).toBeNull();
    expect(await stringOf('lnk-l1')).toBe('Gone and Gone and Gone but not #Gone2 or [[Gone 2]]');
    const renamed = await pageByTitle('Ideas Gone');
    expect(renamed).toHaveLength(1);
    expect(await pageByTitle('Ideas [[Gone]]')).toEqual([]);
    expect(await stringOf('lnk-l2')).toBe('nested [[Ideas Gone]]');
    expect(await refTitles('lnk-l2')).toEqual(['Ideas Gone']);
    // Its blocks' ((uid)) references become their text, links de-linked as well.
    expect(await stringOf('lnk-l3')).toBe('quote gone block Gone');
    // An attribute keeps its text (that is what makes it an attribute); the page is not recreated.
    expect(await stringOf('lnk-l4')).toBe('Gone:: value');
    expect(await pageByTitle('Gone')).toEqual([]);
    expect(await refTitles('lnk-l1')).toEqual(['Gone 2', 'Gone2']);
  });
});

describe('renaming a page', () => {
  it('rewrites the links that point at it, nested ones and page titles included', async () => {
    await run('data.page.update', { page: { uid: 'old-pg', title: 'New Name' } });
    expect(await stringOf('ren-n1')).toBe('[[New Name]], #[[New Name]], #[[New Name]], [[Older]], #Olden');
    expect(await stringOf('ren-n2')).toBe('nested [[Plans [[New Name]]]]');
    expect(await stringOf('ren-n3')).toBe('New Name:: attr');
    expect(await pageByTitle('Plans [[Old]]')).toEqual([]);
    expect(await pageByTitle('Plans [[New Name]]')).toHaveLength(1);
    expect(await refTitles('ren-n1')).toEqual(['New Name', 'Olden', 'Older']);
    expect(await refTitles('ren-n2')).toEqual(['New Name', 'Plans [[New Name]]']);
    expect(await pageByTitle('Old')).toEqual([]);
  });

  it('keeps a bare #tag bare when the new title can be one', async () => {
    await run('data.page.update', { page: { uid: 'taga-pg', title: 'tagB' } });
    expect(await stringOf('ren-n4')).toBe('tagged #tagB.');
  });
});

describe('creating with a given uid', () => {
  it('uses the uid, and refuses a taken uid, a taken title or a missing parent', async () => {
    await run('data.page.create', {
      page: { title: 'Made', uid: 'made-pg', 'children-view-type': 'numbered' },
    });
    await run('data.block.create', {
      location: { 'parent-uid': 'made-pg', order: 0 },
      block: { string: 'given', uid: 'given-b1', open: false, heading: 2, 'text-align': 'center' },
    });
    expect(await pull('given-b1', '[:block/string :block/open :block/heading :block/text-align]')).toEqual({
      ':block/string': 'given',
      ':block/open': false,
      ':block/heading': 2,
      ':block/text-align': 'center',
    });
    const refused = async (action: string, arg: object, message: string) => {
      const reply = await call(action, [arg]);
      expect(reply.status).toBe(500);
      expect(reply.body).toMatchObject({ success: false, error: { message } });
    };
    await refused(
      'data.block.create',
      { location: { 'parent-uid': 'made-pg' }, block: { string: 'x', uid: 'kee-blk' } },
      'data.block.create: a block with uid "kee-blk" already exists; omit "uid" to get a fresh one.',
    );
    await refused(
      'data.block.create',
      { location: { 'parent-uid': 'no-parent' }, block: { string: 'x', uid: 'fresh-b1' } },
      `data.block.create: no block or page with uid "no-parent" exists in graph 'g'.`,
    );
    await refused(
      'data.page.create',
      { page: { title: 'Another', uid: 'made-pg' } },
      'data.page.create: uid "made-pg" is already taken; omit "uid" to get a fresh one.',
    );
    await refused(
      'data.page.create',
      { page: { title: 'Made', uid: 'other-pg' } },
      'data.page.create: a page titled "Made" already exists; use data.ai.getPage to read it.',
    );
    expect(await pull('fresh-b1')).toBeNull();
  });
});

describe('reading the state to restore (the recursive pull)', () => {
  it('answers the whole tree, children unordered with their :block/order, reverse refs and parent', async () => {
    for (const [order, text] of [
      [1, 'second'],
      [0, 'first [[Made]]'],
      [2, 'third ((given-b1))'],
    ] as const) {
      await run('data.block.create', {
        location: { 'parent-uid': 'given-b1', order },
        block: { string: text, uid: `kid-${order}` },
      });
    }
    const pattern =
      '[:block/uid :block/string :block/order :block/open :block/heading :block/text-align :children/view-type {:block/children ...} {:block/_refs [:block/uid :block/string]} {:block/_children [:block/uid]}]';
    const tree = (await pull('given-b1', pattern)) as Record<string, unknown>;
    expect(tree).toMatchObject({
      ':block/uid': 'given-b1',
      ':block/heading': 2,
      ':block/_refs': [{ ':block/uid': 'kid-2', ':block/string': 'third ((given-b1))' }],
      ':block/_children': [{ ':block/uid': 'made-pg' }],
    });
    const children = tree[':block/children'] as Array<Record<string, unknown>>;
    expect(children.map((c) => c[':block/uid'])).not.toEqual(['kid-0', 'kid-1', 'kid-2']);
    const sorted = [...children].sort(
      (a, b) => (a[':block/order'] as number) - (b[':block/order'] as number),
    );
    expect(sorted.map((c) => c[':block/string'])).toEqual(['first [[Made]]', 'second', 'third ((given-b1))']);
    expect(await pull('made-pg', '[:children/view-type {:block/_refs [:block/uid]}]')).toEqual({
      ':children/view-type': ':numbered',
      ':block/_refs': [{ ':block/uid': 'kid-0' }],
    });
  });
});

describe('who changed what, and when', () => {
  it('stamps creates and edits with times and users; an ai token writes as the AI user', async () => {
    const guidelines = (await run('data.ai.getGraphGuidelines')) as { aiUserDisplayName: string };
    const agentCreate = await call(
      'data.block.create',
      [{ location: { 'parent-uid': 'made-pg' }, block: { string: 'by agent', uid: 'agent-b1' } }],
      agent,
    );
    expect(agentCreate.status).toBe(200);
    const made = await stampsOf('agent-b1', `[:create/time :edit/time ${users}]`);
    expect(made[':create/user']).toEqual({ ':user/uid': 'ai-user-uid', ':user/display-name': 'Claude (AI)' });
    expect(made[':create/user'][':user/display-name']).toBe(guidelines.aiUserDisplayName);
    expect(made[':edit/user']).toEqual(made[':create/user']);
    expect(made[':edit/time']).toBe(made[':create/time']);

    await run('data.block.update', { block: { uid: 'agent-b1', string: 'by agent, edited by Ada' } });
    const edited = await stampsOf('agent-b1', `[:create/time :edit/time ${users}]`);
    expect(edited[':create/user'][':user/display-name']).toBe('Claude (AI)');
    expect(edited[':edit/user']).toEqual({ ':user/uid': 'human-user-uid', ':user/display-name': 'Ada' });
    expect(edited[':edit/time']).toBeGreaterThan(made[':edit/time']);
    const page = await stampsOf(
      'made-pg',
      '[:page/edit-time :edit/time {:page/edit-user [:user/display-name]}]',
    );
    expect(page[':page/edit-time']).toBe(edited[':edit/time']);
    expect(page[':page/edit-user']).toEqual({ ':user/display-name': 'Ada' });
  });

  it("lets a test make a person's edit (another user, a newer edit time)", async () => {
    const before = (await pull('agent-b1', '[:edit/time]')) as Record<string, number>;
    emulator
      .graph('g')
      .asPerson('Bea')
      .run('data.block.update', [{ block: { uid: 'agent-b1', string: 'Bea was here' } }]);
    const after = await stampsOf('agent-b1', `[:block/string :edit/time ${users}]`);
    expect(after[':block/string']).toBe('Bea was here');
    expect(after[':edit/time']).toBeGreaterThan(before[':edit/time'] as number);
    expect(after[':edit/user']).toEqual({ ':user/uid': 'person-Bea', ':user/display-name': 'Bea' });
    emulator
      .graph('g')
      .asAgent()
      .run('data.block.update', [{ block: { uid: 'agent-b1', open: false } }]);
    expect((await stampsOf('agent-b1', `[${users}]`))[':edit/user'][':user/uid']).toBe('ai-user-uid');
  });

  it('attributes loaded content to the signed-in person', async () => {
    const kept = await stampsOf('kee-blk', `[:create/time ${users}]`);
    expect(kept[':create/user']).toEqual({ ':user/uid': 'human-user-uid', ':user/display-name': 'Ada' });
    expect(typeof kept[':create/time']).toBe('number');
  });
});

describe('an older build', () => {
  it('rewrites referrers the same way, answers null for deletes and UNKNOWN_ACTION for what it lacks', async () => {
    const token = emulator.addToken('older', 'hosted', 'full');
    const deleted = await call('data.block.delete', [{ block: { uid: 'chi-blk' } }], token, 'older');
    expect(deleted.body).toMatchObject({ success: true, result: null });
    const [[text] = []] = (await (
      await call(
        'data.q',
        ['[:find ?s :where [?b :block/uid "ref-r1"] [?b :block/string ?s]]'],
        token,
        'older',
      )
    ).body.result) as string[][];
    expect(text).toBe('see ((par-blk)) and child text');
    const create = await call(
      'data.block.create',
      [{ location: { 'parent-uid': 'src-pg' }, block: { string: 'x' } }],
      token,
      'older',
    );
    expect(create.status).toBe(404);
    expect(create.body.error?.code).toBe('UNKNOWN_ACTION');
  });
});
