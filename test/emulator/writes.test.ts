import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAction } from './http-client.ts';
import { startEmulator } from './index.ts';
import type { Emulator } from './types.ts';
import { removeDir, tempDir } from '../harness/temp-dir.ts';

let home: string;
let emulator: Emulator;
let token: string;

beforeAll(async () => {
  home = await tempDir('emulator-writes-');
  emulator = await startEmulator({
    home,
    graphs: [
      {
        name: 'w',
        content: [
          { title: 'Alpha', uid: 'alpha-pg', children: [{ string: 'first', uid: 'alpha-b1' }] },
          { title: 'Beta', uid: 'beta-pg' },
        ],
      },
    ],
  });
  token = emulator.addToken('w', 'hosted', 'full');
});

afterAll(async () => {
  await emulator.close();
  await removeDir(home);
});

async function run(action: string, ...args: unknown[]): Promise<unknown> {
  const reply = await callAction(emulator, { graph: 'w', token, action, args });
  if (reply.status !== 200) throw new Error(`${reply.status} ${reply.body.error?.message}`);
  return reply.body.result;
}

/** Titles/uids the block references, via a real query. */
async function refsOf(uid: string): Promise<string[]> {
  const rows = (await run(
    'data.q',
    '[:find ?label :in $ ?u :where [?b :block/uid ?u] [?b :block/refs ?r] (or [?r :node/title ?label] (and [?r :block/uid ?label] [(missing? $ ?r :node/title)]))]',
    uid,
  )) as Array<[string]>;
  return rows.map(([label]) => label).sort();
}

async function pull(uid: string, pattern = '[*]'): Promise<Record<string, unknown>> {
  return (await run('data.pull', pattern, `[:block/uid "${uid}"]`)) as Record<string, unknown>;
}

async function childUids(uid: string): Promise<string[]> {
  return (
    (await run(
      'data.q',
      '[:find ?c ?o :in $ ?u :where [?p :block/uid ?u] [?p :block/children ?k] [?k :block/uid ?c] [?k :block/order ?o]]',
      uid,
    )) as Array<[string, number]>
  )
    .sort((a, b) => a[1] - b[1])
    .map(([c]) => c);
}

