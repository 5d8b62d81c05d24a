/**
 * describeChange is the one place the journal's op kinds become plain data for a diff (the
 * in-chat app, the tray's Activity): every kind is described with the facts a view needs (the
 * block, the places by uid, the page, the fields set), none falls through silently, and for an
 * agent the texts hidden from AI are replaced everywhere they appear.
 */
import { describe, expect, it } from 'vitest';
import { describeChange, type Change, type Op, type OpKind } from '../../../src-mcp/changes/index.ts';

const change = (ops: Op[]): Change => ({
  id: 'c1',
  at: '2026-11-26T10:00:00.000Z',
  graph: 'work',
  chat: { id: 'chat-a', startedAt: '2026-11-26T10:00:00.000Z' },
  tool: 'tool',
  summary: '',
  status: 'applied',
  ops: ops.map((op, n) => ({ n, op, outcome: 'applied' })),
  undoable: true,
  undone: false,
});
const describeOne = (op: Op) => describeChange(change([op]))[0];

/** One op of every kind the journal has, and its description: a new kind fails the typecheck. */
const cases: Record<OpKind, [Op, Record<string, unknown>]> = {
  'create-blocks': [
    {
      kind: 'create-blocks',
      parent: 'daily0001',
      tree: [{ uid: 'new000001', string: 'new', children: [{ string: 'child', children: [] }] }],
      container: { page: { uid: 'daily0001', existed: true, title: 'Inbox' } },
      where: "to page 'Inbox'",
    },
    {
      kind: 'create',
      page: 'Inbox',
      where: "to page 'Inbox'",
      to: { parent: 'daily0001' },
      blocks: [{ uid: 'new000001', string: 'new', children: [{ string: 'child', children: [] }] }],
    },
  ],
  'create-page': [
    { kind: 'create-page', title: 'Fresh', tree: [{ string: 'first', children: [] }] },
    { kind: 'create', page: 'Fresh', wholePage: true, blocks: [{ string: 'first', children: [] }] },
  ],
  'update-block': [
    {
      kind: 'update-block',
      uid: 'edited001',
      page: 'Notes',
      before: { string: 'old', open: true },
      after: { string: 'new', open: false },
    },
    {
      kind: 'edit',
      uid: 'edited001',
      page: 'Notes',
      before: 'old',
      after: 'new',
      changed: ['string', 'open'],
    },
  ],
  'move-block': [
    {
      kind: 'move-block',
      uid: 'moved0001',
      string: 'moving',
      before: { parent: 'fromblk01', order: 0, page: 'Old' },
      after: { parent: 'topage001', order: 'last' },
    },
    {
      kind: 'move',
      uid: 'moved0001',
      blocks: [{ uid: 'moved0001', string: 'moving', children: [] }],
      from: { parent: 'fromblk01', page: 'Old' },
      to: { parent: 'topage001' },
    },
  ],
  'delete-blocks': [
    {
      kind: 'delete-blocks',
      items: [
        { block: { uid: 'gone00001', string: 'a', children: [] }, parent: 'p' },
        { block: { uid: 'gone00002', string: 'b', children: [] }, parent: 'p', page: 'Notes' },
      ],
      referrers: [],
    },
    {
      kind: 'delete',
      page: 'Notes',
      blocks: [
        { uid: 'gone00001', string: 'a', children: [] },
        { uid: 'gone00002', string: 'b', children: [] },
      ],
    },
  ],
  'delete-page': [
    {
      kind: 'delete-page',
      uid: 'target001',
      title: 'Target',
      children: [{ uid: 't1', string: 't1', children: [] }],
      referrers: [],
    },
    { kind: 'delete', page: 'Target', wholePage: true, blocks: [{ uid: 't1', string: 't1', children: [] }] },
  ],
  'rename-page': [
    { kind: 'rename-page', uid: 'pg', before: 'Old name', after: 'New name' },
    { kind: 'rename', page: 'New name', before: 'Old name', after: 'New name' },
  ],
  comment: [
    { kind: 'comment', block: 'edited001', text: 'a remark' },
    { kind: 'comment', blocks: [{ string: 'a remark', children: [] }] },
  ],
  shortcut: [{ kind: 'shortcut', page: 'Notes', add: true }, { kind: 'shortcut' }],
  upload: [{ kind: 'upload', bytes: 10, filename: 'a.png' }, { kind: 'file' }],
  'delete-file': [
    { kind: 'delete-file', url: 'https://firebasestorage.googleapis.com/a.png' },
    { kind: 'file' },
  ],
  opaque: [{ kind: 'opaque', action: 'data.x', reason: 'unknown' }, { kind: 'other' }],
};

describe('describeChange', () => {
  it.each(Object.keys(cases) as OpKind[])('describes a %s op with the facts a view needs', (kind) => {
    const [op, expected] = cases[kind];
    const { summary, ...facts } = describeOne(op)!;
    expect(facts).toEqual(expected);
    expect(summary).not.toBe('');
  });

  it('describes every op of a change, in order', () => {
    const ops = Object.values(cases).map(([op]) => op);
    expect(describeChange(change(ops)).map((d) => d.kind)).toEqual(
      Object.values(cases).map(([, expected]) => expected.kind),
    );
  });

  it('names the fields an edit set when it did not touch the text', () => {
    const edit = describeOne({
      kind: 'update-block',
      uid: 'edited001',
      before: { open: true },
      after: { open: false, heading: 2 },
    });
    expect(edit).toEqual({
      kind: 'edit',
      uid: 'edited001',
      changed: ['open', 'heading'],
      summary: 'Changed open, heading of a block',
    });
  });

  it('replaces hidden texts for an agent in every text it gives', () => {
    const secret = 'pin 1234 #.rm-private';
    const ops: Op[] = [
      { kind: 'update-block', uid: 'edited001', before: { string: secret }, after: { string: secret } },
      { kind: 'create-blocks', parent: 'p', tree: [{ string: secret, children: [] }] },
      {
        kind: 'move-block',
        uid: 'moved0001',
        string: secret,
        before: { parent: 'a', order: 0 },
        after: { parent: 'b', order: 0 },
      },
      { kind: 'comment', block: 'edited001', text: secret },
    ];
    const forAgent = describeChange(change(ops), { hidden: { uids: new Set(), strings: new Set() } });
    expect(forAgent).toHaveLength(ops.length);
    expect(JSON.stringify(forAgent)).not.toContain('1234');
  });
});
