/**
 * An agent cannot change what it cannot see (issue 46): every write tool, through the built bin
 * against the emulator, refuses an edit, move or delete addressed to a block hidden from AI
 * (`#.rm-private`, `[[.rm-hide]]`, `#[[.rm-private]]`) or nested under one, and new or moved blocks
 * under one, with an error that quotes nothing hidden and leaves the graph as it was. Moving or
 * deleting a visible block or page carries its hidden subtree intact; update_page_markdown keeps
 * hidden blocks where they are; the agent's undo of a change that touches a hidden block is
 * refused while the person's (`roam-mcp undo`) goes through; nothing the agent or the journal's
 * summaries say quotes a hidden text.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PageSpec } from '../emulator/index.ts';
import { errorOf, jsonOf, type McpHandle } from '../harness/mcp-bin.ts';
import { undoWorld, type UndoWorld } from './changes/changes-setup.ts';

const SECRETS = ['hunter2', '80085', '4321', '5555', '9999', '7777'];

const content: PageSpec[] = [
  {
    title: 'Home',
    uid: 'homepage1',
    children: [
      { string: 'public note', uid: 'pubblock1', children: [{ string: 'public child', uid: 'pubchild1' }] },
      {
        string: 'wifi password hunter2 #.rm-private',
        uid: 'wifiblock',
        children: [{ string: 'backup code 80085', uid: 'codechild' }],
      },
      {
        string: 'vault [[.rm-hide]]',
        uid: 'vaultblk1',
        children: [{ string: 'pin 4321', uid: 'pinchild1' }],
      },
      {
        string: 'visible parent',
        uid: 'visparent',
        children: [
          {
            string: 'locker 5555 #[[.rm-private]]',
            uid: 'lockerblk',
            children: [{ string: 'combo 9999', uid: 'combochild' }],
          },
        ],
      },
    ],
  },
  { title: 'Elsewhere', uid: 'elsewhere', children: [{ string: 'landing', uid: 'landing01' }] },
  {
    title: 'Carrier',
    uid: 'carrierpg',
    children: [
      {
        string: 'carried',
        uid: 'carried01',
        children: [{ string: 'secret 7777 #.rm-hide', uid: 'sec7777bk' }],
      },
    ],
  },
];

let world: UndoWorld;
let agent: McpHandle;

const q = (query: string, ...inputs: unknown[]) =>
  world.emulator.graph('work').run('data.q', [query, ...inputs]);
const textOfBlock = (uid: string) =>
  q('[:find ?s . :in $ ?u :where [?b :block/uid ?u] [?b :block/string ?s]]', uid) as unknown as string | null;
const parentOf = (uid: string) =>
  q('[:find ?pu . :in $ ?u :where [?b :block/uid ?u] [?p :block/children ?b] [?p :block/uid ?pu]]', uid);
/** Every block's uid, parent and text: what "nothing changed" compares. */
const snapshot = () =>
  JSON.stringify(
    (
      q(
        '[:find ?u ?pu ?s :where [?b :block/uid ?u] [?p :block/children ?b] [?p :block/uid ?pu] [(get-else $ ?b :block/string "") ?s]]',
      ) as unknown as string[][]
    ).sort(),
  );
const expectNoSecret = (text: string) => {
  for (const secret of SECRETS) expect(text).not.toContain(secret);
};

/** Hidden by their own tag (three forms) and only by a block above them. */
const HIDDEN_TARGETS = [
  ['tagged #.rm-private', 'wifiblock'],
  ['under #.rm-private', 'codechild'],
  ['tagged [[.rm-hide]]', 'vaultblk1'],
  ['under [[.rm-hide]]', 'pinchild1'],
  ['tagged #[[.rm-private]] under a visible block', 'lockerblk'],
  ['under #[[.rm-private]]', 'combochild'],
] as const;

