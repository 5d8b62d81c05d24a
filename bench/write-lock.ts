/**
 * What consent's graph ledger and lock add to an agent's write (src-mcp/gate/consent-ledger.ts,
 * docs/mcp.md "Consent before a write takes much away"), from the built bin over stdio against the
 * emulator:
 * - one write's wall time, median of N, for create_block (the lock only: it takes nothing away),
 *   update_block and delete_block (the lock, the ledger's read, a reservation and its settle),
 *   under the default `--confirm destructive` and under `--confirm never` (the lock, no ledger);
 *   the two servers run side by side and their calls interleave, so the machine's load falls on
 *   both alike;
 * - the same, two servers of one data folder (two chats of one person, separate processes)
 *   writing to the graph at once: they queue on the one lock;
 * - the ledger's own parts in-process (lock and release; read; a read-modify-write), the same
 *   module the bin bundles, in a temp folder on the same disk.
 *
 * Alone: node --import tsx bench/write-lock.ts [--rounds 40] (writes bench/results/write-lock.{json,md});
 * `npm run bench` runs it with the other benchmarks.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ConsentLedger } from '../src-mcp/gate/consent-ledger.ts';
import { startEmulator } from '../test/emulator/index.ts';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const BIN = path.join(root, 'dist/roam-mcp.mjs');
const RESULTS = path.join(root, 'bench/results');
const TOKEN = 'roam-graph-local-token-LOCKbenchLOCKbenchLOCKbench1';
const GRAPH = 'locks';
const { values } = parseArgs({ options: { rounds: { type: 'string', default: '40' } } });
const ROUNDS = Number(values.rounds);
const WARMUP = 5;

const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;
const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)] ?? NaN;
const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / Math.max(1, v.length);
const p90 = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length * 0.9)] ?? NaN;
const log = (m: string) => process.stderr.write(`[write-lock bench] ${m}\n`);

type Call = (name: string, args: Record<string, unknown>) => Promise<Record<string, unknown>>;

interface Server {
  call: Call;
  /** CPU time (ms, 10 ms ticks) the bin has used so far, every thread of it. */
  cpuMs(): Promise<number>;
  close(): Promise<void>;
}

async function server(home: string, extraArgs: string[]): Promise<Server> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, ...extraArgs],
    env: { PATH: process.env.PATH ?? '', HOME: home, ROAM_MCP_NO_LAUNCH: '1' },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'write-lock-bench', version: '1' });
  await client.connect(transport);
  const call: Call = async (name, args) => {
    const result = await client.callTool({ name, arguments: args });
    const text = (result.content as Array<{ text?: string }>)[0]?.text ?? '{}';
    if (result.isError) throw new Error(`${name}: ${text}`);
    return JSON.parse(text) as Record<string, unknown>;
  };
  await call('select_graph', { graph: GRAPH });
  const cpuMs = async () => {
    // /proc/<pid>/stat: utime and stime, in clock ticks (100 per second on Linux).
    const stat = await readFile(`/proc/${transport.pid}/stat`, 'utf8').catch(() => '');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) * 10;
  };
  return { call, cpuMs, close: () => client.close() };
}

async function homeFor(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  await writeFile(
    path.join(dir, '.roam-tools.json'),
    JSON.stringify({ version: 1, graphs: [{ name: GRAPH, type: 'hosted', token: TOKEN }] }),
    { mode: 0o600 },
  );
  // Where Roam Desktop's Local API listens (the emulator's port file).
  await copyFile(path.join(base, '.roam-local-api.json'), path.join(dir, '.roam-local-api.json'));
  return dir;
}

const WRITES = ['create_block', 'update_block', 'delete_block'] as const;
type Write = (typeof WRITES)[number];
type Samples = Record<Write, number[]>;
const samples = (): Samples => ({ create_block: [], update_block: [], delete_block: [] });

/**
 * One create, update and delete of a new block: each call's wall time (ms), the bin's CPU time
 * (ms) and its Local API round trips.
 */
