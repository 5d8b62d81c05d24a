/**
 * The ledger reads its file once per holding (src-mcp/gate/consent-ledger.ts): within one lock
 * its reads see its own writes; the next holding reads the disk again, so what another process
 * wrote in between counts; a write that failed leaves nothing remembered, so the next read says
 * what the file holds now.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { ConsentLedger, type LedgerRead } from '../../../src-mcp/gate/consent-ledger.ts';
import { removeDir, tempDir } from '../../harness/temp-dir.ts';

const GRAPH = 'hosted:work';
let folder: string;
let file: string;
beforeEach(async () => {
  folder = path.join(await tempDir('roam-ledger-'), 'consent');
  file = path.join(folder, `${createHash('sha256').update(GRAPH).digest('hex').slice(0, 32)}.json`);
});
afterEach(() => removeDir(path.dirname(folder)));

const pages = (read: LedgerRead) => (read.known ? read.state.declined.map((d) => d.page) : read.why);

it('within one holding a read sees the holder’s own write; the next holding sees another process’s', async () => {
  const ledger = new ConsentLedger(folder);
  await ledger.holding([GRAPH], async () => {
    expect(pages(await ledger.read(GRAPH))).toEqual([]);
    await ledger.update(GRAPH, (state) => void state.declined.push({ page: 'Mine', at: Date.now() }));
    expect(pages(await ledger.read(GRAPH))).toEqual(['Mine']);
  });
  // Another roam-mcp, holding the lock in between, adds a decline.
  const other = JSON.parse(await readFile(file, 'utf8')) as { declined: unknown[] };
  other.declined.push({ page: 'Theirs', at: Date.now() });
  await writeFile(file, JSON.stringify(other));
  await ledger.holding([GRAPH], async () => {
    expect(pages(await ledger.read(GRAPH))).toEqual(['Mine', 'Theirs']);
  });
});

it('a changed copy is never what the next read gives: the state is the holder’s to change', async () => {
  const ledger = new ConsentLedger(folder);
  await ledger.holding([GRAPH], async () => {
    const first = await ledger.read(GRAPH);
    if (first.known) first.state.declined.push({ page: 'Not written', at: Date.now() });
    expect(pages(await ledger.read(GRAPH))).toEqual([]);
  });
});

it('after a write that failed, the next read is the file as it is', async () => {
  const ledger = new ConsentLedger(folder);
  await ledger.holding([GRAPH], async () => {
    expect(pages(await ledger.read(GRAPH))).toEqual([]);
    // The ledger's place is taken by a folder: the write cannot land there.
    await mkdir(path.join(file, 'in-the-way'), { recursive: true });
    expect(await ledger.update(GRAPH, (state) => void state.declined.push({ page: 'Lost', at: 1 }))).toBe(
      false,
    );
    expect(await ledger.read(GRAPH)).toMatchObject({
      known: false,
      why: expect.stringMatching(/could not be read/),
    });
  });
  await rm(file, { recursive: true });
});