const WRITES: Array<[string, string, (uid: string) => Record<string, unknown>]> = [
  ['update_block', 'update_block', (uid) => ({ uid, string: 'nothing to see' })],
  [
    'update_blocks (with a visible block first)',
    'update_blocks',
    (uid) => ({
      updates: [
        { uid: 'pubblock1', string: 'changed too' },
        { uid, string: 'nothing to see' },
      ],
    }),
  ],
  ['move_block to a visible page', 'move_block', (uid) => ({ uid, parentUid: 'elsewhere' })],
  ['delete_block', 'delete_block', (uid) => ({ uid })],
  ['delete_blocks (with a visible block)', 'delete_blocks', (uid) => ({ uids: ['landing01', uid] })],
  ['create_block under it', 'create_block', (uid) => ({ parentUid: uid, markdown: 'slipped in' })],
  ['move_block of a visible block under it', 'move_block', (uid) => ({ uid: 'landing01', parentUid: uid })],
  ['add_comment on it', 'add_comment', (uid) => ({ blockUid: uid, comment: 'slipped in' })],
];

describe('a write addressed to a hidden block', () => {
  beforeAll(async () => {
    world = await undoWorld(content);
    agent = await world.agent();
  });
  afterAll(() => world.close());

  describe.each(HIDDEN_TARGETS)('%s', (_form, uid) => {
    it.each(WRITES)('%s is refused, nothing changed, nothing hidden quoted', async (_name, tool, args) => {
      const before = snapshot();

      const error = errorOf(await agent.call(tool, args(uid)));

      expect(error.code).toBe('HIDDEN_CONTENT');
      expect(error.message).toContain(uid);
      expect(error.message).toContain('Nothing was changed');
      expectNoSecret(JSON.stringify(error));
      expect(snapshot()).toBe(before);
    });
  });

  it.each([
    ['create_block', { pageTitle: 'Home', nestUnder: 'wifi password hunter2 #.rm-private', markdown: 'in' }],
    ['create_block', { parentUid: 'visparent', nestUnder: 'locker 5555 #[[.rm-private]]', markdown: 'in' }],
    ['append_to_daily_note', { nestUnder: 'vault [[.rm-hide]]', markdown: 'in' }],
  ])('%s under a section with a hiding tag is refused', async (tool, args) => {
    const before = snapshot();

    const error = errorOf(await agent.call(tool, args));

    expect(error.code).toBe('HIDDEN_CONTENT');
    expect(error.message).toContain('Nothing was changed');
    expect(snapshot()).toBe(before);
  });

  it.each([
    ['update_page', '.rm-private', (uid: string) => ({ uid, title: 'not hiding any more' })],
    ['delete_page', '.rm-private', (uid: string) => ({ uid })],
    ['update_page', '.rm-hide', (uid: string) => ({ uid, title: 'not hiding any more' })],
    ['delete_page', '.rm-hide', (uid: string) => ({ uid })],
  ])(
    "%s of the tag's own page %s is refused: it would un-hide every block tagged",
    async (tool, title, args) => {
      const uid = q(
        '[:find ?u . :in $ ?t :where [?p :node/title ?t] [?p :block/uid ?u]]',
        title,
      ) as unknown as string;
      const before = snapshot();

      const error = errorOf(await agent.call(tool, args(uid)));

      expect(error.code).toBe('HIDDEN_CONTENT');
      expect(snapshot()).toBe(before);
      expect(q('[:find ?u . :in $ ?t :where [?p :node/title ?t] [?p :block/uid ?u]]', title)).toBe(uid);
    },
  );

  it('asks Roam at write time: a block hidden after the agent read it is refused', async () => {
    expect((await agent.call('get_page', { uid: 'elsewhere' })).isError).toBeFalsy();
    world.emulator
      .graph('work')
      .asPerson('Bea')
      .run('data.block.update', [{ block: { uid: 'landing01', string: 'landing 2222 #.rm-hide' } }]);

    const error = errorOf(await agent.call('update_block', { uid: 'landing01', string: 'mine now' }));

    expect(error.code).toBe('HIDDEN_CONTENT');
    expect(error.message).not.toContain('2222');
    expect(textOfBlock('landing01')).toBe('landing 2222 #.rm-hide');
  });

  it('a refused write is not journaled as a change and list_changes quotes nothing hidden', async () => {
    const seen = JSON.stringify(await agent.call('list_changes', {}));
    expectNoSecret(seen);
  });
});

