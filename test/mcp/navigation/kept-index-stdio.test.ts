/**
 * The link index outlives the process: the built bin over stdio against the emulator, several
 * processes in one HOME. A new process resumes the kept index after the freshness check (with a
 * block recount and the graph's anchor) instead of the five build queries, and answers exactly as
 * a fresh build does; any change, damage, another format or another graph means a rebuild. The
 * file holds nothing the hiding rule removes, and two processes building at once leave a whole one.
 */
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { decodeIndex, encodeIndex } from '../../../src-mcp/navigation/index-codec.ts';
import { HIDDEN_BLOCKS_QUERY } from '../../../src-mcp/roam/hidden-blocks.ts';
import {
  BLOCK_COUNT_QUERY,
  EDITED_SINCE_QUERY,
  PAGE_COUNT_QUERY,
  UID_AT_QUERY,
} from '../../../src-mcp/navigation/index-freshness.ts';
import {
  ATTRIBUTES_QUERY,
  BLOCKS_QUERY,
  PAGES_QUERY,
  REFERENCES_QUERY,
} from '../../../src-mcp/navigation/index-queries.ts';
import { dataDir } from '../../../src-shared/node/data-dir.ts';
import { startEmulator, type Emulator } from '../../emulator/index.ts';
import { TEST_TOKEN } from '../../harness/http-context.ts';
import { removeHome, startStdioClient, tempHome } from '../../harness/mcp-bin.ts';
import { HIDDEN_GRAPH, SECRET_TEXT, SECRET_UIDS } from './hidden-graph.ts';

const GRAPH = 'kept';
const identity = { name: GRAPH, type: 'hosted' };
let home: string;
let emulator: Emulator;

beforeAll(async () => {
  home = await tempHome('kept-index-');
  emulator = await startEmulator({
    home,
    port: 0,
    graphs: [{ name: GRAPH, content: HIDDEN_GRAPH, tokens: [{ token: TEST_TOKEN, accessLevel: 'full' }] }],
  });
});

afterAll(async () => {
  await emulator.close();
  await removeHome(home);
});

const indexDir = (h: string) => path.join(dataDir({ home: h, env: {}, platform: 'linux' }), 'index');

async function keptFile(h: string): Promise<string | undefined> {
  const names = await readdir(indexDir(h)).catch(() => [] as string[]);
  const kept = names.filter((n) => n.endsWith('.lidx'));
  return kept.length === 1 ? path.join(indexDir(h), kept[0]!) : undefined;
}

/**
 * The kept file (its path and bytes) once it decodes to an index built after `after`. The process writes it after it
 * answers, so a test waits for it before closing that process (a closed one may never write it).
 */
async function keptAfter(h: string, after: number) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const file = await keptFile(h);
    const bytes = file ? await readFile(file).catch(() => Buffer.alloc(0)) : undefined;
    const decoded = bytes ? decodeIndex(bytes, identity) : undefined;
    if (decoded && 'kept' in decoded && decoded.kept.builtAt > after)
      return { file: file!, bytes: bytes!, kept: decoded.kept };
    if (Date.now() > deadline) throw new Error(`No index kept in ${indexDir(h)} built after ${after}.`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const CALLS: Array<[string, Record<string, unknown>]> = [
  ['get_hubs', { limit: 50 }],
  ['get_outlinks', { title: 'Journal' }],
  ['get_neighbors', { title: 'Shared Topic' }],
  ['list_pages', { limit: 100 }],
  ['search_by_tags', { tags: ['Shared Topic'], target: 'blocks' }],
  ['get_link_graph', { limit: 100 }],
];

/**
 * One new process (a new chat): every call's answer, and the requests its first call sent; with
 * `keptSince`, also the index it kept (built after that time), waited for before it closes.
 */
async function chat(h = home, keptSince?: number) {
  const mcp = await startStdioClient({ home: h, graph: GRAPH, nickname: 'Kept', token: TEST_TOKEN });
  try {
    emulator.clearRequests();
    const answers: unknown[] = [];
    let first: unknown[] = [];
    for (const [name, args] of CALLS) {
      const { result, json } = await mcp.call(name, args);
      expect(result.isError, `${name}: ${JSON.stringify(json)}`).toBeFalsy();
      answers.push(json);
      if (first.length === 0)
        first = emulator.requests
          .filter((r) => r.action)
          .map((r) => (r.body as { args?: unknown[] }).args?.[0]);
    }
    const kept = keptSince === undefined ? undefined : await keptAfter(h, keptSince);
    return { answers, first, kept };
  } finally {
    await mcp.close();
  }
}

const BUILD: unknown[] = [PAGES_QUERY, BLOCKS_QUERY, REFERENCES_QUERY, ATTRIBUTES_QUERY, HIDDEN_BLOCKS_QUERY];
const INDEX_QUERIES: unknown[] = [
  ...BUILD,
  EDITED_SINCE_QUERY,
  PAGE_COUNT_QUERY,
  BLOCK_COUNT_QUERY,
  UID_AT_QUERY,
];

/** A fresh build by a new process on an empty index folder: its answers and the file it kept. */
async function freshBuild() {
  await rm(indexDir(home), { recursive: true, force: true });
  const fresh = await chat(home, Date.now() - 1);
  return { fresh, builtAt: fresh.kept!.kept.builtAt };
}

describe('a kept link index', () => {
  let fresh: Awaited<ReturnType<typeof chat>>;
  let builtAt = 0;

  beforeEach(async () => {
    ({ fresh, builtAt } = await freshBuild());
  });

  it('is private (0600 in a 0700 folder), holds nothing the hiding rule removes, and is resumed by the next process with the check, a recount and the anchor, and answers the same', async () => {
    const file = (await keptFile(home))!;
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(indexDir(home))).mode & 0o777).toBe(0o700);
    const text = (await readFile(file)).toString('latin1');
    expect(text).not.toContain(SECRET_TEXT);
    for (const uid of SECRET_UIDS) expect(text).not.toContain(uid);

    expect(fresh.first).toEqual(expect.arrayContaining(BUILD));
    const resumed = await chat();
    const indexQueries = (list: unknown[]) => list.filter((q) => INDEX_QUERIES.includes(q)).sort();
    const others = (list: unknown[]) =>
      list.filter((q) => !INDEX_QUERIES.includes(q)).map((q) => JSON.stringify(q));
    expect(indexQueries(resumed.first)).toEqual(
      [EDITED_SINCE_QUERY, PAGE_COUNT_QUERY, BLOCK_COUNT_QUERY, UID_AT_QUERY].sort(),
    );
    expect(others(resumed.first).sort()).toEqual(others(fresh.first).sort());
    expect(resumed.answers).toEqual(fresh.answers);
  });

  it('is rebuilt after another client changed the graph, and the answers show the change', async () => {
    emulator.graph(GRAPH).run('data.block.create', [
      {
        location: { 'parent-uid': 'notes', order: 'last' },
        block: { string: 'Now about [[Shared Topic]]' },
      },
    ]);
    const after = await chat(home, builtAt);
    expect(after.first).toEqual(expect.arrayContaining(BUILD));
    expect(after.answers).not.toEqual(fresh.answers);
    const again = await chat();
    expect(again.first.filter((q) => BUILD.includes(q))).toEqual([]);
    expect(again.answers).toEqual(after.answers);
  });
});

