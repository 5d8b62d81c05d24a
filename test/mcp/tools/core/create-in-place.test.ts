/**
 * create_block and append_to_daily_note name their target as Roam does (a page title, or a daily
 * note by date) in one data.block.fromMarkdown: no lookup, no separate page create. `open: false`
 * creates the new blocks collapsed; update_block takes the fields of an update_blocks item; the
 * change journal still takes back what these writes made, the page included. Through the built bin.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageSpec } from '../../../emulator/index.ts';
import { errorOf, jsonOf, type McpHandle } from '../../../harness/mcp-bin.ts';
import { undoWorld, type UndoWorld } from '../../changes/changes-setup.ts';
import { graphSnapshot } from '../../changes/graph-snapshot.ts';

const content: PageSpec[] = [
  { title: 'Work', uid: 'workpage1', children: [{ string: 'Tasks', uid: 'tasks0001' }] },
];

let world: UndoWorld;
let agent: McpHandle;
beforeAll(async () => {
  world = await undoWorld(content);
  agent = await world.agent();
});
afterAll(() => world.close());

const graph = () => world.emulator.graph('work');
const writes = () =>
  world.emulator.requests.filter((r) => r.action?.startsWith('data.') && r.action !== 'data.q');
const sent = () => writes().map((r) => ({ action: r.action, args: (r.body as { args: unknown[] }).args }));
const block = (uid: string) =>
  graph().run('data.q', [
    `[:find (pull ?b [:block/string :block/open :block/text-align :children/view-type]) . :where [?b :block/uid "${uid}"]]`,
  ]) as Record<string, unknown>;

describe("writing to a page by Roam's own location", () => {
  it('create_block {pageTitle} on a new page: one fromMarkdown with page-title, and undo removes the page too', async () => {
    const before = graphSnapshot(graph());
    world.emulator.clearRequests();
    const result = jsonOf<{ uids: string[]; page: string }>(
      await agent.call('create_block', { pageTitle: 'Fresh Page', markdown: '- one\n  - two', open: false }),
    );
    expect(result).toMatchObject({ created: 'blocks', page: 'Fresh Page', uids: [expect.any(String)] });
    expect(sent()).toEqual([
      {
        action: 'data.block.fromMarkdown',
        args: [
          {
            location: { 'page-title': 'Fresh Page', order: 'last' },
            'markdown-string': '- one\n  - two',
            open: false,
          },
        ],
      },
    ]);
    expect(block(result.uids[0]!)).toMatchObject({ ':block/string': 'one', ':block/open': false });

    const undone = jsonOf<{ undone: number; changes: Array<{ steps: Array<{ detail: string }> }> }>(
      await agent.call('undo_changes', { all: true }),
    );
    expect(undone.undone).toBe(1);
    expect(undone.changes[0]!.steps[0]!.detail).toMatch(/the page 'Fresh Page' it created/);
    expect(graphSnapshot(graph())).toEqual(before);
  });

  it('create_block {pageTitle} on an existing page adds to it and leaves the page on undo', async () => {
    const before = graphSnapshot(graph());
    world.emulator.clearRequests();
    jsonOf(await agent.call('create_block', { pageTitle: 'Work', markdown: 'added', nestUnder: 'Tasks' }));
    expect(sent()).toEqual([
      {
        action: 'data.block.fromMarkdown',
        args: [
          {
            location: { 'page-title': 'Work', order: 'last', 'nest-under-str': 'Tasks' },
            'markdown-string': 'added',
          },
        ],
      },
    ]);
    expect(jsonOf(await agent.call('undo_changes', { all: true }))).toMatchObject({ undone: 1 });
    expect(graphSnapshot(graph())).toEqual(before);
  });

  it('create_block {dailyNotePage} and append_to_daily_note send {"daily-note-page": date}, with open', async () => {
    const before = graphSnapshot(graph());
    world.emulator.clearRequests();
    const made = jsonOf<{ parentUid: string; page: string; uids: string[] }>(
      await agent.call('create_block', { dailyNotePage: '2027-05-06', markdown: 'by date' }),
    );
    expect(made).toMatchObject({ parentUid: '05-06-2027', page: 'May 6th, 2027' });
    const appended = jsonOf<{ uids: string[] }>(
      await agent.call('append_to_daily_note', { date: '05-06-2027', markdown: 'closed', open: false }),
    );
    expect(sent()).toEqual([
      {
        action: 'data.block.fromMarkdown',
        args: [
          {
            location: { 'page-title': { 'daily-note-page': '05-06-2027' }, order: 'last' },
            'markdown-string': 'by date',
          },
        ],
      },
      {
        action: 'data.block.fromMarkdown',
        args: [
          {
            location: { 'page-title': { 'daily-note-page': '05-06-2027' }, order: 'last' },
            'markdown-string': 'closed',
            open: false,
          },
        ],
      },
    ]);
    expect(block(appended.uids[0]!)).toMatchObject({ ':block/open': false });
    expect(jsonOf(await agent.call('undo_changes', { all: true }))).toMatchObject({ undone: 2 });
    expect(graphSnapshot(graph())).toEqual(before);
  });

  it('update_block takes childrenViewType and textAlign, like an update_blocks item', async () => {
    jsonOf(
      await agent.call('update_block', {
        uid: 'tasks0001',
        childrenViewType: 'numbered',
        textAlign: 'center',
      }),
    );
    expect(block('tasks0001')).toMatchObject({
      ':block/text-align': 'center',
      ':children/view-type': ':numbered',
    });
    const none = errorOf(await agent.call('update_block', { uid: 'tasks0001' }));
    expect(none).toMatchObject({ code: 'INVALID_PARAMS' });
    expect(none.message).toMatch(/childrenViewType or textAlign/);
  });
});