describe('writes that carry hidden blocks intact', () => {
  beforeEach(async () => {
    world = await undoWorld(content);
    agent = await world.agent();
  });
  afterEach(() => world.close());

  it('moves a visible block with its hidden child to another page', async () => {
    jsonOf(await agent.call('move_block', { uid: 'carried01', parentUid: 'elsewhere' }));

    expect(parentOf('carried01')).toBe('elsewhere');
    expect(parentOf('sec7777bk')).toBe('carried01');
    expect(textOfBlock('sec7777bk')).toBe('secret 7777 #.rm-hide');
    expectNoSecret(JSON.stringify(await agent.call('list_changes', {})));
  });

  it('edits a visible block above a hidden one and lets an agent add a hiding tag', async () => {
    jsonOf(await agent.call('update_block', { uid: 'visparent', string: 'renamed parent' }));
    jsonOf(await agent.call('update_block', { uid: 'landing01', string: 'landing #.rm-private' }));

    expect(textOfBlock('visparent')).toBe('renamed parent');
    expect(textOfBlock('lockerblk')).toBe('locker 5555 #[[.rm-private]]');
    expect(textOfBlock('landing01')).toBe('landing #.rm-private');
  });

  it('deletes a page holding hidden blocks, saying nothing hidden (result, list_changes, journal)', async () => {
    const deleted = JSON.stringify(await agent.call('delete_page', { uid: 'carrierpg' }));

    expect(textOfBlock('sec7777bk')).toBeNull();
    const list = JSON.stringify(await agent.call('list_changes', {}));
    const dry = JSON.stringify(await agent.call('undo_changes', { all: true, dryRun: true }));
    const journal = JSON.parse((await world.cli('changes', '--json')).stdout) as {
      changes: Array<{ summary: string }>;
    };
    expectNoSecret([deleted, list, dry, ...journal.changes.map((c) => c.summary)].join('\n'));
  });

  it('undoes its own delete of a page holding hidden blocks: they come back intact, quoted nowhere', async () => {
    jsonOf(await agent.call('delete_page', { uid: 'carrierpg' }));

    const result = await agent.call('undo_changes', { all: true });

    expect(jsonOf<{ undone: number }>(result).undone).toBe(1);
    const undo = JSON.stringify(result);
    expectNoSecret(undo + JSON.stringify(await agent.call('list_changes', {})));
    expect(parentOf('sec7777bk')).toBe('carried01');
    expect(textOfBlock('sec7777bk')).toBe('secret 7777 #.rm-hide');
  });

  it('deletes a visible block holding hidden blocks', async () => {
    const deleted = JSON.stringify(await agent.call('delete_block', { uid: 'visparent' }));

    expect(textOfBlock('combochild')).toBeNull();
    expectNoSecret(deleted + JSON.stringify(await agent.call('list_changes', {})));
  });
});

describe('update_page_markdown', () => {
  beforeEach(async () => {
    world = await undoWorld(content);
    agent = await world.agent();
  });
  afterEach(() => world.close());

  it('rewrites the visible blocks and keeps every hidden block where it was', async () => {
    const result = await agent.call('update_page_markdown', {
      uid: 'homepage1',
      markdown: '- visible parent\n- public note, rewritten\n  - public child\n- new line',
    });

    expectNoSecret(JSON.stringify(result));
    jsonOf(result);
    expect(textOfBlock('wifiblock')).toBe('wifi password hunter2 #.rm-private');
    expect(parentOf('wifiblock')).toBe('homepage1');
    expect(parentOf('codechild')).toBe('wifiblock');
    expect(textOfBlock('vaultblk1')).toBe('vault [[.rm-hide]]');
    expect(parentOf('pinchild1')).toBe('vaultblk1');
    expect(parentOf('lockerblk')).toBe('visparent');
    expect(textOfBlock('pubblock1')).toBe('public note, rewritten');
  });

  it('never takes a hidden block by its uid tag, nor deletes one with its visible parent', async () => {
    const before = snapshot();
    const claimed = await agent.call('update_page_markdown', {
      uid: 'homepage1',
      markdown:
        '- public note\n  - public child\n- un-hidden <roam uid="wifiblock"/>\n- vault [[.rm-hide]]\n- combo <roam uid="combochild"/>',
      dryRun: true,
    });
    expectNoSecret(JSON.stringify(claimed));
    const error = errorOf(
      await agent.call('update_page_markdown', {
        uid: 'homepage1',
        markdown: '- public note\n  - public child',
      }),
    );

    expect(error.code).toBe('HIDDEN_CONTENT');
    expectNoSecret(JSON.stringify(error));
    expect(snapshot()).toBe(before);
  });
});

