/**
 * What the Activity draws for each of the journal's op kinds: an edit's texts (and a conflict's
 * text now), outlines added or removed under a place named by page, a move's places by name, a
 * rename; the ops with nothing to draw left to the summary line. Texts and outlines cut, never a
 * uid, and no op kind falls through unnoticed (the samples are a Record over every kind).
 */
import { describe, expect, it } from 'vitest';
import {
  changeDetails,
  changePage,
  readableSummary,
} from '../../../../src-main/core/activity/activity-details.ts';
import { placeKey, placeUids } from '../../../../src-main/core/activity/activity-places.ts';
import type { Change, Op, OpKind, TreeNode } from '../../../../src-mcp/changes/index.ts';

const graph = { graph: 'work', graphType: 'hosted' as const };
const change = (ops: Op[], extra: Partial<Change> = {}): Change => ({
  id: 'c1',
  at: '2026-11-26T10:00:00.000Z',
  ...graph,
  chat: { id: 'chat-a', startedAt: '2026-11-26T10:00:00.000Z', kind: 'agent' },
  tool: 'tool',
  summary: '',
  status: 'applied',
  ops: ops.map((op, n) => ({ n, op, outcome: 'applied' })),
  undoable: true,
  undone: false,
  ...extra,
});
const names = (entries: Record<string, string>) =>
  new Map(Object.entries(entries).map(([uid, name]) => [placeKey(graph, uid), name]));
const leaf = (string: string, children: TreeNode[] = []): TreeNode => ({ string, children });

/** One op of every kind the journal has: a kind added to `Op` fails the typecheck here. */
const sample: Record<OpKind, Op> = {
  'create-blocks': {
    kind: 'create-blocks',
    parent: 'parent001',
    tree: [leaf('new', [leaf('child')])],
    where: 'under block parent001',
  },
  'create-page': { kind: 'create-page', title: 'Fresh', tree: [leaf('first')] },
  'update-block': {
    kind: 'update-block',
    uid: 'edited001',
    page: 'Notes',
    before: { string: 'old' },
    after: { string: 'new' },
  },
  'move-block': {
    kind: 'move-block',
    uid: 'moved0001',
    string: 'moving',
    before: { parent: 'fromblk01', order: 0, page: 'Old' },
    after: { parent: 'topage001', order: 'last' },
  },
  'delete-blocks': {
    kind: 'delete-blocks',
    items: [{ block: { uid: 'gone00001', string: 'gone', children: [] }, parent: 'p', page: 'Notes' }],
    referrers: [],
  },
  'delete-page': { kind: 'delete-page', uid: 'pg', title: 'Target', children: [leaf('t1')], referrers: [] },
  'rename-page': { kind: 'rename-page', uid: 'pg', before: 'Old name', after: 'New name' },
  comment: { kind: 'comment', block: 'edited001', text: 'a remark' },
  shortcut: { kind: 'shortcut', page: 'Notes', add: true },
  upload: { kind: 'upload', bytes: 10, filename: 'a.png' },
  'delete-file': { kind: 'delete-file', url: 'https://firebasestorage.googleapis.com/a.png' },
  opaque: { kind: 'opaque', action: 'data.x', reason: 'unknown' },
};

/** What the tray draws for each kind (undefined: the summary line says it all). */
const drawn: Record<OpKind, ReturnType<typeof changeDetails>[number] | undefined> = {
  'create-blocks': {
    kind: 'outline',
    change: 'added',
    place: "under 'a parent' in 'Notes'",
    lines: [
      { depth: 0, text: 'new' },
      { depth: 1, text: 'child' },
    ],
    more: 0,
  },
  'create-page': {
    kind: 'outline',
    change: 'added',
    place: "on new page 'Fresh'",
    lines: [{ depth: 0, text: 'first' }],
    more: 0,
  },
  'update-block': { kind: 'edit', page: 'Notes', before: 'old', after: 'new' },
  'move-block': { kind: 'move', text: 'moving', from: "under 'x' in 'Old'", to: "'Inbox'" },
  'delete-blocks': {
    kind: 'outline',
    change: 'removed',
    place: "in 'Notes'",
    lines: [{ depth: 0, text: 'gone' }],
    more: 0,
  },
  'delete-page': {
    kind: 'outline',
    change: 'removed',
    place: "with page 'Target'",
    lines: [{ depth: 0, text: 't1' }],
    more: 0,
  },
  'rename-page': { kind: 'rename', before: 'Old name', after: 'New name' },
  comment: {
    kind: 'outline',
    change: 'added',
    place: 'as a comment',
    lines: [{ depth: 0, text: 'a remark' }],
    more: 0,
  },
  shortcut: undefined,
  upload: undefined,
  'delete-file': undefined,
  opaque: undefined,
};

