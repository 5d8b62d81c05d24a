/**
 * The journal's files: private, one segment per process (so concurrent writers never interleave
 * lines, whatever their size), torn last lines skipped, read incrementally, bounded by age and
 * size with the oldest dropped first.
 */
import { spawn } from 'node:child_process';
import { appendFile, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { Journal } from '../../../src-mcp/changes/journal/journal.ts';
import { JournalReader } from '../../../src-mcp/changes/journal/journal-reader.ts';
import { JournalStore } from '../../../src-mcp/changes/journal/journal-store.ts';
import type { JournalRecord } from '../../../src-mcp/changes/journal/types.ts';
import { fixtureScript } from '../../harness/fixture-bundles.ts';
import { ROOT } from '../../harness/mcp-bin.ts';
import { tempDir } from '../../harness/temp-dir.ts';

let dir: string;
beforeEach(async () => {
  dir = await tempDir('journal-');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const begin = (id: string, pid = process.pid, at = Date.now()): JournalRecord => ({
  v: 1,
  k: 'begin',
  id,
  at,
  graph: 'g',
  chat: { id: 'chat-a', startedAt: new Date(at).toISOString() },
  tool: 'update_block',
  pid,
});

it('writes private segments and reads back every record', async () => {
  const store = new JournalStore(dir);
  await store.append([begin('one')]);
  await store.append([
    { v: 1, k: 'op', id: 'one', n: 0, at: 1, op: { kind: 'rename-page', uid: 'p', before: 'A', after: 'B' } },
  ]);
  await store.append([{ v: 1, k: 'done', id: 'one', at: 2, items: [{ n: 0, ok: true }] }]);
  const segment = store.currentSegment() as string;
  expect((await stat(segment)).mode & 0o777).toBe(0o600);
  const changes = await new Journal(store).changes();
  expect(changes).toHaveLength(1);
  expect(changes[0]).toMatchObject({
    id: 'one',
    status: 'applied',
    undoable: true,
    summary: "Renamed page 'A' → 'B'",
  });
  await store.close();
});

it('skips a torn last line, and reads appended lines on the next refresh only', async () => {
  const store = new JournalStore(dir);
  await store.append([begin('whole')]);
  const segment = store.currentSegment() as string;
  await appendFile(segment, '{"v":1,"k":"begin","id":"torn","at":1,"gra');
  const reader = new JournalReader(store);
  await reader.refresh();
  expect(reader.records().map((r) => r.id)).toEqual(['whole']);
  expect(await reader.refresh()).toBe(false);
  // Once ended, a garbled line is skipped and counted; what follows is still read.
  await appendFile(segment, `\nnot json\n${JSON.stringify(begin('after'))}\n`);
  await reader.refresh();
  expect(reader.records().map((r) => r.id)).toEqual(['whole', 'after']);
  expect(reader.skipped).toBe(2);
  await store.close();
});

it('answers overlapping reads alike, each with every change appended before it began', async () => {
  const store = new JournalStore(dir);
  const journal = new Journal(store);
  await journal.changes();
  for (let round = 0; round < 20; round++) {
    await store.append([begin(`c${round}`)]);
    const answers = await Promise.all([journal.changes(), journal.changes(), journal.changes()]);
    for (const answer of answers) expect(answer.map((c) => c.id)).toContain(`c${round}`);
    for (const answer of answers) expect(answer).toHaveLength(round + 1);
  }
  await store.close();
});

it('an op whose writer died before its outcome reads as unconfirmed', async () => {
  const store = new JournalStore(dir);
  const dead = 2 ** 22 + 12345;
  await store.append([
    begin('lost', dead),
    {
      v: 1,
      k: 'op',
      id: 'lost',
      n: 0,
      at: 1,
      op: { kind: 'rename-page', uid: 'p', before: 'A', after: 'B' },
    },
  ]);
  const [change] = await new Journal(store).changes();
  expect(change?.status).toBe('unconfirmed');
  expect(change?.ops[0]?.outcome).toBe('unconfirmed');
  expect(change?.undoable).toBe(true);
  await store.close();
});

function writer(tag: string, count: number, size: number): Promise<number | null> {
  const child = spawn(
    process.execPath,
    [fixtureScript('journal-writer'), dir, tag, String(count), String(size)],
    {
      cwd: ROOT,
      stdio: 'ignore',
    },
  );
  return new Promise((resolve) => child.on('close', resolve));
}

it('keeps every line whole with many processes writing big lines at once', async () => {
  // 64 KiB lines: far above PIPE_BUF, where O_APPEND alone could interleave.
  const codes = await Promise.all(['a', 'b', 'c'].map((tag) => writer(tag, 20, 65_536)));
  expect(codes).toEqual([0, 0, 0]);
  const reader = new JournalReader(new JournalStore(dir));
  await reader.refresh();
  expect(reader.skipped).toBe(0);
  expect(reader.records()).toHaveLength(60);
  expect((await readdir(dir)).filter((n) => n.endsWith('.jsonl'))).toHaveLength(3);
});

const day = 86_400_000;
const now = Date.parse('2026-07-23T12:00:00Z');
const names = [
  '20260601-000000-1-aaaaaa.jsonl',
  '20260713-000000-2-bbbbbb.jsonl',
  '20260722-000000-3-cccccc.jsonl',
];

async function segmentsAged(ages: number[]) {
  for (const [i, name] of names.entries()) {
    const file = path.join(dir, name);
    await writeFile(file, `${JSON.stringify(begin(name))}\n`.padEnd(1000, ' '), { mode: 0o600 });
    const when = new Date(now - (ages[i] as number));
    await utimes(file, when, when);
  }
}

it('drops segments older than the age limit, then the oldest past the size cap', async () => {
  await segmentsAged([52 * day, 10 * day, 1 * day]);
  const store = new JournalStore(dir, { now: () => now, maxAgeDays: 30, maxBytes: 1500, keepDays: 7 });
  const { removed } = await store.prune();
  expect(removed.map((f) => path.basename(f))).toEqual([names[0], names[1]]);
  expect(await readdir(dir)).toEqual([names[2]]);
});

it('never drops a segment younger than the retention period to make room', async () => {
  await segmentsAged([52 * day, 3 * day, 1 * day]);
  const store = new JournalStore(dir, { now: () => now, maxAgeDays: 30, maxBytes: 1500, keepDays: 7 });
  const { removed } = await store.prune();
  expect(removed.map((f) => path.basename(f))).toEqual([names[0]]);
  expect(await readdir(dir)).toEqual([names[1], names[2]]);
});