describe("the agent's undo", () => {
  beforeEach(async () => {
    world = await undoWorld(content);
    agent = await world.agent();
  });
  afterEach(() => world.close());

  const lastChangeId = async () =>
    jsonOf<{ changes: Array<{ id: string }> }>(await agent.call('list_changes', {})).changes[0]!.id;

  it('refuses to take back a hiding tag it added; the person undoes it with roam-mcp undo', async () => {
    jsonOf(
      await agent.call('update_block', { uid: 'pubblock1', string: 'public note pin 2468 #.rm-private' }),
    );
    const id = await lastChangeId();

    const dry = errorOf(await agent.call('undo_changes', { ids: [id], dryRun: true }));
    const undo = errorOf(await agent.call('undo_changes', { ids: [id] }));

    for (const error of [dry, undo]) {
      expect(error.code).toBe('HIDDEN_CONTENT');
      expect(error.message).toContain('roam-mcp undo');
      expect(error.message).not.toContain('2468');
    }
    expect(textOfBlock('pubblock1')).toBe('public note pin 2468 #.rm-private');

    const person = await world.cli('undo', id);
    expect(person.status).toBe(0);
    expect(textOfBlock('pubblock1')).toBe('public note');
  });

  it('refuses all: true when one of the changes touches a hidden block, undoing nothing', async () => {
    jsonOf(await agent.call('update_block', { uid: 'landing01', string: 'landing moved on' }));
    jsonOf(await agent.call('update_block', { uid: 'pubchild1', string: 'child edited' }));
    // The person hides the block the agent edited.
    world.emulator
      .graph('work')
      .asPerson('Bea')
      .run('data.block.update', [{ block: { uid: 'pubblock1', string: 'public note #.rm-hide' } }]);

    const error = errorOf(await agent.call('undo_changes', { all: true }));

    expect(error.code).toBe('HIDDEN_CONTENT');
    expectNoSecret(error.message);
    expect(error.message).not.toContain('child edited');
    expect(textOfBlock('landing01')).toBe('landing moved on');
    expect(textOfBlock('pubchild1')).toBe('child edited');
  });

  it('refuses a redo that would write to a block hidden since', async () => {
    jsonOf(await agent.call('update_block', { uid: 'landing01', string: 'landing edited' }));
    const edit = await lastChangeId();
    const undone = jsonOf<{ undoIds: string[] }>(await agent.call('undo_changes', { ids: [edit] }));
    expect(textOfBlock('landing01')).toBe('landing');
    world.emulator
      .graph('work')
      .asPerson('Bea')
      .run('data.block.move', [
        { location: { 'parent-uid': 'wifiblock', order: 'last' }, block: { uid: 'landing01' } },
      ]);

    const error = errorOf(await agent.call('undo_changes', { ids: undone.undoIds }));

    expect(error.code).toBe('HIDDEN_CONTENT');
    expectNoSecret(error.message);
    expect(textOfBlock('landing01')).toBe('landing');
  });

  it('refuses to take back its rename of a page to a hiding tag; the person can', async () => {
    await world.close();
    world = await undoWorld([
      { title: 'Topic', uid: 'topicpage', children: [] },
      { title: 'Notes', uid: 'notespage', children: [{ string: 'about [[Topic]] 8642', uid: 'aboutblk1' }] },
    ]);
    agent = await world.agent();
    jsonOf(await agent.call('update_page', { uid: 'topicpage', title: '.rm-hide' }));
    const id = await lastChangeId();

    const error = errorOf(await agent.call('undo_changes', { ids: [id] }));

    expect(error.code).toBe('HIDDEN_CONTENT');
    expect(error.message).not.toContain('8642');
    expect(textOfBlock('aboutblk1')).toBe('about [[.rm-hide]] 8642');
    expect((await world.cli('undo', id)).status).toBe(0);
    expect(textOfBlock('aboutblk1')).toBe('about [[Topic]] 8642');
  });
});