async function cycle(bin: Server, label: string, i: number, trips: () => number) {
  const time = { create_block: 0, update_block: 0, delete_block: 0 };
  const cpu = { ...time };
  const roundTrips = { ...time };
  const timed = async (write: Write, args: Record<string, unknown>) => {
    const [before, cpuBefore, start] = [trips(), await bin.cpuMs(), performance.now()];
    const value = await bin.call(write, args);
    time[write] = performance.now() - start;
    cpu[write] = (await bin.cpuMs()) - cpuBefore;
    roundTrips[write] = trips() - before;
    return value;
  };
  const created = await timed('create_block', { pageTitle: 'Bench', markdown: `${label} ${i}` });
  const uid = (created.uids as string[] | undefined)?.[0];
  if (!uid) throw new Error(`create_block answered no uid: ${JSON.stringify(created)}`);
  await timed('update_block', { uid, string: `${label} ${i} edited` });
  await timed('delete_block', { uid });
  return { time, cpu, roundTrips };
}

const summary = (s: Samples) =>
  Object.fromEntries(
    WRITES.map((w) => [w, { median: round(median(s[w])), p90: round(p90(s[w])) }]),
  ) as Record<Write, { median: number; p90: number }>;

async function inProcess(dir: string) {
  const ledger = new ConsentLedger(path.join(dir, 'consent'));
  const time = async (fn: () => Promise<unknown>) => {
    for (let i = 0; i < WARMUP; i++) await fn();
    const s: number[] = [];
    const cpu = process.cpuUsage();
    for (let i = 0; i < ROUNDS * 2; i++) {
      const start = performance.now();
      await fn();
      s.push(performance.now() - start);
    }
    const used = process.cpuUsage(cpu);
    const cpuMs = (used.user + used.system) / 1000 / (ROUNDS * 2);
    return { median: round(median(s), 3), p90: round(p90(s), 3), cpuMs: round(cpuMs, 3) };
  };
  const reserve = (state: Parameters<Parameters<ConsentLedger['update']>[1]>[0]) => {
    state.taken.push({ at: Date.now(), blocks: 1, chat: 'bench/x', reserved: true });
  };
  return {
    lockAndRelease: await time(() => ledger.holding([GRAPH], async () => {})),
    read: await time(() => ledger.holding([GRAPH], () => ledger.read(GRAPH))),
    update: await time(() => ledger.holding([GRAPH], () => ledger.update(GRAPH, reserve))),
    /** What delete_block's gate does under one lock: judge's read, the reservation, the settle. */
    gatedWrite: await time(() =>
      ledger.holding([GRAPH], async () => {
        await ledger.read(GRAPH);
        await ledger.update(GRAPH, reserve);
        await ledger.update(GRAPH, (state) => {
          for (const t of state.taken) delete t.reserved;
        });
      }),
    ),
  };
}

