/**
 * list_changes / undo_changes through the built bin against the emulator: an agent's writes of
 * every kind are journaled and taken back faithfully (uids, text, order, parents, references),
 * a dry run changes nothing, undoing twice changes nothing, and a person's later edit is kept
 * and reported as a conflict.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Emulator, type PageSpec } from '../../emulator/index.ts';
import {
  jsonOf,
  errorOf,
  newToken,
  startMcp,
  type McpHandle,
  writeToolsConfig,
} from '../../harness/mcp-bin.ts';
import { startStdioWorld, type StdioWorld } from '../../harness/stdio-world.ts';
import { graphSnapshot } from './graph-snapshot.ts';

const TOKEN = newToken();
const content: PageSpec[] = [
  {
    title: 'Project',
    uid: 'projpage1',
    children: [
      { string: 'alpha', uid: 'alpha0001', children: [{ string: 'alpha child', uid: 'alphac001' }] },
      { string: 'beta', uid: 'beta00001', heading: 2 },
      { string: 'gamma refers ((alpha0001)) and [[Target]]', uid: 'gamma0001' },
    ],
  },
  { title: 'Other', uid: 'otherpg01', children: [{ string: 'other #Project', uid: 'other0001' }] },
  { title: 'Target', uid: 'targetpg1', children: [{ string: 't1', uid: 'target001' }] },
];

let world: StdioWorld | undefined;
let home: string;
let emulator: Emulator;
let mcp: McpHandle;

beforeEach(async () => {
  world = await startStdioWorld({
    emulator: {
      graphs: [{ name: 'work', content, tokens: [{ token: TOKEN, accessLevel: 'full', ai: true }] }],
    },
    config: [{ name: 'work', token: TOKEN, accessLevel: 'full' }],
    orient: ['work'],
  });
  ({ home, emulator, mcp } = world);
});

afterEach(() => world?.close());

const graph = () => emulator.graph('work');

async function agentWrites(): Promise<void> {
  jsonOf(
    await mcp.call('create_block', {
      parentUid: 'projpage1',
      markdown: '- new [[Fresh Page]]\n  - nested',
      order: 1,
    }),
  );
  jsonOf(await mcp.call('create_page', { title: 'Made', markdown: '- m1\n- m2 ((beta00001))' }));
  jsonOf(await mcp.call('update_block', { uid: 'beta00001', string: 'beta, rewritten', heading: 0 }));
  jsonOf(await mcp.call('move_block', { uid: 'alpha0001', parentUid: 'otherpg01', order: 0 }));
  jsonOf(await mcp.call('delete_block', { uid: 'alpha0001' }));
  jsonOf(await mcp.call('update_page', { uid: 'projpage1', title: 'Project Renamed' }));
  jsonOf(await mcp.call('delete_page', { uid: 'targetpg1' }));
}

describe('undo through the agent tools', () => {
  it('lists this chat’s changes newest first and undoes them all, faithfully', async () => {
    const before = graphSnapshot(graph());
    await agentWrites();
    const listed = jsonOf<{ changes: Array<Record<string, unknown>>; total: number }>(
      await mcp.call('list_changes'),
    );
    expect(listed.total).toBe(7);
    expect(listed.changes.map((c) => c.tool)).toEqual([
      'delete_page',
      'update_page',
      'delete_block',
      'move_block',
      'update_block',
      'create_page',
      'create_block',
    ]);
    expect(listed.changes.every((c) => c.undoable === true && c.undone === false)).toBe(true);
    expect(listed.changes[0]?.summary).toBe("Deleted page 'Target' (1 block)");

    const changed = graphSnapshot(graph());
    expect(changed).not.toEqual(before);
    expect(changed.find((e) => e.uid === 'gamma0001')?.string).toBe('gamma refers alpha and Target');
    const dry = jsonOf<{ undone: number; conflicts: number }>(
      await mcp.call('undo_changes', { all: true, dryRun: true }),
    );
    expect(dry).toMatchObject({ dryRun: true, undone: 7, conflicts: 0 });
    expect(graphSnapshot(graph())).toEqual(changed);

    const undo = jsonOf<{ undone: number; conflicts: number; undoIds: string[] }>(
      await mcp.call('undo_changes', { all: true }),
    );
    expect(undo).toMatchObject({ dryRun: false, undone: 7, conflicts: 0 });
    expect(graphSnapshot(graph())).toEqual(before);

    const again = jsonOf<{ changes: Array<{ result: string }> }>(
      await mcp.call('undo_changes', { all: true }),
    );
    expect(again.changes.every((c) => c.result === 'already-undone')).toBe(true);
    expect(graphSnapshot(graph())).toEqual(before);
  });

  it('keeps a person’s later edit and reports it as a conflict', async () => {
    jsonOf(await mcp.call('update_block', { uid: 'beta00001', string: 'agent text' }));
    graph()
      .asPerson('Bea')
      .run('data.block.update', [{ block: { uid: 'beta00001', string: 'Bea wrote this' } }]);
    const undo = jsonOf<{
      conflicts: number;
      changes: Array<{ result: string; steps: Array<{ detail: string }> }>;
    }>(await mcp.call('undo_changes', { all: true }));
    expect(undo.conflicts).toBe(1);
    expect(undo.changes[0]?.result).toBe('conflict');
    expect(undo.changes[0]?.steps[0]?.detail).toMatch(/Bea wrote this/);
    expect(
      graph().run('data.q', ['[:find ?s . :where [?b :block/uid "beta00001"] [?b :block/string ?s]]']),
    ).toBe('Bea wrote this');
  });

  it('keeps the journal private, in the data folder, and never a token', async () => {
    await agentWrites();
    jsonOf(await mcp.call('undo_changes', { all: true }));
    const dir = path.join(home, '.local/share/roam-companion/journal');
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    const segments = (await readdir(dir)).filter((name) => name.endsWith('.jsonl'));
    expect(segments.length).toBeGreaterThan(0);
    for (const name of segments) {
      const file = path.join(dir, name);
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect(await readFile(file, 'utf8')).not.toContain(TOKEN);
    }
    expect(mcp.transcript()).not.toContain(TOKEN);
  });

  it('keeps within the level the user chose for the graph: read-append cannot delete what it added', async () => {
    await mcp.close();
    await writeToolsConfig(home, [{ name: 'work', token: TOKEN, accessLevel: 'read-append' }]);
    mcp = await startMcp({ home });
    jsonOf(await mcp.call('select_graph', { graph: 'work' }));
    const made = jsonOf<{ uids: string[] }>(
      await mcp.call('create_block', { parentUid: 'projpage1', markdown: 'appended' }),
    );
    const undo = jsonOf<{ changes: Array<{ result: string; steps: Array<{ detail: string }> }> }>(
      await mcp.call('undo_changes', { all: true }),
    );
    expect(undo.changes[0]?.result).toBe('failed');
    expect(undo.changes[0]?.steps[0]?.detail).toMatch(/read-append/);
    expect(graphSnapshot(graph()).some((e) => e.uid === made.uids[0])).toBe(true);
    // A person can: the CLI undoes with the config's token, whatever level the agents were given.
  });

  it('refuses an id from no chat of its own', async () => {
    const error = errorOf(await mcp.call('undo_changes', { ids: ['nosuchid'] }));
    expect(error.code).toBe('NOT_FOUND');
    expect(error.message).toContain('List them with list_changes.');
  });
});
