/**
 * The shape every journal record must have to be read (./types.ts says the same in types): what
 * the fold, the summaries and the undo reach for without checking. A line of another shape,
 * however well-formed its JSON (a `done` without `items`, a `begin` without `at`, written by a
 * bug, an older build or a hand), is skipped and counted like a torn line, so it never stops
 * anyone's list or undo. Objects are loose: fields a newer build adds are kept.
 */
import * as z from 'zod';
import type { JournalRecord } from './types.ts';

const uid = z.string();
const int = z.number().int();

const layout = {
  order: z.number().optional(),
  open: z.boolean().optional(),
  heading: z.number().optional(),
  textAlign: z.string().optional(),
  viewType: z.string().optional(),
  blockViewType: z.string().optional(),
};

interface Tree {
  uid?: string;
  string: string;
  children: Tree[];
}
const tree: z.ZodType<Tree> = z.lazy(() =>
  z.looseObject({ uid: uid.optional(), string: z.string(), children: z.array(tree), ...layout }),
);
const trees = z.array(tree);
const referrer = z.looseObject({ uid, string: z.string().optional(), title: z.string().optional() });
const fields = z.looseObject({
  string: z.string().optional(),
  open: z.boolean().optional(),
  heading: z.number().optional(),
  textAlign: z.string().optional(),
  viewType: z.string().optional(),
});

const op = z.discriminatedUnion('kind', [
  z.looseObject({ kind: z.literal('create-blocks'), uids: z.array(uid).optional(), tree: trees }),
  z.looseObject({ kind: z.literal('create-page'), uid: uid.optional(), title: z.string(), tree: trees }),
  z.looseObject({ kind: z.literal('update-block'), uid, before: fields, after: fields }),
  z.looseObject({
    kind: z.literal('move-block'),
    uid,
    before: z.looseObject({ parent: uid, order: z.number() }),
    after: z.looseObject({ parent: uid, order: z.union([z.number(), z.literal('last')]) }),
  }),
  z.looseObject({
    kind: z.literal('delete-blocks'),
    items: z.array(z.looseObject({ block: tree.and(z.looseObject({ uid })), parent: z.string() })),
    referrers: z.array(referrer),
  }),
  z.looseObject({
    kind: z.literal('delete-page'),
    uid,
    title: z.string(),
    children: trees,
    referrers: z.array(referrer),
  }),
  z.looseObject({ kind: z.literal('rename-page'), uid, before: z.string(), after: z.string() }),
  z.looseObject({ kind: z.literal('comment'), block: z.string(), text: z.string() }),
  z.looseObject({ kind: z.literal('shortcut'), page: z.string(), add: z.boolean() }),
  z.looseObject({ kind: z.literal('upload'), url: z.string().optional(), bytes: z.number() }),
  z.looseObject({ kind: z.literal('delete-file'), url: z.string() }),
  z.looseObject({ kind: z.literal('opaque'), action: z.string(), reason: z.string() }),
]);

const head = { v: z.literal(1), id: z.string(), at: z.number() };

const stepResult = z.looseObject({ id: z.string(), n: int, status: z.string(), detail: z.string() });

const record = z.discriminatedUnion('k', [
  z.looseObject({
    ...head,
    k: z.literal('begin'),
    graph: z.string(),
    graphType: z.enum(['hosted', 'offline']).optional(),
    chat: z.looseObject({ id: z.string(), startedAt: z.string() }),
    tool: z.string(),
    pid: z.number(),
    undoes: z.array(z.string()).optional(),
  }),
  z.looseObject({
    ...head,
    k: z.literal('op'),
    n: int,
    op,
    reverses: z.looseObject({ id: z.string(), n: int }).optional(),
  }),
  z.looseObject({
    ...head,
    k: z.literal('done'),
    items: z.array(z.looseObject({ n: int, ok: z.boolean(), error: z.string().optional() })),
  }),
  z.looseObject({
    ...head,
    k: z.literal('end'),
    ok: z.boolean(),
    summary: z.string(),
    error: z.string().optional(),
    results: z.array(stepResult).optional(),
  }),
]);

/** The record, when `value` has a record's shape. */
export function asRecord(value: unknown): JournalRecord | undefined {
  return record.safeParse(value).success ? (value as JournalRecord) : undefined;
}
