/**
 * What the change journal costs and how fast undo is (docs/undo.md), from the built bin over
 * stdio against the emulator:
 * - extra Local API round trips per write tool (the journal's read of the state to restore:
 *   target ≤ 1, 0 for creates), counted in the emulator's request log;
 * - added latency per write: that read replayed directly over HTTP (its round trip), plus the
 *   journal's own work per write measured in-process (capture, two appends, the outcome);
 * - journal bytes per change, from the segment files' growth;
 * - time to undo a 100-change chat (and its dry run), and that the graph came back;
 * - the reads an undo makes before its writes (the ownership checks), per undo step, and their
 *   time replayed over HTTP;
 * - what the undo's calls went to (by action), and the one case that costs a write per block,
 *   a tag page's rename undone, on its own. The targets are the same every run.
 *
 * Alone: node --import tsx bench/undo.ts (writes bench/results/undo.{json,md}); `--undo-only`
 * runs only the 100-change undo and prints it; `npm run bench` runs it with the other benchmarks.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import http from 'node:http';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Journal } from '../src-mcp/changes/journal/journal.ts';
import { JournalStore } from '../src-mcp/changes/journal/journal-store.ts';
import { ToolRecord } from '../src-mcp/changes/journal/record.ts';
import { scopeOfAction } from '../src-shared/local-api/index.ts';
import { startEmulator, type Emulator, type RecordedRequest } from '../test/emulator/index.ts';
import { graphSnapshot } from '../test/mcp/changes/graph-snapshot.ts';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const BIN = path.join(root, 'dist/roam-mcp.mjs');
const RESULTS = path.join(root, 'bench/results');
const TOKEN = 'roam-graph-local-token-UNDObenchUNDObenchUNDObench';
const GRAPH = 'undo';
const ROUNDS = 15;

const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;
const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)] ?? NaN;
const log = (m: string) => process.stderr.write(`[undo bench] ${m}\n`);

/** Reads an undo makes (its checks against Roam before each write). */
const READS = new Set(['data.q', 'data.ai.getGraphGuidelines', 'file.get']);

/** The journal's own reads, as the request log shows them. */
function isCapture(request: RecordedRequest, tool: string): boolean {
  const body = request.body as { action?: string; args?: unknown[] };
  const query = typeof body.args?.[0] === 'string' ? (body.args[0] as string) : '';
  if (body.action === 'data.q') return query.includes('[?e :block/uid ?x] [?e :node/title ?x]');
  if (body.action === 'data.ai.getGraphGuidelines') return tool.endsWith('_shortcut');
  return body.action === 'file.get' && tool === 'file_delete';
}

async function bytesOf(dir: string): Promise<number> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const sizes = await Promise.all(
    names.map((n) => stat(path.join(dir, n)).then((s) => (s.isFile() ? s.size : 0))),
  );
  return sizes.reduce((a, b) => a + b, 0);
}