const loadStart = os.loadavg().map((n) => round(n, 1));
const base = await mkdtemp(path.join(os.tmpdir(), 'roam-write-lock-bench-'));
const emulator = await startEmulator({
  home: base,
  graphs: [
    {
      name: GRAPH,
      content: { generate: { blocks: 2_000, seed: 11 } },
      tokens: [{ token: TOKEN, accessLevel: 'full', ai: true }],
    },
  ],
});
try {
  log(`in-process ledger (${ROUNDS * 2} rounds each)`);
  const parts = await inProcess(path.join(base, 'in-process'));

  log(`one server each, interleaved (${ROUNDS} rounds)`);
  const destructive = await server(await homeFor(path.join(base, 'destructive')), []);
  const never = await server(await homeFor(path.join(base, 'never')), ['--confirm', 'never']);
  const alone = { destructive: samples(), never: samples() };
  const cpu = { destructive: samples(), never: samples() };
  const trips = {
    destructive: { create_block: 0, update_block: 0, delete_block: 0 },
    never: { create_block: 0, update_block: 0, delete_block: 0 },
  };
  const graphRequests = () => emulator.requests.filter((r) => r.graph === GRAPH).length;
  for (let i = 0; i < WARMUP + ROUNDS; i++) {
    // Which goes first alternates: neither always runs on the other's warm disk cache.
    const order = i % 2 === 0 ? (['destructive', 'never'] as const) : (['never', 'destructive'] as const);
    for (const mode of order) {
      const took = await cycle(mode === 'destructive' ? destructive : never, mode, i, graphRequests);
      if (i >= WARMUP)
        for (const w of WRITES) {
          alone[mode][w].push(took.time[w]);
          cpu[mode][w].push(took.cpu[w]);
        }
      trips[mode] = took.roundTrips;
    }
  }
  await destructive.close();
  await never.close();

  log(`two servers of one data folder writing at once (${ROUNDS} rounds each)`);
  const shared = await homeFor(path.join(base, 'shared'));
  const chats = [await server(shared, []), await server(shared, [])];
  const together = samples();
  for (let i = 0; i < WARMUP + ROUNDS; i++) {
    const took = await Promise.all(chats.map((chat, c) => cycle(chat, `chat ${c}`, i, graphRequests)));
    if (i >= WARMUP) for (const t of took) for (const w of WRITES) together[w].push(t.time[w]);
  }
  await Promise.all(chats.map((chat) => chat.close()));
  const ledgerFiles = await readdir(path.join(shared, '.local/share/roam-companion/consent'));

  const result = {
    measuredAt: new Date().toISOString(),
    node: process.version,
    cores: os.cpus().length,
    loadAverage: { start: loadStart, end: os.loadavg().map((n) => round(n, 1)) },
    rounds: ROUNDS,
    inProcess: parts,
    alone: { destructive: summary(alone.destructive), never: summary(alone.never) },
    roundTrips: trips,
    /** The bin's CPU per write, mean over the rounds (10 ms ticks summed). */
    binCpuMs: Object.fromEntries(
      (['destructive', 'never'] as const).map((mode) => [
        mode,
        Object.fromEntries(WRITES.map((w) => [w, round(mean(cpu[mode][w]), 1)])),
      ]),
    ) as Record<'destructive' | 'never', Record<Write, number>>,
    twoServersOneFolder: summary(together),
    ledgerFiles: ledgerFiles.length,
  };
  const ms = (n: number) => `${n.toFixed(1)} ms`;
  const md = [
    "# An agent write: consent's ledger and lock",
    '',
    `Measured ${result.measuredAt} by bench/write-lock.ts, Node ${result.node}, ${result.cores} cores, load ${loadStart.join(' / ')} at start, ${result.loadAverage.end.join(' / ')} at end; median (p90) of ${ROUNDS} rounds after ${WARMUP} warm-up ones, wall time of the call as the client sees it; the bin's CPU is the mean per write. Wall times grow with the load, CPU times much less.`,
    '',
    '| write | `--confirm destructive` (default) | `--confirm never` | added by consent | bin CPU (destructive / never) | Local API round trips (destructive / never) | two servers, one data folder, at once |',
    '| ----- | --------------------------------- | ----------------- | ---------------- | ----------------------------- | ------------------------------------------- | ------------------------------------- |',
    ...WRITES.map((w) => {
      const d = result.alone.destructive[w];
      const n = result.alone.never[w];
      const t = result.twoServersOneFolder[w];
      return `| ${w} | ${ms(d.median)} (${ms(d.p90)}) | ${ms(n.median)} (${ms(n.p90)}) | ${ms(d.median - n.median)} | ${ms(result.binCpuMs.destructive[w])} / ${ms(result.binCpuMs.never[w])} | ${trips.destructive[w]} / ${trips.never[w]} | ${ms(t.median)} (${ms(t.p90)}) |`;
    }),
    '',
    'The ledger in-process (consent-ledger.ts, same disk), median (p90):',
    '',
    '| part | wall | CPU (every thread) |',
    '| ---- | ---- | ------------------ |',
    ...Object.entries(parts).map(
      ([k, v]) => `| ${k} | ${v.median.toFixed(2)} ms (${v.p90.toFixed(2)} ms) | ${v.cpuMs.toFixed(2)} ms |`,
    ),
    '',
  ];
  await mkdir(RESULTS, { recursive: true });
  await writeFile(path.join(RESULTS, 'write-lock.json'), `${JSON.stringify(result, null, 2)}\n`);
  await writeFile(path.join(RESULTS, 'write-lock.md'), md.join('\n'));
  console.log(md.join('\n'));
} finally {
  await emulator.close();
  await rm(base, { recursive: true, force: true });
}