const pageOf: Record<OpKind, string | undefined> = {
  'create-blocks': undefined,
  'create-page': 'Fresh',
  'update-block': 'Notes',
  'move-block': undefined,
  'delete-blocks': 'Notes',
  'delete-page': 'Target',
  'rename-page': 'New name',
  comment: undefined,
  shortcut: undefined,
  upload: undefined,
  'delete-file': undefined,
  opaque: undefined,
};

const places = names({
  parent001: "under 'a parent' in 'Notes'",
  fromblk01: "under 'x' in 'Old'",
  topage001: "'Inbox'",
});

describe('the Activity’s details of a change', () => {
  it.each(Object.keys(sample) as OpKind[])('draws a %s op as the tray always has', (kind) => {
    const details = changeDetails(change([sample[kind]]), places);
    expect(details).toEqual(drawn[kind] ? [drawn[kind]] : []);
    expect(changePage(change([sample[kind]]))).toBe(pageOf[kind]);
  });

  it('shows a conflicted edit’s text now, only when it differs from the agent’s', () => {
    const edit = change([sample['update-block']]);
    expect(changeDetails(edit, places, names({ edited001: 'my words' }))).toEqual([
      { kind: 'edit', page: 'Notes', before: 'old', after: 'new', now: 'my words' },
    ]);
    expect(changeDetails(edit, places, names({ edited001: 'new' }))).toEqual([
      { kind: 'edit', page: 'Notes', before: 'old', after: 'new' },
    ]);
  });

  it('says which fields an edit without text changed, and starts an edit from nothing', () => {
    const fields: Op = {
      kind: 'update-block',
      uid: 'edited001',
      page: 'Notes',
      before: { open: true },
      after: { open: false, heading: 2 },
    };
    const bare: Op = { kind: 'update-block', uid: 'edited001', before: {}, after: { open: false } };
    const fresh: Op = { kind: 'update-block', uid: 'edited001', before: {}, after: { string: 'text' } };
    expect(changeDetails(change([fields, bare, fresh]))).toEqual([
      { kind: 'note', text: "Changed open, heading of a block in 'Notes'" },
      { kind: 'note', text: 'Changed open of a block' },
      { kind: 'edit', before: '', after: 'text' },
    ]);
  });

  it('cuts long texts and outlines, and at most six ops are drawn', () => {
    const long = 'x'.repeat(700);
    const deep = Array.from({ length: 15 }, (_, i) => leaf(`b${i}`));
    const details = changeDetails(
      change([
        { kind: 'update-block', uid: 'edited001', before: { string: long }, after: { string: long + 'y' } },
        { kind: 'create-page', title: 'Big', tree: [leaf('top', deep)] },
        ...Array.from({ length: 6 }, () => sample['rename-page']),
      ]),
    );
    expect(details).toHaveLength(6);
    expect(details[0]).toEqual({ kind: 'edit', before: `${'x'.repeat(599)}…`, after: `${'x'.repeat(599)}…` });
    expect(details[1]).toMatchObject({ kind: 'outline', more: 4 });
    expect(details[1]).toHaveProperty('lines', [
      { depth: 0, text: 'top' },
      ...deep.slice(0, 11).map((b) => ({ depth: 1, text: b.string })),
    ]);
  });

  it('names where new blocks went by page, the tool’s words, or words, never by uid', () => {
    const create = (extra: Partial<Extract<Op, { kind: 'create-blocks' }>>): Op => ({
      kind: 'create-blocks',
      tree: [leaf('new')],
      ...extra,
    });
    const ops: Op[] = [
      create({ parent: 'dailypg01', container: { page: { uid: 'd', existed: true, title: 'Inbox' } } }),
      create({ parent: 'dailypg01', where: 'to the daily note (today)' }),
      create({ parent: 'parent001', where: 'under block parent001' }),
      create({ parent: 'topage001', where: 'under block topage001' }),
      create({ parent: 'unknown01', where: 'under block unknown01' }),
      create({}),
    ];
    const placed = changeDetails(change(ops), places).map((d) => (d.kind === 'outline' ? d.place : d.kind));
    expect(placed).toEqual([
      "to page 'Inbox'",
      'to the daily note (today)',
      "under 'a parent' in 'Notes'",
      "to page 'Inbox'",
      'under another block',
      undefined,
    ]);
    expect(changeDetails(change(ops.slice(5)))[0]).not.toHaveProperty('place');
    expect(changePage(change(ops.slice(0, 1)))).toBe('Inbox');
    expect(changePage(change([create({ where: "to page 'Named'" })]))).toBe('Named');
    expect(placeUids(change(ops))).toEqual(['dailypg01', 'parent001', 'topage001', 'unknown01']);
  });

  it('draws a move without its text, and leaves unnamed places out', () => {
    const move: Op = {
      kind: 'move-block',
      uid: 'moved0001',
      before: { parent: 'unknown01', order: 0 },
      after: { parent: 'unknown02', order: 0 },
    };
    expect(changeDetails(change([move]), places)).toEqual([{ kind: 'move', text: '' }]);
    expect(placeUids(change([sample['move-block']]))).toEqual(['fromblk01', 'topage001']);
  });

  it('draws no outline for a change without blocks: no "Removed 0 blocks" over an empty bar', () => {
    const emptyPage: Op = { kind: 'delete-page', uid: 'pg', title: 'Empty', children: [], referrers: [] };
    const barePage: Op = { kind: 'create-page', title: 'Bare', tree: [] };
    expect(changeDetails(change([emptyPage, barePage]))).toEqual([]);
  });

  it('names a removed outline’s page from any of its blocks', () => {
    const removed: Op = {
      kind: 'delete-blocks',
      items: [
        { block: { uid: 'gone00001', string: 'a', children: [] }, parent: 'p' },
        { block: { uid: 'gone00002', string: 'b', children: [] }, parent: 'p', page: 'Later' },
      ],
      referrers: [],
    };
    expect(changeDetails(change([removed]))[0]).toMatchObject({ place: "in 'Later'" });
    expect(changePage(change([sample.comment, removed]))).toBe('Later');
  });

  it('names the places of a summary as Roam names them now, and never by uid', () => {
    // An entry journaled with uids in its line (before summaries named places) reads the same.
    const moved = change([sample['move-block']], {
      summary: "Moved block 'moving' from fromblk01 to topage001",
    });
    expect(readableSummary(moved, places)).toBe("Moved block 'moving' from under 'x' in 'Old' to 'Inbox'");
    // Roam cannot say: the old page the journal kept, and no uid.
    expect(readableSummary(moved)).toBe("Moved block 'moving' from 'Old'");
    const added = change([sample['create-blocks']], { summary: "Added 'new' under block parent001" });
    expect(readableSummary(added, places)).toBe("Added 'new' (2 blocks) under 'a parent' in 'Notes'");
    expect(readableSummary(added, names({ parent001: "'Notes'" }))).toBe(
      "Added 'new' (2 blocks) on page 'Notes'",
    );
    expect(readableSummary(added)).toBe("Added 'new' (2 blocks)");
    for (const op of Object.values(sample))
      expect(readableSummary(change([op]))).not.toMatch(/parent001|fromblk01|topage001|edited001|gone00001/);
  });
});
