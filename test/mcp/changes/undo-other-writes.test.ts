/**
 * Undo of the other writes, through the built bin: daily-note appends (the page the append made
 * goes too), nest-under sections, comments, shortcuts, uploads and file deletes (bytes kept and
 * uploaded again), batch updates, an extension tool call (recorded, never undoable), and an undo
 * undone again (redo).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PageSpec } from '../../emulator/index.ts';
import { jsonOf, type McpHandle } from '../../harness/mcp-bin.ts';
import { graphSnapshot } from './graph-snapshot.ts';
import { undoWorld, type UndoWorld } from './changes-setup.ts';

const content: PageSpec[] = [
  {
    title: 'Home',
    uid: 'homepage1',
    sidebar: 0,
    children: [
      { string: 'one', uid: 'one000001' },
      { string: 'two', uid: 'two000001' },
    ],
  },
  { title: 'Work', uid: 'workpage1', sidebar: 1, children: [{ string: 'Tasks', uid: 'tasks0001' }] },
  { title: 'Later', uid: 'laterpg01', children: [] },
];

let world: UndoWorld;
let agent: McpHandle;
beforeEach(async () => {
  world = await undoWorld(content, {
    comments: [
      { block: 'two000001', author: 'Bea', createdTime: '2026-01-02T10:00:00Z', text: 'a person’s comment' },
    ],
    extensionTools: [{ tool: 'x/count', description: 'Counts', scope: 'edit', result: { counted: 3 } }],
  });
  agent = await world.agent();
});
afterEach(() => world.close());

const graph = () => world.emulator.graph('work');
type Report = {
  undone: number;
  conflicts: number;
  changes: Array<{ result: string; steps: Array<{ status: string; detail: string }> }>;
  undoIds?: string[];
};
const undoAll = async () => jsonOf<Report>(await agent.call('undo_changes', { all: true }));
const starred = () =>
  (graph().run('data.ai.getGraphGuidelines', []) as { starredPages: string[] }).starredPages;

describe('undo of the other writes', () => {
  it('daily-note appends: the note the first append made goes, sections made by nestUnder go', async () => {
    const before = graphSnapshot(graph());
    jsonOf(await agent.call('append_to_daily_note', { markdown: '- first\n  - nested', date: '03-04-2027' }));
    jsonOf(
      await agent.call('append_to_daily_note', {
        markdown: 'second',
        date: '03-04-2027',
        nestUnder: 'Inbox',
      }),
    );
    jsonOf(
      await agent.call('create_block', {
        parentUid: 'workpage1',
        markdown: 'under tasks',
        nestUnder: 'Tasks',
      }),
    );
    jsonOf(
      await agent.call('create_block', {
        parentUid: 'workpage1',
        markdown: 'under a new section',
        nestUnder: 'Ideas',
      }),
    );
    expect(graphSnapshot(graph()).some((e) => e.title === 'March 4th, 2027')).toBe(true);
    expect(await undoAll()).toMatchObject({ undone: 4, conflicts: 0 });
    expect(graphSnapshot(graph())).toEqual(before);
  });

  it('comments: both comments of the day go, the person’s stays', async () => {
    const before = graphSnapshot(graph());
    jsonOf(await agent.call('add_comment', { blockUid: 'two000001', comment: 'agent says hi' }));
    jsonOf(await agent.call('add_comment', { blockUid: 'two000001', commentMarkdown: '- more\n  - detail' }));
    expect(await undoAll()).toMatchObject({ undone: 2, conflicts: 0 });
    expect(graphSnapshot(graph())).toEqual(before);
  });

  it('shortcuts go back where they were', async () => {
    expect(starred()).toEqual(['Home', 'Work']);
    jsonOf(await agent.call('add_shortcut', { uid: 'laterpg01', index: 0 }));
    jsonOf(await agent.call('remove_shortcut', { uid: 'homepage1' }));
    jsonOf(await agent.call('add_shortcut', { uid: 'workpage1', index: 0 }));
    expect(starred()).toEqual(['Work', 'Later']);
    expect(await undoAll()).toMatchObject({ undone: 3, conflicts: 0 });
    expect(starred()).toEqual(['Home', 'Work']);
  });

  it('an upload is deleted; a deleted file is uploaded again from the kept bytes', async () => {
    const person = graph().run('file.upload', [
      { base64: Buffer.from('person bytes').toString('base64'), mimetype: 'text/plain', filename: 'p.txt' },
    ]) as string;
    const personUrl = /\((.+)\)/.exec(person)?.[1] as string;
    const uploaded = jsonOf<{ url: string }>(
      await agent.call('file_upload', {
        base64: Buffer.from('agent bytes').toString('base64'),
        mimetype: 'text/plain',
        filename: 'a.txt',
      }),
    );
    jsonOf(await agent.call('file_delete', { url: personUrl }));
    const report = await undoAll();
    expect(report).toMatchObject({ undone: 2, conflicts: 0 });
    expect(() => graph().run('file.get', [{ url: uploaded.url }])).toThrow(/no file/);
    // Roam gives the restored file a new URL; the undo names it.
    const restored = /as (\S+)/.exec(report.changes[0]?.steps[0]?.detail ?? '')?.[1] as string;
    expect(restored).not.toBe(personUrl);
    const file = graph().run('file.get', [{ url: restored }]) as { base64: string; filename?: string };
    expect(Buffer.from(file.base64, 'base64').toString()).toBe('person bytes');
    expect(file.filename).toBe('p.txt');
  });

  it('batch updates go back per block; an extension call is recorded as not undoable', async () => {
    const before = graphSnapshot(graph());
    jsonOf(
      await agent.call('update_blocks', {
        updates: [
          { uid: 'one000001', string: 'ONE' },
          { uid: 'two000001', heading: 2 },
        ],
      }),
    );
    jsonOf(await agent.call('call_extension_tool', { tool: 'x/count', args: {} }));
    const listed = jsonOf<{ changes: Array<{ tool: string; undoable: boolean; summary: string }> }>(
      await agent.call('list_changes'),
    );
    expect(listed.changes[0]).toMatchObject({ tool: 'call_extension_tool', undoable: false });
    expect(listed.changes[0]?.summary).toMatch(/cannot be undone/);
    const report = await undoAll();
    expect(report.changes.map((c) => c.result)).toEqual(['not-undoable', 'undone']);
    expect(graphSnapshot(graph())).toEqual(before);
  });

  it('an undo can itself be undone (redo), from the terminal', async () => {
    jsonOf(await agent.call('update_block', { uid: 'one000001', string: 'edited' }));
    jsonOf(await agent.call('delete_block', { uid: 'two000001' }));
    const changed = graphSnapshot(graph());
    const report = await undoAll();
    const redo = await world.cli('undo', ...(report.undoIds ?? []));
    expect(redo.status).toBe(0);
    expect(graphSnapshot(graph())).toEqual(changed);
  });
});
