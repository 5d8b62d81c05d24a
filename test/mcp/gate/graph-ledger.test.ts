/**
 * Budgets and declines belong to the graph (src-mcp/gate/consent-ledger.ts), tried as an adversary
 * would through the built bin: each chat here is its own stdio process, as Claude Desktop's and
 * Claude Code's are, sharing the machine's data folder. What chats take from one graph adds up; a
 * decline in one chat holds in another; a ledger that cannot be read or locked makes the gate ask
 * (or refuse where nobody can ask), never let a write through silently; the ledger is keyed by
 * graph id, so a decline on a page of one graph says nothing of the same title in another; an
 * undo over two graphs is judged graph by graph; a declined page covers its hidden blocks.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PageSpec } from '../../emulator/index.ts';
import { consentClient, type Answer, type ConsentClient } from '../../harness/consent-client.ts';
import { jsonOf, newToken, textOf } from '../../harness/mcp-bin.ts';
import { startStdioWorld, type StdioWorld } from '../../harness/stdio-world.ts';
import { blocks, uidOf } from './numbered-blocks.ts';

const WORK = newToken();
const OTHER = newToken();
const SECRET = 'HIDDEN-8841';

const page = (title: string, prefix: string, n: number): PageSpec => ({
  title,
  uid: uidOf(`pg${prefix}`, 0),
  children: blocks(prefix, n),
});

let world: StdioWorld;
let data: string;
beforeAll(async () => {
  world = await startStdioWorld({
    emulator: {
      graphs: [
        {
          name: 'work',
          tokens: [{ token: WORK, accessLevel: 'full' }],
          content: [
            page('Shared', 'sh', 16),
            page('Declined', 'dc', 12),
            page('Notes', 'nw', 12),
            page('Broken', 'br', 12),
            page('Unlockable', 'ul', 12),
            {
              title: 'Plans',
              uid: uidOf('pgpl', 0),
              children: [
                ...blocks('pl', 10),
                {
                  string: `${SECRET} #.rm-hide`,
                  uid: uidOf('hid', 0),
                  children: [`${SECRET} below`, `${SECRET} below too`],
                },
              ],
            },
            { title: 'Undo target', uid: uidOf('pgut', 0), children: [{ string: 'anchor' }] },
          ],
        },
        {
          name: 'other',
          tokens: [{ token: OTHER, accessLevel: 'full' }],
          content: [page('Notes', 'no', 12), { title: 'Undo there', uid: uidOf('pguo', 0), children: ['x'] }],
        },
      ],
    },
    config: [
      { name: 'work', nickname: 'Work', token: WORK, accessLevel: 'full' },
      { name: 'other', nickname: 'Other', token: OTHER, accessLevel: 'full' },
    ],
  });
  data = path.join(world.home, 'data');
});
afterAll(() => world?.close());

const env = () => ({ ROAM_COMPANION_DATA_DIR: data });
const clients: ConsentClient[] = [];
afterAll(() => Promise.all(clients.map((c) => c.close())));

/** A chat of its own (its own process), asked by form elicitation and answering `answer`. */
async function chat(answer: Answer | 'nobody to ask' = 'decline'): Promise<ConsentClient> {
  const c = await consentClient(world.home, '2026-07-28', {
    ...(answer === 'nobody to ask' ? {} : { answer: () => answer }),
    env: env(),
  });
  clients.push(c);
  for (const graph of ['Work', 'Other']) jsonOf(await c.call('select_graph', { graph }));
  return c;
}

const exists = (uid: string, graph = 'work') =>
  world.emulator.graph(graph).run('data.q', ['[:find ?e . :in $ ?u :where [?e :block/uid ?u]]', uid]) != null;
const uidsOf = (prefix: string, from: number, to: number) =>
  blocks(prefix, to)
    .slice(from)
    .map((b) => b.uid);

describe('what chats take from one graph adds up across processes', () => {
  beforeEach(() => rm(data, { recursive: true, force: true }));

  it('two chats each deleting 8 blocks of one page: the second is asked, and the ledger is 0600', async () => {
    const a = await chat();
    const b = await chat();
    expect(jsonOf(await a.call('delete_blocks', { graph: 'Work', uids: uidsOf('sh', 0, 8) }))).toMatchObject({
      succeeded: 8,
    });
    expect(a.asked).toEqual([]);
    const second = await b.call('delete_blocks', { graph: 'Work', uids: uidsOf('sh', 8, 16) });
    expect(textOf(second)).toMatch(/declined delete_blocks/);
    expect(b.asked).toHaveLength(1);
    expect(b.asked[0]).toMatch(/^Delete 8 blocks on 'Shared' .* already took away 8 blocks there/);
    expect(uidsOf('sh', 8, 16).every((u) => exists(u))).toBe(true);
    const files = await readdir(path.join(data, 'consent'));
    const ledgers = files.filter((f) => f.endsWith('.json'));
    // One file per graph that something was taken from; nothing else left behind (no lock).
    expect(files).toEqual(ledgers);
    expect(ledgers).toHaveLength(1);
    const ledger = path.join(data, 'consent', ledgers[0]!);
    expect((await stat(ledger)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(ledger, 'utf8'))).toMatchObject({ version: 1, graph: 'hosted:work' });
  });

  it('a decline in one chat holds in another: one block of the page is asked; the same title in another graph is not', async () => {
    const a = await chat('decline');
    const b = await chat('decline');
    expect(textOf(await a.call('delete_page', { graph: 'Work', uid: uidOf('pgdc', 0) }))).toMatch(
      /declined delete_page/,
    );
    expect(textOf(await b.call('delete_block', { graph: 'Work', uid: uidOf('dc', 3) }))).toMatch(
      /declined delete_block/,
    );
    expect(b.asked[0]).toMatch(/^Delete 1 block on 'Declined' .*The person declined a change to 'Declined'/);
    expect(exists(uidOf('dc', 3))).toBe(true);
    // Keyed by graph id: 'Notes' declined in Work says nothing of 'Notes' in Other.
    expect(textOf(await a.call('delete_page', { graph: 'Work', uid: uidOf('pgnw', 0) }))).toMatch(/declined/);
    expect(jsonOf(await b.call('delete_block', { graph: 'Other', uid: uidOf('no', 0) }))).toBeTruthy();
    expect(b.asked).toHaveLength(1);
    expect(exists(uidOf('no', 0), 'other')).toBe(false);
  });

  it('after a decline of delete_page, deleting its hidden root by uid goes nowhere (an agent cannot delete what it cannot see)', async () => {
    const a = await chat('decline');
    expect(textOf(await a.call('delete_page', { graph: 'Work', uid: uidOf('pgpl', 0) }))).toMatch(/declined/);
    expect(a.asked[0]).toMatch(/^Delete the page 'Plans'/);
    const hidden = await a.call('delete_block', { graph: 'Work', uid: uidOf('hid', 0) });
    expect(hidden.isError).toBe(true);
    expect(textOf(hidden)).toMatch(/HIDDEN_CONTENT/);
    expect(textOf(hidden)).not.toContain(SECRET);
    expect(exists(uidOf('hid', 0))).toBe(true);
    // Refused before any question: the person is not asked about a write that cannot happen.
    expect(a.asked).toHaveLength(1);
    expect(a.asked.join(' ')).not.toContain(SECRET);
  });
});