describe(':block/refs follow the text', () => {
  it('parses [[links]], nested links, #tags, #[[tags]], attr:: and ((block refs)), creating missing pages', async () => {
    await run('data.block.create', {
      location: { 'parent-uid': 'alpha-pg', order: 'last' },
      block: {
        string: 'kind:: see [[Beta]] and [[Gamma [[Delta]]]] #todo #[[Big Idea]] ((alpha-b1))',
        uid: 'refs-blk1',
      },
    });
    expect(await refsOf('refs-blk1')).toEqual([
      'Beta',
      'Big Idea',
      'Delta',
      'Gamma [[Delta]]',
      'alpha-b1',
      'kind',
      'todo',
    ]);
    expect(await run('data.ai.getPage', { title: 'Big Idea' })).toMatchObject({
      markdown: expect.stringMatching(/^# Big Idea <roam uid="[\w-]{9}" refs="1"\/>$/),
    });
  });

  it('drops old refs and adds new ones when the string changes, bumping :edit/time', async () => {
    const before = (await pull('refs-blk1'))[':edit/time'] as number;
    await run('data.block.update', { block: { uid: 'refs-blk1', string: 'now only [[Alpha]]' } });
    expect(await refsOf('refs-blk1')).toEqual(['Alpha']);
    const after = await pull('refs-blk1');
    expect(after[':block/string']).toBe('now only [[Alpha]]');
    expect(after[':edit/time'] as number).toBeGreaterThan(before);
    const backlinks = (await run('data.ai.getBacklinks', { title: 'Beta' })) as { total: number };
    expect(backlinks.total).toBe(0);
  });

  it('updates open and heading without touching the text', async () => {
    await run('data.block.update', { block: { uid: 'refs-blk1', open: false, heading: 2 } });
    expect(await pull('refs-blk1', '[:block/string :block/open :block/heading]')).toEqual({
      ':block/string': 'now only [[Alpha]]',
      ':block/open': false,
      ':block/heading': 2,
    });
  });
});

describe('block structure', () => {
  it('creates at an order, shifting later siblings, with page and parents set', async () => {
    await run('data.block.create', {
      location: { 'parent-uid': 'beta-pg', order: 0 },
      block: { string: 'b', uid: 'struct-b' },
    });
    await run('data.block.create', {
      location: { 'parent-uid': 'beta-pg', order: 0 },
      block: { string: 'a', uid: 'struct-a' },
    });
    await run('data.block.create', {
      location: { 'parent-uid': 'beta-pg', order: 'last' },
      block: { string: 'c', uid: 'struct-c' },
    });
    await run('data.block.create', {
      location: { 'parent-uid': 'struct-a', order: 0 },
      block: { string: 'a1', uid: 'struct-a1' },
    });
    expect(await childUids('beta-pg')).toEqual(['struct-a', 'struct-b', 'struct-c']);
    expect(await pull('struct-a1', '[{:block/page [:node/title]} {:block/parents [:block/uid]}]')).toEqual({
      ':block/page': { ':node/title': 'Beta' },
      ':block/parents': [{ ':block/uid': 'beta-pg' }, { ':block/uid': 'struct-a' }],
    });
  });

  it("moves a subtree to another page, renumbering both sides and its descendants' page", async () => {
    await run('data.block.move', {
      location: { 'parent-uid': 'alpha-pg', order: 0 },
      block: { uid: 'struct-a' },
    });
    expect(await childUids('beta-pg')).toEqual(['struct-b', 'struct-c']);
    expect(await childUids('alpha-pg')).toEqual(['struct-a', 'alpha-b1', 'refs-blk1']);
    expect(await pull('struct-a1', '[{:block/page [:node/title]}]')).toEqual({
      ':block/page': { ':node/title': 'Alpha' },
    });
    await expect(
      run('data.block.move', { location: { 'parent-uid': 'struct-a1' }, block: { uid: 'struct-a' } }),
    ).rejects.toThrow('cannot move block "struct-a" under itself or one of its descendants');
  });

  it('deletes a block with its descendants', async () => {
    await run('data.block.delete', { block: { uid: 'struct-a' } });
    expect(await pull('struct-a1')).toBeNull();
    expect(await childUids('alpha-pg')).toEqual(['alpha-b1', 'refs-blk1']);
    expect(emulator.graph('w').counts().blocks).toBe(4);
  });

  it('imports markdown as nested blocks under a block or a new page', async () => {
    await run('data.block.fromMarkdown', {
      location: { 'parent-uid': 'struct-c', order: 'last' },
      'markdown-string': '- one\n  - one.a [[Alpha]]\n- ## two',
    });
    const block = (await run('data.ai.getBlock', { uid: 'struct-c' })) as { markdown: string };
    expect(block.markdown.replace(/<roam uid="[\w-]+"\/>/g, '<>')).toBe(
      ['- c <>', '  - one <>', '    - one.a [[Alpha]] <>', '  - ## two <>'].join('\n'),
    );
    await run('data.page.fromMarkdown', {
      page: { title: 'Imported', uid: 'import-pg' },
      'markdown-string': 'plain line\n- item',
    });
    expect(await childUids('import-pg')).toHaveLength(2);
  });
});

describe('pages', () => {
  it('creates, renames (refs stay attached) and deletes pages with their blocks', async () => {
    await run('data.page.create', { page: { title: 'Renamable', uid: 'rename-pg' } });
    await run('data.block.create', {
      location: { 'page-title': 'Beta', order: 'last' },
      block: { string: 'see [[Renamable]]', uid: 'links-ren' },
    });
    await run('data.page.update', { page: { uid: 'rename-pg', title: 'Renamed' } });
    expect(await refsOf('links-ren')).toEqual(['Renamed']);
    await run('data.block.create', {
      location: { 'parent-uid': 'rename-pg' },
      block: { string: 'inside', uid: 'inside-rn' },
    });
    await run('data.page.delete', { page: { uid: 'rename-pg' } });
    expect(await pull('rename-pg')).toBeNull();
    expect(await pull('inside-rn')).toBeNull();
  });

  it('refuses duplicates and missing targets with messages that say what to do', async () => {
    await expect(run('data.page.create', { page: { title: 'Alpha' } })).rejects.toThrow(
      'data.page.create: a page titled "Alpha" already exists; use data.ai.getPage to read it.',
    );
    await expect(
      run('data.block.create', { location: { 'parent-uid': 'nowhere99' }, block: { string: 'x' } }),
    ).rejects.toThrow(`data.block.create: no block or page with uid "nowhere99" exists in graph 'w'.`);
    await expect(
      run('data.block.create', {
        location: { 'parent-uid': 'alpha-pg' },
        block: { string: 'x', uid: 'alpha-b1' },
      }),
    ).rejects.toThrow('data.block.create: a block with uid "alpha-b1" already exists');
    await expect(
      run('data.block.create', { location: { 'parent-uid': 'alpha-pg' }, block: {} }),
    ).rejects.toThrow('data.block.create: "block.string" is required');
  });

  it("creates a daily page with Roam's title and uid when a block goes to a daily title", async () => {
    const title = await run('util.dateToPageTitle', '2026-11-23');
    expect(title).toBe('November 23rd, 2026');
    expect(await run('util.dateToPageUid', '2026-11-23')).toBe('11-23-2026');
    await run('data.block.create', {
      location: { 'page-title': title, order: 'last' },
      block: { string: 'tomorrow' },
    });
    expect(await pull('11-23-2026', '[:node/title :log/id]')).toEqual({
      ':node/title': 'November 23rd, 2026',
      ':log/id': Date.UTC(2026, 10, 23),
    });
    await run('data.block.create', {
      location: { 'page-title': { 'daily-note-page': '11-23-2026' }, order: 0 },
      block: { string: 'first thing', uid: 'daily-fst' },
    });
    expect(await pull('daily-fst', '[{:block/page [:block/uid]} :block/order]')).toEqual({
      ':block/page': { ':block/uid': '11-23-2026' },
      ':block/order': 0,
    });
    expect(await run('util.generateUID')).toMatch(/^[A-Za-z0-9_-]{9}$/);
  });
});