function replay(port: number, request: RecordedRequest): Promise<void> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(request.body ?? {});
    const req = http.request(
      `http://127.0.0.1:${port}${request.path}`,
      { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` } },
      (res) => res.resume().on('end', resolve),
    );
    req.on('error', reject);
    req.end(payload);
  });
}

interface World {
  home: string;
  /** The generated graph's uids: targets are picked among them only, so every run picks the same. */
  seeded: Set<string>;
  /** CPU time (ms) the bin and this process (the emulator) have used so far. */
  cpuMs(): Promise<number>;
  emulator: Emulator;
  client: Client;
  journalDir: string;
  call(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

async function world(): Promise<World> {
  const home = await mkdtemp(path.join(os.tmpdir(), 'roam-undo-bench-'));
  const emulator = await startEmulator({
    home,
    graphs: [
      {
        name: GRAPH,
        content: { generate: { blocks: 2_000, seed: 7 } },
        tokens: [{ token: TOKEN, accessLevel: 'full', ai: true }],
      },
    ],
  });
  await writeFile(
    path.join(home, '.roam-tools.json'),
    JSON.stringify({ version: 1, graphs: [{ name: GRAPH, type: 'hosted', token: TOKEN }] }),
    { mode: 0o600 },
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN],
    env: { PATH: process.env.PATH ?? '', HOME: home, ROAM_MCP_NO_LAUNCH: '1', ROAM_MCP_TOOLS: 'all' },
    stderr: 'ignore',
  });
  const seeded = new Set(
    emulator.graph(GRAPH).run('data.q', ['[:find [?u ...] :where [?b :block/uid ?u]]']) as string[],
  );
  const client = new Client({ name: 'undo-bench', version: '1' });
  await client.connect(transport);
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args });
    const text = (result.content as Array<{ text?: string }>)[0]?.text ?? '{}';
    if (result.isError) throw new Error(`${name}: ${text}`);
    return JSON.parse(text) as Record<string, unknown>;
  };
  await call('select_graph', { graph: GRAPH });
  const binCpuMs = async () => {
    // /proc/<pid>/stat: utime and stime, in clock ticks (100 per second on Linux).
    const stat = await readFile(`/proc/${transport.pid}/stat`, 'utf8').catch(() => '');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) * 10;
  };
  return {
    home,
    seeded,
    async cpuMs() {
      const own = process.cpuUsage();
      return (own.user + own.system) / 1000 + (await binCpuMs());
    },
    emulator,
    client,
    journalDir: path.join(home, '.local/share/roam-companion/journal'),
    call,
    async close() {
      await client.close();
      await emulator.close();
      await rm(home, { recursive: true, force: true });
    },
  };
}

/**
 * The generated graph's blocks still there. Not the ones the bench's writes made: their uids are
 * random, and picking among them made each run change other targets (a run that renamed the
 * tag page 'idea' undid ~230 more `#idea` forms than one that did not).
 */
const blockUids = (w: World) =>
  (
    w.emulator
      .graph(GRAPH)
      .run('data.q', ['[:find [?u ...] :where [?b :block/string] [?b :block/uid ?u]]']) as string[]
  )
    .filter((u) => w.seeded.has(u))
    .sort();
/** The generated graph's pages (not the emulator's own page of comment threads, which a rename would hide). */
const pageUids = (w: World) =>
  (
    w.emulator
      .graph(GRAPH)
      .run('data.q', [
        '[:find [?u ...] :where [?b :node/title ?t] [(not= ?t "roam/comments")] [?b :block/uid ?u]]',
      ]) as string[]
  )
    .filter((u) => w.seeded.has(u))
    .sort();

/** One representative call per write tool, on fresh targets each round. */
function writeCalls(w: World, i: number): Array<[string, Record<string, unknown>, string?]> {
  const blocks = blockUids(w);
  const pages = pageUids(w);
  const pick = (list: string[], k: number) => list[(i * 7 + k * 13) % list.length] as string;
  const upload = Buffer.from(`bench file ${i}`).toString('base64');
  return [
    ['create_block', { parentUid: pick(pages, 0), markdown: `- bench ${i}\n  - child` }],
    ['create_block', { parentUid: pick(pages, 8), markdown: `flat ${i}` }, 'create_block (one block)'],
    ['create_page', { title: `Bench page ${i}`, markdown: '- a\n- b' }],
    ['append_to_daily_note', { markdown: `note ${i}`, date: '06-15-2027' }],
    ['update_block', { uid: pick(blocks, 1), string: `updated ${i}` }],
    ['move_block', { uid: pick(blocks, 2), parentUid: pick(pages, 3), order: 0 }],
    ['delete_block', { uid: pick(blocks, 4) }],
    ['update_page', { uid: pick(pages, 5), title: `Renamed bench ${i}` }],
    ['add_comment', { blockUid: pick(blocks, 6), comment: `comment ${i}` }],
    ['add_shortcut', { uid: pick(pages, 7) }],
    ['file_upload', { base64: upload, mimetype: 'text/plain', filename: `b${i}.txt` }],
  ];
}

interface ToolRow {
  tool: string;
  extraRoundTrips: number;
  toolRoundTrips: number;
  captureMs: number;
  journalBytes: number;
}

async function perTool(w: World): Promise<ToolRow[]> {
  const samples = new Map<string, { extra: number[]; total: number[]; capture: number[]; bytes: number[] }>();
  for (let i = 0; i < ROUNDS; i++) {
    for (const [tool, args, label = tool] of writeCalls(w, i)) {
      w.emulator.clearRequests();
      const before = await bytesOf(w.journalDir);
      await w.call(tool, args);
      const bytes = (await bytesOf(w.journalDir)) - before;
      const mine = w.emulator.requests.filter((r) => r.graph === GRAPH);
      const captures = mine.filter((r) => isCapture(r, tool));
      let captureMs = 0;
      for (const request of captures) {
        const t = performance.now();
        await replay(w.emulator.port, request);
        captureMs += performance.now() - t;
      }
      const s = samples.get(label) ?? { extra: [], total: [], capture: [], bytes: [] };
      s.extra.push(captures.length);
      s.total.push(mine.length);
      s.capture.push(captureMs);
      s.bytes.push(bytes);
      samples.set(label, s);
    }
  }
  return [...samples].map(([tool, s]) => ({
    tool,
    extraRoundTrips: Math.max(...s.extra),
    toolRoundTrips: median(s.total) - median(s.extra),
    captureMs: round(median(s.capture)),
    journalBytes: median(s.bytes),
  }));
}

/** The journal's own work per write (capture planning, appends), in-process with an instant Roam. */
async function journalOverheadMs(): Promise<number> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'roam-undo-journal-'));
  const journal = new Journal(new JournalStore(dir));
  const answer = async (action: string) =>
    action === 'data.q'
      ? [[{ ':block/uid': 'b1', ':block/string': 'old', ':block/_children': [{ ':block/uid': 'p1' }] }]]
      : null;
  const times: number[] = [];
  for (let i = 0; i < 300; i++) {
    const record = new ToolRecord({
      graph: { name: GRAPH },
      tool: 'update_block',
      isWrite: (action) => scopeOfAction(action) !== 'read',
      journal: async () => journal,
      chat: { id: 'bench', startedAt: '' },
    });
    const call = record.wrap(async <T>(action: string) => (await answer(action)) as T);
    const t = performance.now();
    await call('data.block.update', [{ block: { uid: 'b1', string: `new ${i}` } }]);
    await record.finish();
    times.push(performance.now() - t);
  }
  await journal.store.close();
  await rm(dir, { recursive: true, force: true });
  return round(median(times), 3);
}