describe('a ledger that cannot be used is never silent', () => {
  beforeEach(() => rm(data, { recursive: true, force: true }));

  it.each([
    ['not JSON', '{ this is not a ledger'],
    [
      'another graph',
      JSON.stringify({ version: 1, graph: 'hosted:other', taken: [], declined: [], allowed: [] }),
    ],
  ])('unreadable (%s): asked, a plain client refused, the file kept', async (_what, text) => {
    const folder = path.join(data, 'consent');
    await mkdir(folder, { recursive: true });
    // The graph's ledger is named by its id's hash.
    const file = path.join(
      folder,
      `${createHash('sha256').update('hosted:work').digest('hex').slice(0, 32)}.json`,
    );
    await writeFile(file, text, { mode: 0o600 });
    const a = await chat('decline');
    expect(textOf(await a.call('delete_block', { graph: 'Work', uid: uidOf('br', 1) }))).toMatch(/declined/);
    expect(a.asked[0]).toMatch(/^Delete 1 block on 'Broken' .*its consent ledger \(.+\) could not be used/);
    expect(exists(uidOf('br', 1))).toBe(true);
    const plain = await chat('nobody to ask');
    const refused = await plain.call('delete_block', { graph: 'Work', uid: uidOf('br', 2) });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/consent ledger .* could not be used/);
    expect(exists(uidOf('br', 2))).toBe(true);
    expect(await readFile(file, 'utf8')).toBe(text);
    // A write that takes nothing still goes.
    expect(
      jsonOf(
        await plain.call('create_block', { graph: 'Work', parentUid: uidOf('pgbr', 0), markdown: 'added' }),
      ),
    ).toBeTruthy();
  });

  it('unlockable (the folder is a file): asked, and a yes to exactly that goes', async () => {
    await mkdir(data, { recursive: true });
    await writeFile(path.join(data, 'consent'), 'not a folder');
    const a = await chat('accept');
    jsonOf(await a.call('delete_block', { graph: 'Work', uid: uidOf('ul', 0) }));
    expect(a.asked).toHaveLength(1);
    expect(a.asked[0]).toMatch(
      /^Delete 1 block on 'Unlockable' .*could not be used, as it could not be locked/,
    );
    expect(exists(uidOf('ul', 0))).toBe(false);
  });
});

describe('an undo over two graphs is judged graph by graph', () => {
  beforeEach(() => rm(data, { recursive: true, force: true }));

  it('a page declined in Work: undoing changes in Work and Other together is asked for Work, naming both graphs', async () => {
    const a = await chat('decline');
    const lines = Array.from({ length: 6 }, (_, i) => `- made ${i}`).join('\n');
    jsonOf(await a.call('create_block', { graph: 'Work', parentUid: uidOf('pgut', 0), markdown: lines }));
    jsonOf(
      await a.call('create_block', { graph: 'Other', parentUid: uidOf('pguo', 0), markdown: 'one there' }),
    );
    const listed = jsonOf<{ changes: Array<{ id: string; graph: string }> }>(
      await a.call('list_changes', {}),
    );
    const ids = listed.changes.map((c) => c.id);
    expect(listed.changes.map((c) => c.graph).sort()).toEqual(['Other', 'Work']);
    expect(textOf(await a.call('delete_page', { graph: 'Work', uid: uidOf('pgut', 0) }))).toMatch(/declined/);
    // 7 blocks in all, under the threshold: only the decline of 'Undo target' in Work asks.
    expect(textOf(await a.call('undo_changes', { ids }))).toMatch(/declined undo_changes/);
    expect(a.asked).toHaveLength(2);
    expect(a.asked[1]).toMatch(/in graph 'Work'\?.*The person declined a change to 'Undo target'/);
    expect(a.asked[1]).toMatch(/in graph 'Other'\?/);
    const made = '[:find (count ?b) . :in $ ?s :where [?b :block/string ?s]]';
    expect(world.emulator.graph('work').run('data.q', [made, 'made 0'])).toBe(1);
    expect(world.emulator.graph('other').run('data.q', [made, 'one there'])).toBe(1);
  });
});
