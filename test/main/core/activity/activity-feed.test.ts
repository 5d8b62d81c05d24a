/**
 * The feed's shape from journal changes: grouped by chat with the client's name (even when it
 * arrived after the first change), graphs by their tray nickname, bounded, and today's count of
 * agent changes (not yesterday's, not a person's undos).
 */
import { describe, expect, it } from 'vitest';
import {
  ACTIVITY_FEED_LIMIT,
  activityFeed,
  changesToday,
  msUntilMidnight,
} from '../../../../src-main/core/activity/activity-feed.ts';
import type { Change } from '../../../../src-mcp/changes/index.ts';
import type { StoreData } from '../../../../src-main/core/store/tray-store.ts';

const now = new Date();
const change = (id: string, extra: Partial<Change> = {}): Change => ({
  id,
  at: now.toISOString(),
  graph: 'work',
  graphType: 'hosted',
  chat: { id: 'chat-a', startedAt: now.toISOString(), kind: 'agent' },
  tool: 'update_block',
  summary: `change ${id}`,
  status: 'applied',
  ops: [],
  undoable: true,
  undone: false,
  ...extra,
});
const store = { graphs: [{ name: 'work', type: 'hosted', nickname: 'Work' }] } as unknown as StoreData;

describe('the Activity feed', () => {
  it('groups by chat, names the client and the graph as the tray does, newest first', () => {
    const named = {
      id: 'chat-a',
      startedAt: now.toISOString(),
      kind: 'agent' as const,
      client: { name: 'Cursor' },
    };
    const feed = activityFeed([change('2', { chat: named }), change('1')], store);
    expect(feed.chats).toEqual([
      expect.objectContaining({ id: 'chat-a', client: 'Cursor', graphs: ['Work'] }),
    ]);
    expect(feed.chats[0]!.changes.map((c) => [c.id, c.nickname])).toEqual([
      ['2', 'Work'],
      ['1', 'Work'],
    ]);
  });

  it('counts only today’s agent changes', () => {
    const yesterday = new Date(now.getTime() - 86_400_000 * 1.5).toISOString();
    const person = { id: 'person-x', startedAt: now.toISOString(), kind: 'person' as const };
    const changes = [
      change('3', { chat: person, undoes: ['1'] }),
      change('2'),
      change('1', { at: yesterday }),
    ];
    expect(changesToday(changes, now)).toBe(1);
  });

  it('knows when today ends, so the count starts again at midnight', () => {
    expect(msUntilMidnight(new Date(2026, 10, 26, 23, 59, 30))).toBe(30_000);
    expect(msUntilMidnight(new Date(2026, 10, 26, 0, 0, 0))).toBe(
      new Date(2026, 10, 27).getTime() - new Date(2026, 10, 26).getTime(),
    );
  });

  it('puts the changes before and after a rename on one page, under its title now', () => {
    const edit = (id: string, page: string): Change =>
      change(id, {
        ops: [
          {
            n: 0,
            outcome: 'applied',
            op: {
              kind: 'update-block',
              uid: `b-${id}`,
              page,
              before: { string: 'a' },
              after: { string: 'b' },
            },
          },
        ],
      });
    const rename = change('2', {
      tool: 'update_page',
      ops: [
        {
          n: 0,
          outcome: 'applied',
          op: { kind: 'rename-page', uid: 'pg', before: 'Plans', after: 'Hiring' },
        },
      ],
    });
    const feed = activityFeed(
      [edit('3', 'Hiring'), rename, edit('1', 'Plans'), edit('0', 'Elsewhere')],
      store,
    );
    expect(feed.chats[0]!.changes.map((c) => [c.id, c.page])).toEqual([
      ['3', 'Hiring'],
      ['2', 'Hiring'],
      ['1', 'Hiring'],
      ['0', 'Elsewhere'],
    ]);
    // Undone, the rename no longer holds: the page has its old title again.
    const undone = activityFeed([{ ...rename, undone: true }, edit('1', 'Plans')], store);
    expect(undone.chats[0]!.changes.map((c) => c.page)).toEqual(['Hiring', 'Plans']);
  });

  it('counts an undo, its redo and an undo again in the agents’ changes each names', () => {
    const person = { id: 'person-x', startedAt: now.toISOString(), kind: 'person' as const };
    const run = (id: string, undoes: string[], results: Change['results']) =>
      change(id, { chat: person, tool: 'Roam Companion', summary: 'Undid 1 change', undoes, results });
    const done = (id: string) => ({ id, n: 0, status: 'undone' as const, detail: 'done' });
    const undo = run(
      'u',
      ['1', '2', '3'],
      [done('1'), done('2'), { id: '3', n: 0, status: 'conflict', detail: 'edited since' }],
    );
    const redo = run('r', ['u'], [done('u')]);
    const again = run('a', ['r'], [done('r')]);
    const edit = (id: string): Change =>
      change(id, {
        ops: [{ outcome: 'applied', op: { kind: 'comment', block: 'p', text: `note ${id}` } }],
      } as Partial<Change>);
    const feed = activityFeed([again, redo, undo, edit('3'), edit('2'), edit('1')], store);
    const byId = new Map(feed.chats.flatMap((c) => c.changes).map((c) => [c.id, c]));
    expect(byId.get('u')).toMatchObject({
      summary: 'Undid 2 of 3 changes, 1 with conflicts left alone',
      undid: ["Commented on a block: 'note 1'", "Commented on a block: 'note 2'"],
      leftAlone: ["Commented on a block: 'note 3'"],
    });
    expect(byId.get('u')!.isRedo).toBeUndefined();
    expect(byId.get('r')).toMatchObject({
      summary: 'Redid 2 changes',
      isRedo: true,
      undid: ["Commented on a block: 'note 1'", "Commented on a block: 'note 2'"],
    });
    expect(byId.get('r')!.redoDetails).toBeUndefined(); // undoing a redo is no redo
    expect(byId.get('a')).toMatchObject({
      summary: 'Undid 2 changes',
      undid: ["Commented on a block: 'note 1'", "Commented on a block: 'note 2'"],
    });
    expect(byId.get('a')!.isRedo).toBeUndefined();
  });

  it('stays bounded and says when older changes are left out', () => {
    const many = Array.from({ length: ACTIVITY_FEED_LIMIT + 1 }, (_, i) => change(String(i)));
    const feed = activityFeed(many, store);
    expect(feed.chats[0]!.changes).toHaveLength(ACTIVITY_FEED_LIMIT);
    expect(feed.truncated).toBe(true);
  });
});