/**
 * The case that costs a write per block, measured on its own: a tag page's rename undone. Roam
 * writes its `#Tag` links back as `#[[Tag]]`, and the undo puts each `#Tag` back.
 */
async function tagRename(w: World): Promise<{ page: string; referrers: number; undoRoundTrips: number }> {
  const page = 'idea';
  const graph = w.emulator.graph(GRAPH);
  const uid = (graph.run('data.q', [`[:find ?u . :where [?p :node/title "${page}"] [?p :block/uid ?u]]`]) ??
    '') as string;
  const referrers = (
    graph.run('data.q', ['[:find [?s ...] :where [?b :block/string ?s]]']) as string[]
  ).filter((s) => s.includes(`#${page}`)).length;
  await w.call('update_page', { uid, title: 'Renamed tag' });
  const [change] = (await w.call('list_changes', { limit: 1 })).changes as Array<{ id: string }>;
  w.emulator.clearRequests();
  await w.call('undo_changes', { ids: [change?.id] });
  return { page, referrers, undoRoundTrips: w.emulator.requests.filter((r) => r.graph === GRAPH).length };
}

async function undoHundred(): Promise<Record<string, number | boolean | string>> {
  const w = await world();
  try {
    const start = graphSnapshot(w.emulator.graph(GRAPH));
    for (let i = 0; i < 10; i++)
      for (const [tool, args] of writeCalls(w, i)) if (tool !== 'file_upload') await w.call(tool, args);
    for (let i = 10; i < 20; i++)
      await w.call('create_block', { parentUid: pageUids(w)[i] as string, markdown: `extra ${i}` });
    const changes = ((await w.call('list_changes', { limit: 100 })).changes as unknown[]).length;
    w.emulator.clearRequests();
    const cpuBefore = await w.cpuMs();
    let t = performance.now();
    const dry = await w.call('undo_changes', { all: true, dryRun: true });
    const dryMs = performance.now() - t;
    const dryRoundTrips = w.emulator.requests.filter((r) => r.graph === GRAPH).length;
    const dryMatches = (dry.changes as Array<{ result: string }>).every((c) => c.result === 'would-undo');
    w.emulator.clearRequests();
    t = performance.now();
    const done = await w.call('undo_changes', { all: true });
    const undoMs = performance.now() - t;
    const cpuMs = (await w.cpuMs()) - cpuBefore;
    const mine = w.emulator.requests.filter((r) => r.graph === GRAPH);
    const requests = mine.length;
    const actions = mine.map((r) => (r.body as { action?: string }).action ?? '');
    const reads = mine.filter((r) => READS.has((r.body as { action?: string }).action ?? ''));
    let readMs = 0;
    for (const request of reads) {
      const at = performance.now();
      await replay(w.emulator.port, request);
      readMs += performance.now() - at;
    }
    const steps = (done.changes as Array<{ steps: unknown[] }>).reduce((sum, c) => sum + c.steps.length, 0);
    // The emulator keeps comment threads on a page of their own (Roam's storage is not documented).
    const content = () => graphSnapshot(w.emulator.graph(GRAPH)).filter((e) => e.title !== 'roam/comments');
    const same =
      JSON.stringify(content()) === JSON.stringify(start.filter((e) => e.title !== 'roam/comments'));
    const tag = await tagRename(w);
    return {
      changes,
      dryRunMs: round(dryMs, 0),
      undoMs: round(undoMs, 0),
      dryRunAndUndoMs: round(dryMs + undoMs, 0),
      dryRunAndUndoCpuMs: round(cpuMs, 0),
      dryRunRoundTrips: dryRoundTrips,
      undoRoundTrips: requests,
      undoRoundTripsPerChange: round(requests / changes),
      undoReads: reads.length,
      ...kindsOf(actions),
      steps,
      checkReadsPerStep: round(reads.length / steps),
      checkMsPerStep: round(readMs / steps),
      undone: done.undone as number,
      conflicts: done.conflicts as number,
      wouldUndo: dry.undone as number,
      dryRunMatched: dryMatches,
      graphRestored: same,
      tagPageRenamed: tag.page,
      tagReferrers: tag.referrers,
      tagRenameUndoRoundTrips: tag.undoRoundTrips,
    };
  } finally {
    await w.close();
  }
}