describe('a damaged kept link index', () => {
  const damage: Array<[string, (bytes: Buffer) => Buffer]> = [
    [
      'a changed byte',
      (bytes) => {
        const flipped = Buffer.from(bytes);
        flipped[Math.floor(bytes.length / 2)]! ^= 0x10;
        return flipped;
      },
    ],
    ['a cut file', (bytes) => bytes.subarray(0, bytes.length >> 1)],
    ['not an index at all', () => Buffer.from('not an index')],
    [
      'a file of format 1, kept before attribute links were',
      (bytes) => {
        const older = Buffer.from(bytes);
        older.writeUInt32LE(1, 8);
        return older;
      },
    ],
    [
      'another graph at that name (the anchor page has another uid)',
      (bytes) => {
        const decoded = decodeIndex(bytes, identity);
        if (!('kept' in decoded)) throw new Error(decoded.doubt);
        return encodeIndex({ ...decoded.kept, anchor: { ...decoded.kept.anchor!, uid: 'another-graph' } });
      },
    ],
  ];

  // One process builds the file; each case starts from its bytes, as that process wrote them.
  let fresh: Awaited<ReturnType<typeof chat>>;
  beforeAll(async () => {
    ({ fresh } = await freshBuild());
  });

  it.each(damage)('is rebuilt, never trusted, with %s', async (_, damaged) => {
    const { file, bytes } = fresh.kept!;
    await rm(indexDir(home), { recursive: true, force: true });
    await mkdir(indexDir(home), { recursive: true, mode: 0o700 });
    await writeFile(file, damaged(bytes), { mode: 0o600 });
    const after = await chat();
    expect(after.first).toEqual(expect.arrayContaining(BUILD));
    expect(after.answers).toEqual(fresh.answers);
  });
});

describe('a kept link index and the writes', () => {
  let fresh: Awaited<ReturnType<typeof chat>>;

  beforeEach(async () => {
    ({ fresh } = await freshBuild());
  });

  it('is dropped by our own write, so no process resumes what the write may have made stale', async () => {
    const mcp = await startStdioClient({ home, graph: GRAPH, nickname: 'Kept', token: TEST_TOKEN });
    try {
      expect((await mcp.call('select_graph', { graph: 'Kept' })).result.isError).toBeFalsy();
      const { result } = await mcp.call('create_block', { parentUid: 'notes', markdown: 'Written by us' });
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      while (await keptFile(home)) await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      await mcp.close();
    }
    expect((await chat()).first).toEqual(expect.arrayContaining(BUILD));
  });

  it('stays whole when two processes build at once', async () => {
    await rm(indexDir(home), { recursive: true, force: true });
    const before = Date.now() - 1;
    const [a, b] = await Promise.all([chat(home, before), chat(home, before)]);
    expect(a.answers).toEqual(fresh.answers);
    expect(b.answers).toEqual(fresh.answers);
    const third = await chat();
    expect(third.first.filter((q) => BUILD.includes(q))).toEqual([]);
    expect(third.answers).toEqual(fresh.answers);
  });
});