/**
 * What the undo's round trips went to: its Local API calls by action, and the one case that costs
 * a write per block: renaming a page back makes Roam write its `#Tag` links as `#[[Tag]]`, and
 * each one is put back (the updates that follow each `data.page.update`).
 */
function kindsOf(actions: string[]): { undoActions: string; tagFormRestores: number } {
  const byAction = new Map<string, number>();
  for (const action of actions) byAction.set(action, (byAction.get(action) ?? 0) + 1);
  let tagFormRestores = 0;
  actions.forEach((action, i) => {
    if (action !== 'data.page.update') return;
    for (let j = i + 1; actions[j] === 'data.block.update'; j++) tagFormRestores++;
  });
  return {
    undoActions: [...byAction].map(([action, n]) => `${action} ${n}`).join(', '),
    tagFormRestores,
  };
}

function markdown(report: {
  date: string;
  rows: ToolRow[];
  overheadMs: number;
  hundred: Record<string, number | boolean | string>;
}): string {
  const h = report.hundred;
  return [
    '# Undo journal: cost per write and undo speed',
    '',
    `Measured ${report.date} by bench/undo.ts (built bin over stdio, emulator, 2,000-block generated graph, ${ROUNDS} rounds per tool; medians).`,
    '',
    `The journal's own work per write (capture, appends, outcome; instant Roam, in-process): **${report.overheadMs} ms**.`,
    '',
    '| tool | extra round trips (max) | the tool’s own round trips | extra round trip, replayed | journal bytes per change |',
    '|---|---|---|---|---|',
    ...report.rows.map(
      (r) =>
        `| ${r.tool} | ${r.extraRoundTrips} | ${r.toolRoundTrips} | ${r.captureMs} ms | ${r.journalBytes} |`,
    ),
    '',
    `Undo of a ${h.changes}-change chat: dry run and undo ${h.dryRunAndUndoMs} ms wall clock, ${h.dryRunAndUndoCpuMs} ms of CPU (the bin and the emulator; what they take on an idle machine, less waiting); dry run ${h.dryRunMs} ms (${h.dryRunRoundTrips} Local API round trips), undo ${h.undoMs} ms (${h.undoRoundTrips} round trips, ${h.undoRoundTripsPerChange} per change, ${h.undoReads} of them reads), ` +
      `${h.undone} undone, ${h.conflicts} conflicts; graph identical afterwards: ${h.graphRestored ? 'yes' : 'NO'}; ` +
      `the dry run said ${h.wouldUndo} would be undone${h.dryRunMatched ? '' : ' (NOT what the undo did: a dry-run mismatch)'}.`,
    '',
    `Checks before the undo's writes (the ownership rule, read from Roam): ${h.checkReadsPerStep} reads per undo step (${h.steps} steps), ${h.checkMsPerStep} ms per step replayed.`,
    '',
    `The undo's calls: ${h.undoActions}; ${h.tagFormRestores} of its updates put back a \`#Tag\` form after a rename. The case that costs a write per block, on its own: undoing the rename of the tag page '${h.tagPageRenamed}' (${h.tagReferrers} blocks use \`#${h.tagPageRenamed}\`) took ${h.tagRenameUndoRoundTrips} round trips.`,
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  if (process.argv.includes('--undo-only')) {
    // Only the 100-change undo, printed, nothing written (for trying a change to the undo).
    log(`100 changes: ${JSON.stringify(await undoHundred())}`);
    return;
  }
  await mkdir(RESULTS, { recursive: true });
  log('per write tool ...');
  const w = await world();
  let rows: ToolRow[];
  try {
    rows = await perTool(w);
  } finally {
    await w.close();
  }
  log('journal overhead in-process ...');
  const overheadMs = await journalOverheadMs();
  log('undo of a 100-change chat ...');
  const hundred = await undoHundred();
  const report = { date: new Date().toISOString(), rows, overheadMs, hundred };
  await writeFile(path.join(RESULTS, 'undo.json'), `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(path.join(RESULTS, 'undo.md'), markdown(report));
  for (const r of rows)
    log(`${r.tool}: +${r.extraRoundTrips} round trip(s), ${r.captureMs} ms, ${r.journalBytes} B`);
  log(`overhead ${overheadMs} ms; 100 changes: ${JSON.stringify(hundred)}`);
}

await main();
