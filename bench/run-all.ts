/**
 * `npm run bench`: every benchmark, one table of targets, bench/RESULTS.md.
 *
 * 1. Runs the colleagues' benchmarks (bench/mcp-*.ts, bench/navigation*.ts) as child processes
 *    and collects the results files they write (reported as missing when they write none).
 * 2. Measures, itself:
 *    - cold start (spawn → initialize answered) of dist/roam-mcp.mjs, the bare-node floor
 *      (bench/mcp-bare-initialize.mjs) and, with `--official PATH`, the official Roam MCP server;
 *      tools/list size in bytes and estimated tokens (chars / 4);
 *    - cold start by protocol era (`initialize` and 2026-07-28 `server/discover`) on Node 20, 22
 *      and 24, and the SDK server module's import cost (bench/cold-start-eras.ts);
 *    - per-call overhead of each read tool over the same Local API requests sent directly
 *      (replayed from the emulator's request log), median and p99, at 1 and 8 concurrent calls;
 *    - what every chat pays of tools/list per toolset (bench/tools-budget.ts);
 *    - every read tool on generated graphs of 1k, 10k and 100k blocks: round trips, response
 *      bytes and tokens, bin CPU time, and the bin's peak RSS (VmHWM) at the end.
 * Writes bench/results/overall.json and bench/RESULTS.md.
 *
 * By default (a few minutes on a quiet machine) it measures what the performance table of
 * bench/RESULTS.md needs: navigation at 100k (emulator) and 1M blocks (synthetic API), cold
 * start and idle RSS, cold start by era on Node 20/22/24, per-call overhead, the tools budget.
 * `--full` adds the other benchmarks (bench/mcp-*.ts, bench/navigation.ts), the SDK import cost
 * and every read tool on generated 1k/10k/100k graphs; `--quick` is a smoke run at smaller sizes
 * with fewer repetitions.
 *
 * Run: npm run bench [-- --official /path/to/official/server.js] [--quick | --full]
 * `--render-only` writes RESULTS.md again from the last run's bench/results/overall.json and the
 * children's results files (navigation-scale.json, http-hub.json), which may be newer;
 * `--budget-only` measures the tools budget again (seconds) and renders the rest the same way.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { callAction } from '../test/emulator/http-client.ts';
import { replayDirect, startRelay } from './direct-replay.ts';
import { pagesByReferences } from './referenced-pages.ts';
import { startEmulator, type Emulator } from '../test/emulator/index.ts';
import {
  coldStartErasMarkdown,
  measureColdStartEras,
  measureSdkImport,
  type EraRow,
  type ImportCost,
} from './cold-start-eras.ts';
import { measureIdleRss, type IdleRss } from './idle-rss.ts';
import { issueMarkdown, issueRows, type IssueRow, type ScaleSize as IssueScaleSize } from './issue-table.ts';
import { budgetMarkdown, budgetTargets, measureToolsBudget, type BudgetRow } from './tools-budget.ts';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const BIN = path.join(root, 'dist/roam-mcp.mjs');
const FLOOR = path.join(root, 'bench/mcp-bare-initialize.mjs');
const RESULTS_DIR = path.join(root, 'bench/results');
const TOKEN = 'roam-graph-local-token-BENCHbenchBENCHbenchBENCHbe';
const GRAPH = 'bench';
const NODE = process.execPath;

const { values: flags } = parseArgs({
  options: {
    official: { type: 'string' },
    quick: { type: 'boolean', default: false },
    full: { type: 'boolean', default: false },
    'skip-children': { type: 'boolean', default: false },
    'render-only': { type: 'boolean', default: false },
    'budget-only': { type: 'boolean', default: false },
  },
});
const QUICK = flags.quick ?? false;
const FULL = flags.full ?? false;
const COLD_RUNS = QUICK ? 5 : FULL ? 15 : 9;
const OVERHEAD_ROUNDS = QUICK ? 10 : FULL ? 40 : 20;
const SIZES = FULL ? [1_000, 10_000, 100_000] : [];
/** Navigation at scale: an emulator graph and a synthetic one (bench/navigation-scale.ts). */
const SCALE_SIZES = QUICK ? '10000,200000' : '100000,1000000';

// ---------- small helpers ----------

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;
function quantile(values: number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number;
}
const median = (values: number[]) => quantile(values, 0.5);
const tokensOf = (chars: number) => Math.ceil(chars / 4);
const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);

/** utime + stime of a process in ms (Linux /proc), or undefined elsewhere. */
async function cpuMs(pid: number | undefined): Promise<number | undefined> {
  if (!pid) return undefined;
  try {
    const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // clock ticks, USER_HZ = 100
  } catch {
    return undefined;
  }
}

/** Peak resident set size (VmHWM) of a process in MB (Linux /proc). */
async function peakRssMb(pid: number | undefined): Promise<number | undefined> {
  if (!pid) return undefined;
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(await readFile(`/proc/${pid}/status`, 'utf8'));
    return match ? round(Number(match[1]) / 1024, 1) : undefined;
  } catch {
    return undefined;
  }
}

async function machine() {
  const cpus = os.cpus();
  return {
    os: `${os.type()} ${os.release()} (${os.platform()} ${os.arch()})`,
    cpu: cpus[0]?.model ?? 'unknown',
    cores: cpus.length,
    memoryGb: round(os.totalmem() / 2 ** 30, 1),
    node: spawnSync(NODE, ['--version'], { encoding: 'utf8' }).stdout.trim(),
    loadAverageAtStart: os.loadavg().map((n) => round(n, 1)),
  };
}

// ---------- 1. the colleagues' benchmarks ----------

interface ChildBench {
  file: string;
  status: 'ok' | 'failed' | 'timeout';
  seconds: number;
  results: string[];
  error?: string;
}

async function runChildBenchmarks(): Promise<ChildBench[]> {
  const candidates = (await readdir(path.join(root, 'bench')))
    .filter(
      (f) =>
        /^(mcp-|navigation|prompts-|undo|http-hub|write-lock|remote-call).*\.ts$/.test(f) &&
        !f.includes('child'),
    )
    .filter(
      (f) =>
        FULL ||
        ['navigation-scale.ts', 'http-hub.ts', 'write-lock.ts', 'remote-call.ts'].includes(f) ||
        f.startsWith('undo'),
    )
    .sort();
  // Benchmarks write bench/results/; helpers they spawn (floors, emulator children) do not.
  const files: string[] = [];
  for (const f of candidates) {
    if ((await readFile(path.join(root, 'bench', f), 'utf8')).includes('results')) files.push(f);
  }
  const out: ChildBench[] = [];
  for (const file of files) {
    const started = Date.now();
    log(`running bench/${file} ...`);
    const outcome = await new Promise<{ status: ChildBench['status']; error?: string }>((resolve) => {
      const args = file === 'navigation-scale.ts' ? ['--sizes', SCALE_SIZES] : [];
      const child = spawn(NODE, ['--import', 'tsx', path.join('bench', file), ...args], {
        cwd: root,
        stdio: ['ignore', 'inherit', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => {
        stderr = (stderr + chunk.toString()).slice(-2000);
        process.stderr.write(chunk);
      });
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve({ status: 'timeout', error: 'killed after 20 minutes' });
      }, 20 * 60_000);
      child.on('exit', (code) => {
        clearTimeout(timer);
        resolve(code === 0 ? { status: 'ok' } : { status: 'failed', error: stderr.trim().split('\n').pop() });
      });
    });
    const results: string[] = [];
    for (const name of existsSync(RESULTS_DIR) ? await readdir(RESULTS_DIR) : []) {
      if (name.startsWith('overall')) continue;
      if ((await stat(path.join(RESULTS_DIR, name))).mtimeMs >= started) results.push(name);
    }
    out.push({ file, ...outcome, seconds: round((Date.now() - started) / 1000, 1), results });
  }
  return out;
}

// ---------- 2a. cold start and tools/list ----------

const INITIALIZE = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
})}\n`;

/** Milliseconds from spawn to the initialize answer. */
function coldStart(command: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command[0] as string, command.slice(1), { env, stdio: ['pipe', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (!out.includes('\n')) return;
      const elapsed = performance.now() - started;
      child.kill();
      if (!(JSON.parse(out.split('\n')[0] as string) as { result?: unknown }).result)
        reject(new Error(`bad initialize answer from ${command.join(' ')}: ${out.slice(0, 200)}`));
      else resolve(elapsed);
    });
    child.on('error', reject);
    child.stdin.write(INITIALIZE);
  });
}

function commandFor(script: string): string[] {
  return /\.(c|m)?js$/.test(script) ? [NODE, script] : [script];
}

async function toolsListSize(command: string[], env: Record<string, string>) {
  const transport = new StdioClientTransport({
    command: command[0] as string,
    args: command.slice(1),
    env,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(transport);
  const { tools } = await client.listTools();
  await client.close();
  const bytes = Buffer.byteLength(JSON.stringify({ tools }));
  return { tools: tools.length, bytes, estimatedTokens: tokensOf(JSON.stringify({ tools }).length) };
}

/** The SDK-only reference (bench/mcp-sdk-initialize.ts), bundled the way the bin is. */
async function bundleSdkOnly(dir: string): Promise<string> {
  const { build } = await import('esbuild');
  const outfile = path.join(dir, 'sdk-only.mjs');
  await build({
    entryPoints: [path.join(root, 'bench/mcp-sdk-initialize.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    minify: true,
    logLevel: 'warning',
    alias: { '@modelcontextprotocol/server/_shims': path.join(root, 'src-mcp/process/sdk-node-shims.ts') },
    banner: {
      js: "import { createRequire as __r } from 'node:module'; const require = __r(import.meta.url);",
    },
  });
  return outfile;
}

async function measureStartup(env: Record<string, string>, sdkOnly: string) {
  const servers: Array<{ name: string; command: string[] }> = [
    { name: 'roam-mcp', command: [NODE, BIN] },
    { name: 'SDK only (no tools, no roam-mcp code)', command: [NODE, sdkOnly] },
    { name: 'bare node floor', command: [NODE, FLOOR] },
  ];
  if (flags.official) servers.push({ name: 'official Roam MCP', command: commandFor(flags.official) });
  const samples = new Map<string, number[]>(servers.map((s) => [s.name, []]));
  // A whole session first (tools/list included) warms the file cache and, on Node 22+, fills
  // roam-mcp's compile cache as the first chat on a machine does: the runs time every later chat.
  const lists = new Map<string, Awaited<ReturnType<typeof toolsListSize>>>();
  for (const s of servers) {
    if (s.name === 'roam-mcp' || s.name.startsWith('official'))
      lists.set(s.name, await toolsListSize(s.command, env));
    await coldStart(s.command, env);
  }
  for (let i = 0; i < COLD_RUNS; i++) {
    for (const s of servers) samples.get(s.name)!.push(await coldStart(s.command, env));
  }
  const out = [];
  for (const s of servers) {
    const values = samples.get(s.name)!;
    const list = lists.get(s.name);
    out.push({
      name: s.name,
      runs: values.length,
      medianMs: round(median(values)),
      p90Ms: round(quantile(values, 0.9)),
      toolsList: list,
    });
  }
  return out;
}

// ---------- 2b. per-call overhead of each read tool ----------

/** Sensible arguments for each read tool on a graph, given a hub title and an ordinary one. */
function argumentsFor(
  tool: Tool,
  pages: { hub: string; other: string; uid: string; fileUrl: string },
): Record<string, unknown> {
  const table: Record<string, Record<string, unknown>> = {
    get_page: { title: pages.hub },
    get_block: { uid: pages.uid },
    get_backlinks: { title: pages.hub },
    search: { query: pages.other.split(' ')[0] },
    search_templates: {},
    datalog_query: { query: '[:find ?t :where [?p :node/title ?t]]' },
    get_outlinks: { title: pages.other },
    get_neighbors: { title: pages.hub },
    find_path: { source: pages.other, target: pages.hub },
    get_hubs: {},
    list_pages: {},
    random_page: {},
    resolve_pages: { names: [pages.hub, pages.other] },
    search_by_tags: { tags: [pages.hub] },
    get_link_graph: { center: pages.hub },
    semantic_search: { query: pages.other },
    list_graphs: {},
    current_graph: {},
    get_comments: { blockUid: pages.uid },
    suggest_links: { text: `Notes on ${pages.hub} and ${pages.other}` },
    roam_query: { query: `{and: [[${pages.hub}]]}` },
    file_get: { url: pages.fileUrl },
  };
  const args = { ...(table[tool.name] ?? {}) };
  // The worst case for response size: the largest page size the schema allows.
  const limit = (tool.inputSchema.properties as Record<string, { maximum?: number }> | undefined)?.limit;
  if (limit?.maximum !== undefined) args.limit = limit.maximum;
  return args;
}

async function startBinFor(home: string) {
  const transport = new StdioClientTransport({
    command: NODE,
    args: [BIN],
    env: { PATH: process.env.PATH ?? '', HOME: home, ROAM_MCP_NO_LAUNCH: '1', ROAM_MCP_TOOLS: 'all' },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(transport);
  return { client, pid: transport.pid ?? undefined };
}

async function startGraph(home: string, content: 'demo' | { generate: { blocks: number } }) {
  const emulator = await startEmulator({
    home,
    port: 0,
    semanticSearch: true,
    graphs: [{ name: GRAPH, content, tokens: [{ token: TOKEN, accessLevel: 'full' }] }],
  });
  await writeFile(
    path.join(home, '.roam-tools.json'),
    JSON.stringify({ version: 1, graphs: [{ name: GRAPH, type: 'hosted', token: TOKEN }] }),
    { mode: 0o600 },
  );
  return emulator;
}

/** A 1×1 PNG, uploaded so that file_get has a file of the graph to read. */
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/**
 * The most referenced page, another page, a block uid (from the emulator's database) and the URL of
 * a file uploaded to the graph.
 */
async function pickPages(emulator: Emulator) {
  const titles = pagesByReferences(emulator, GRAPH);
  const hub = titles[0] ?? 'Project Apollo';
  const other = titles[Math.floor(titles.length / 2)] ?? hub;
  const uids = emulator
    .graph(GRAPH)
    .run('data.q', [
      `[:find ?u :where [?p :node/title "${hub.replace(/"/g, '\\"')}"] [?p :block/children ?c] [?c :block/uid ?u]]`,
    ]) as Array<[string]>;
  const upload = await callAction(emulator, {
    graph: GRAPH,
    token: TOKEN,
    action: 'file.upload',
    args: [{ base64: PNG, mimetype: 'image/png', filename: 'bench.png' }],
  });
  // Roam answers the stored file as markdown: ![](url)
  const fileUrl = /\((.+)\)$/.exec(String(upload.body.result))?.[1] ?? 'missing';
  return { hub, other, uid: uids[0]?.[0] ?? 'missing', fileUrl };
}

const isReadTool = (tool: Tool) => tool.annotations?.readOnlyHint === true && tool.name !== 'select_graph';

async function measureOverhead(home: string) {
  const emulator = await startGraph(home, 'demo');
  const bin = await startBinFor(home);
  const relay = startRelay(TOKEN);
  try {
    await bin.client.callTool({ name: 'select_graph', arguments: { graph: GRAPH } });
    const pages = await pickPages(emulator);
    const { tools } = await bin.client.listTools();
    const rows = [];
    for (const tool of tools.filter(isReadTool)) {
      const args = argumentsFor(tool, pages);
      const call = () => bin.client.callTool({ name: tool.name, arguments: args });
      for (let i = 0; i < 3; i++) await call(); // warm caches (link index, JIT)
      emulator.clearRequests();
      const probe = await call();
      const wire = emulator.requests.filter((r) => r.graph === GRAPH);
      if (probe.isError) {
        rows.push({ tool: tool.name, skipped: 'the call failed' });
        continue;
      }
      // Tools that answer from the session (no Local API request) cost their whole round trip.
      const raw = async () => {
        for (const request of wire) await replayDirect(emulator.port, request, TOKEN);
      };
      const timed = async (fn: () => Promise<unknown>) => {
        const t = performance.now();
        await fn();
        return performance.now() - t;
      };
      const relayed = () => relay.replay(emulator.port, wire);
      for (let i = 0; i < 3; i++) await relayed();
      const single: number[] = [];
      const overRelay: number[] = [];
      const eight: number[] = [];
      for (let round_ = 0; round_ < OVERHEAD_ROUNDS; round_++) {
        const once = await timed(call);
        single.push(once - (await timed(raw)));
        overRelay.push(once - (await timed(relayed)));
        const viaMcp = await Promise.all(Array.from({ length: 8 }, () => timed(call)));
        const direct = await Promise.all(Array.from({ length: 8 }, () => timed(raw)));
        eight.push(median(viaMcp) - median(direct));
      }
      rows.push({
        tool: tool.name,
        localApiRequests: wire.length,
        c1: { medianMs: round(median(single)), p99Ms: round(quantile(single, 0.99)) },
        overRelayMs: round(median(overRelay)),
        c8: { medianMs: round(median(eight)), p99Ms: round(quantile(eight, 0.99)) },
      });
      log(`overhead ${tool.name}: ${round(median(single))} ms median`);
    }
    return rows;
  } finally {
    relay.close();
    await bin.client.close();
    await emulator.close();
  }
}

// ---------- 2c. read tools on generated graphs ----------

async function measureGraphSize(home: string, blocks: number) {
  const loadStarted = performance.now();
  const emulator = await startGraph(home, { generate: { blocks } });
  const loadMs = round(performance.now() - loadStarted, 0);
  const bin = await startBinFor(home);
  try {
    await bin.client.callTool({ name: 'select_graph', arguments: { graph: GRAPH } });
    const pages = await pickPages(emulator);
    const { tools } = await bin.client.listTools();
    const rows = [];
    for (const tool of tools.filter(isReadTool)) {
      const args = argumentsFor(tool, pages);
      emulator.clearRequests();
      const cpuBefore = await cpuMs(bin.pid);
      const started = performance.now();
      const result = await bin.client.callTool({ name: tool.name, arguments: args }).catch((e: Error) => e);
      const wallMs = round(performance.now() - started, 1);
      const cpuAfter = await cpuMs(bin.pid);
      const text = result instanceof Error ? result.message : JSON.stringify(result.content);
      rows.push({
        tool: tool.name,
        args,
        error: result instanceof Error || result.isError ? text.slice(0, 160) : undefined,
        roundTrips: emulator.requests.filter((r) => r.graph === GRAPH).length,
        responseBytes: Buffer.byteLength(text),
        responseTokens: tokensOf(text.length),
        binCpuMs:
          cpuBefore !== undefined && cpuAfter !== undefined ? round(cpuAfter - cpuBefore, 0) : undefined,
        wallMs,
      });
      log(`${blocks} blocks, ${tool.name}: ${wallMs} ms, ${tokensOf(text.length)} tokens`);
    }
    const counts = emulator.graph(GRAPH).counts();
    return { blocks, counts, emulatorLoadMs: loadMs, peakRssMb: await peakRssMb(bin.pid), tools: rows };
  } finally {
    await bin.client.close();
    await emulator.close();
  }
}

// ---------- 2d. idle RSS ----------

/** `sdkOnly`: the SDK alone answering `initialize` (no tools, no roam-mcp code), what bounds roam-mcp's idle RSS. */
function idleServers(sdkOnly: string) {
  const servers = [
    { name: 'roam-mcp', command: [NODE, BIN], listTools: true },
    { name: 'bare node floor', command: [NODE, FLOOR], listTools: false },
    { name: 'SDK alone (initialize only)', command: [NODE, sdkOnly], listTools: false },
  ];
  if (flags.official)
    servers.push({ name: 'official Roam MCP', command: commandFor(flags.official), listTools: true });
  return servers;
}

// ---------- the report ----------

/** Whether the run had an official server (also when only rendering that run's results again). */
const officialMeasured = (report: Report) => report.startup.some((s) => /official/i.test(s.name));

/** bench/RESULTS-notes.md (written by hand: what bounds each missed target, what would move it). */
async function notes(): Promise<string[]> {
  const file = path.join(root, 'bench/RESULTS-notes.md');
  return existsSync(file) ? (await readFile(file, 'utf8')).trimEnd().split('\n') : [];
}

/** The read tool with the largest median overhead (one call at a time). */
function worstOf(overhead: Overhead) {
  let worst: { tool: string; medianMs: number } | undefined;
  for (const row of overhead)
    if ('c1' in row && row.c1 && (!worst || row.c1.medianMs > worst.medianMs))
      worst = { tool: row.tool, medianMs: row.c1.medianMs };
  return worst;
}

async function scaleSizes(): Promise<IssueScaleSize[]> {
  const file = path.join(RESULTS_DIR, 'navigation-scale.json');
  if (!existsSync(file)) return [];
  return (JSON.parse(await readFile(file, 'utf8')) as { sizes: IssueScaleSize[] }).sizes;
}

type Startup = Awaited<ReturnType<typeof measureStartup>>;
type Overhead = Awaited<ReturnType<typeof measureOverhead>>;
type Sizes = Array<Awaited<ReturnType<typeof measureGraphSize>>>;

interface ScaleSize {
  blocks: number;
  backend: string;
  default: {
    firstCallMs: number;
    firstCallCpuMs: number;
    warmOutsideMs: number;
    warmCpuMs: number;
    peakRssMb: number;
    tools: Array<{ tokens: number }>;
  };
  semiSpace: { firstCallMs: number; firstCallCpuMs: number; peakRssMb: number };
  warmInsideMs: number;
}

/** The navigation-at-scale targets, from bench/navigation-scale.ts's results file. */
async function scaleTargets() {
  const file = path.join(RESULTS_DIR, 'navigation-scale.json');
  if (!existsSync(file)) return [];
  const report = JSON.parse(await readFile(file, 'utf8')) as { date: string; sizes: ScaleSize[] };
  const at = (blocks: number) => report.sizes.find((s) => s.blocks === blocks);
  const [k100, m1] = [at(100_000), at(1_000_000)];
  const rows: Array<{ target: string; measured: string; pass: boolean }> = [];
  const both = (s: ScaleSize, pick: (v: ScaleSize['semiSpace']) => number, unit: string) =>
    `${pick(s.default)} ${unit} (node default) / ${pick(s.semiSpace)} ${unit} (--max-semi-space-size=1)`;
  if (k100) {
    rows.push(
      {
        target: 'peak RSS, 100k blocks, after every navigation tool ≤ 72 MB',
        measured: both(k100, (v) => v.peakRssMb, 'MB'),
        pass: Math.min(k100.default.peakRssMb, k100.semiSpace.peakRssMb) <= 72,
      },
      {
        target: 'first navigation call (index build), 100k, wall ≤ 2 s',
        measured: `wall ${both(k100, (v) => v.firstCallMs, 'ms')}; bin CPU ${both(k100, (v) => v.firstCallCpuMs, 'ms')}`,
        pass: Math.min(k100.default.firstCallMs, k100.semiSpace.firstCallMs) <= 2000,
      },
      {
        target: 'warm navigation call, 100k, outside the staleness window ≤ 100 ms',
        measured: `${k100.default.warmOutsideMs} ms wall (get_outlinks, median of 7), bin CPU ${k100.default.warmCpuMs} ms per call`,
        pass: k100.default.warmOutsideMs <= 100,
      },
      {
        target: 'warm navigation call inside the window ≤ 10 ms',
        measured: `${k100.warmInsideMs} ms at 100k${m1 ? `, ${m1.warmInsideMs} ms at 1M` : ''}`,
        pass: Math.max(k100.warmInsideMs, m1?.warmInsideMs ?? 0) <= 10,
      },
    );
  }
  if (m1) {
    rows.push(
      {
        target: 'peak RSS, 1M blocks (synthetic API) ≤ 120 MB',
        measured: both(m1, (v) => v.peakRssMb, 'MB'),
        pass: Math.min(m1.default.peakRssMb, m1.semiSpace.peakRssMb) <= 120,
      },
      {
        target: 'index build, 1M, our side only (first call, synthetic API answers from memory) ≤ 1.5 s',
        measured: `wall ${both(m1, (v) => v.firstCallMs, 'ms')}; bin CPU ${both(m1, (v) => v.firstCallCpuMs, 'ms')}`,
        pass: Math.min(m1.default.firstCallMs, m1.semiSpace.firstCallMs) <= 1500,
      },
    );
  }
  const largest = [k100, m1].flatMap((s) =>
    s ? [[s.blocks, Math.max(...s.default.tools.map((t) => t.tokens))]] : [],
  );
  if (largest.length)
    rows.push({
      target: 'largest tool answer at 100k and 1M ≤ 25k tokens',
      measured: largest.map(([b, t]) => `${t} tokens at ${b!.toLocaleString('en')}`).join(', '),
      pass: largest.every(([, t]) => t! <= 25_000),
    });
  return rows.map((r) => ({ ...r, target: `${r.target} (navigation-scale, ${report.date.slice(0, 16)})` }));
}

/** One server for every chat (issue 35), from bench/http-hub.ts's results file. */
async function httpHubTargets() {
  const file = path.join(RESULTS_DIR, 'http-hub.json');
  if (!existsSync(file)) return [];
  const r = JSON.parse(await readFile(file, 'utf8')) as {
    date: string;
    blocks: number;
    newChatFirstNavigationMs: Record<
      'v1' | 'v2',
      Record<'inWindow' | 'checkDue', { median: number; max: number }>
    >;
    rss: Array<{ chats: number; httpServerMb: number; stdioProcessesMb: number }>;
    soak: Record<string, number>;
  };
  const first = r.newChatFirstNavigationMs;
  const worstFirst = Math.max(
    first.v1.inWindow.max,
    first.v1.checkDue.max,
    first.v2.inWindow.max,
    first.v2.checkDue.max,
  );
  const twenty = r.rss.find((row) => row.chats === 20);
  const rows = [
    {
      target: `first navigation call of a new chat on a warm server, ${r.blocks / 1000}k blocks ≤ 150 ms`,
      measured: `max ${worstFirst} ms (medians, 2025 session / 2026-07-28: ${first.v1.inWindow.median} / ${first.v2.inWindow.median} ms inside the staleness window, ${first.v1.checkDue.median} / ${first.v2.checkDue.median} ms with the freshness check due)`,
      pass: worstFirst <= 150,
    },
    {
      target: 'soak, 20 chats × 500 calls: RSS back within 10 % of its level after the first round',
      measured: `${r.soak.rssSettledAfterFirstRoundMb} → ${r.soak.rssSettledAtEndMb} MB settled (${r.soak.rssGrowthPercent} %; peak in the burst ${r.soak.rssPeakMb} MB)`,
      pass: Math.abs(r.soak.rssGrowthPercent!) <= 10,
    },
    {
      target: 'soak: no file descriptor growth',
      measured: `${r.soak.fdsBefore} before, ${r.soak.fdsAfterClose} after the chats closed`,
      pass: r.soak.fdsAfterClose! <= r.soak.fdsBefore!,
    },
    ...(twenty
      ? [
          {
            target: '20 chats: one HTTP server against 20 stdio processes (RSS)',
            measured: `${twenty.httpServerMb} MB against ${twenty.stdioProcessesMb} MB`,
            pass: twenty.httpServerMb < twenty.stdioProcessesMb,
          },
        ]
      : []),
  ];
  return rows.map((row) => ({ ...row, target: `${row.target} (http-hub, ${r.date.slice(0, 16)})` }));
}

function targets(startup: Startup, overhead: Overhead, sizes: Sizes, budget: BudgetRow[]) {
  const bin = startup.find((s) => s.name === 'roam-mcp')!;
  const floor = startup.find((s) => s.name === 'bare node floor')!;
  const ratio = bin.medianMs / floor.medianMs;
  const medians = overhead.flatMap((r) => ('c1' in r && r.c1 ? [r.c1.medianMs] : []));
  const worstOverhead = Math.max(...medians);
  const biggest = sizes.find((s) => s.blocks === 100_000) ?? sizes[sizes.length - 1];
  const maxTokens = Math.max(...(biggest?.tools.map((t) => t.responseTokens) ?? [NaN]));
  const maxTool = biggest?.tools.find((t) => t.responseTokens === maxTokens)?.tool;
  const rss = biggest?.peakRssMb ?? NaN;
  const label = biggest ? `${biggest.blocks.toLocaleString('en')}-block graph` : 'largest graph';
  return [
    {
      target: 'cold start ≤ 1.5× the bare-node floor',
      measured: `${bin.medianMs} ms vs ${floor.medianMs} ms = ${round(ratio)}×`,
      pass: ratio <= 1.5,
    },
    {
      target: 'per-call overhead < 1 ms median (every read tool, 1 call at a time)',
      measured: `worst tool median ${round(worstOverhead)} ms (${overhead.length} tools)`,
      pass: worstOverhead < 1,
    },
    ...(biggest
      ? [
          {
            target: `no tool response above 25,000 tokens on the ${label}`,
            measured: `largest ${maxTokens} tokens (${maxTool})`,
            pass: maxTokens <= 25_000,
          },
          {
            target: `MCP server RSS under 80 MB on the ${label}`,
            measured: `peak ${rss} MB (VmHWM)`,
            pass: rss < 80,
          },
        ]
      : []),
    ...budgetTargets(budget),
  ];
}

function markdown(report: {
  date: string;
  machine: Awaited<ReturnType<typeof machine>>;
  loadAverageAtEnd: number[];
  targets: ReturnType<typeof targets>;
  startup: Startup;
  overhead: Overhead;
  sizes: Sizes;
  children: ChildBench[];
  eras: EraRow[];
  sdkImport: ImportCost[];
  budget: BudgetRow[];
  issue: IssueRow[];
  idle: IdleRss[];
  notes: string[];
}): string {
  const m = report.machine;
  const lines = [
    '# Benchmark results',
    '',
    `Measured ${report.date} by \`npm run bench\` (bench/run-all.ts).`,
    '',
    `Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGb} GB, ${m.os}, Node ${m.node}. ` +
      `Load average (1/5/15 min) at start ${m.loadAverageAtStart.join(' / ')}, at end ${report.loadAverageAtEnd.join(' / ')}: ` +
      "wall times grow with the load; the CPU times (from /proc, 10 ms ticks) are our side's own work.",
    '',
    '## Performance table',
    '',
    'First call of a new chat: a new process whose first navigation call finds the index an earlier ' +
      'process kept on disk (docs/navigation.md, "Kept on disk"). Peak RSS is VmHWM; idle RSS is VmRSS ' +
      'one second after the `tools/list` answer (the floor answers `initialize` only).',
    '',
    ...issueMarkdown(report.issue),
    '',
    ...report.notes,
    '',
    '## Other targets',
    '',
    '| target | measured | result |',
    '|---|---|---|',
    ...report.targets.map((t) => `| ${t.target} | ${t.measured} | ${t.pass ? 'PASS' : 'FAIL'} |`),
    '',
    '## Cold start and tools/list',
    '',
    `Spawn → \`initialize\` answered, ${COLD_RUNS} interleaved runs each; tools/list as JSON, tokens ≈ chars / 4.`,
    '',
    '| server | cold start median | p90 | tools | tools/list bytes | ≈ tokens |',
    '|---|---|---|---|---|---|',
    ...report.startup.map(
      (s) =>
        `| ${s.name} | ${s.medianMs} ms | ${s.p90Ms} ms | ${s.toolsList?.tools ?? '—'} | ${s.toolsList?.bytes ?? '—'} | ${s.toolsList?.estimatedTokens ?? '—'} |`,
    ),
    ...(officialMeasured(report)
      ? []
      : ['', 'Official Roam MCP server: not measured (none available locally; pass `--official PATH`).']),
    '',
    ...coldStartErasMarkdown(report.eras, report.sdkImport, officialMeasured(report)),
    '',
    ...budgetMarkdown(report.budget),
    '',
    '## Per-call overhead of read tools',
    '',
    'A tool call through roam-mcp (SDK client over stdio, demo graph) minus the same Local API requests sent ' +
      `directly over HTTP (replayed from the emulator's log), ${OVERHEAD_ROUNDS} interleaved rounds. ` +
      'At 8 concurrent: median latency of 8 simultaneous tool calls minus that of 8 simultaneous direct replays. ' +
      "The overhead includes the SDK client's own JSON-RPC and schema work, not only the server's. " +
      'The direct replay runs in the bench process, which also hosts the emulator: it crosses no process ' +
      'boundary, where a tool call crosses two (bench → roam-mcp over a pipe, roam-mcp → emulator over TCP). ' +
      '"Over a relay" subtracts instead the same requests replayed by a minimal child process (a pipe in, ' +
      "HTTP with a kept-alive agent, a pipe out): the same hops, so what is left is roam-mcp's own work. " +
      'The target is kept on the first figure.',
    '',
    '| tool | Local API requests | overhead median (1) | p99 (1) | over a relay (1) | overhead median (8) | p99 (8) |',
    '|---|---|---|---|---|---|---|',
    ...report.overhead.map((r) =>
      'c1' in r && r.c1 && r.c8
        ? `| ${r.tool} | ${r.localApiRequests} | ${r.c1.medianMs} ms | ${r.c1.p99Ms} ms | ${'overRelayMs' in r && r.overRelayMs !== undefined ? `${r.overRelayMs} ms` : '—'} | ${r.c8.medianMs} ms | ${r.c8.p99Ms} ms |`
        : `| ${r.tool} | — | skipped: ${'skipped' in r ? r.skipped : ''} | | | | |`,
    ),
    '',
    '## Read tools on generated graphs',
    '',
    'First call of each read tool (the first navigation call builds the link index), with the largest `limit` ' +
      "the schema allows. Round trips from the emulator's request log; bin CPU from /proc (10 ms resolution); " +
      'peak RSS is VmHWM of the bin after all calls.',
  ];
  for (const size of report.sizes) {
    lines.push(
      '',
      `### ${size.blocks.toLocaleString('en')} blocks (${size.counts.pages} pages) — peak RSS ${size.peakRssMb} MB, emulator load ${size.emulatorLoadMs} ms`,
      '',
      '| tool | round trips | bytes | ≈ tokens | bin CPU ms | wall ms | error |',
      '|---|---|---|---|---|---|---|',
      ...size.tools.map(
        (t) =>
          `| ${t.tool} | ${t.roundTrips} | ${t.responseBytes} | ${t.responseTokens} | ${t.binCpuMs ?? '—'} | ${t.wallMs} | ${t.error ? t.error.replace(/\|/g, '/').slice(0, 80) : ''} |`,
      ),
    );
  }
  lines.push(
    '',
    '## Other benchmarks run',
    '',
    '| benchmark | status | seconds | results |',
    '|---|---|---|---|',
    ...report.children.map(
      (c) =>
        `| bench/${c.file} | ${c.status}${c.error ? `: ${c.error.replace(/\|/g, '/').slice(0, 100)}` : ''} | ${c.seconds} | ${c.results.length ? c.results.map((r) => `bench/results/${r}`).join(', ') : 'missing (no results file written)'} |`,
    ),
  );
  for (const c of report.children) {
    for (const name of c.results.filter((r) => r.endsWith('.md'))) {
      lines.push(
        '',
        `<!-- from bench/results/${name} -->`,
        '',
        `See [bench/results/${name}](results/${name}).`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<void> {
  if (!existsSync(BIN))
    throw new Error('dist/roam-mcp.mjs is missing: run node scripts/build.mjs mcp first.');
  await mkdir(RESULTS_DIR, { recursive: true });
  const info = await machine();
  const children = flags['skip-children'] ? [] : await runChildBenchmarks();
  const home = await mkdtemp(path.join(os.tmpdir(), 'roam-bench-'));
  try {
    log('cold start and tools/list ...');
    const emulator = await startGraph(home, 'demo');
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: home,
      ROAM_MCP_NO_LAUNCH: '1',
      ROAM_MCP_TOOLS: 'all',
      ROAM_GRAPH: GRAPH,
      ROAM_API_TOKEN: TOKEN,
    };
    const sdkOnly = await bundleSdkOnly(home);
    const startup = await measureStartup(env, sdkOnly);
    log('cold start by protocol era on Node 20, 22 and 24 ...');
    const eras = await measureColdStartEras(env, COLD_RUNS, flags.official);
    const sdkImport = FULL ? measureSdkImport(COLD_RUNS) : [];
    log('idle RSS after initialize + tools/list ...');
    const idle = await measureIdleRss(idleServers(sdkOnly), env, QUICK ? 3 : 5);
    await emulator.close();
    log('tools budget per toolset ...');
    const budget = await measureToolsBudget(flags.official);
    log('per-call overhead ...');
    const overhead = await measureOverhead(home);
    const sizes: Sizes = [];
    for (const blocks of SIZES) {
      log(`graph of ${blocks} blocks ...`);
      sizes.push(await measureGraphSize(home, blocks));
    }
    const report = {
      date: new Date().toISOString(),
      machine: info,
      loadAverageAtEnd: os.loadavg().map((n) => round(n, 1)),
      targets: [
        ...targets(startup, overhead, sizes, budget),
        ...(await scaleTargets()),
        ...(await httpHubTargets()),
      ],
      issue: issueRows({
        scale: await scaleSizes(),
        eras,
        idle,
        worstOverhead: worstOf(overhead),
        sdkBound: {
          sdkOnlyMs: startup.find((s) => s.name.startsWith('SDK only'))!.medianMs,
          floorMs: startup.find((s) => s.name === 'bare node floor')!.medianMs,
        },
      }),
      idle,
      notes: await notes(),
      startup,
      overhead,
      sizes,
      children,
      eras,
      sdkImport,
      budget,
    };
    await writeFile(path.join(RESULTS_DIR, 'overall.json'), `${JSON.stringify(report, null, 2)}\n`);
    await writeResults(report);
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

type Report = Parameters<typeof markdown>[0];

/** bench/RESULTS.md, formatted as the repository's prettier would (CI's format check). */
async function writeResults(report: Report): Promise<void> {
  const resultsFile = path.join(root, 'bench/RESULTS.md');
  const prettier = await import('prettier');
  const style = (await prettier.resolveConfig(resultsFile)) ?? {};
  await writeFile(resultsFile, await prettier.format(markdown(report), { ...style, filepath: resultsFile }));
  for (const t of report.targets) log(`${t.pass ? 'PASS' : 'FAIL'} ${t.target}: ${t.measured}`);
}

/** `--render-only`: RESULTS.md again from the last run's overall.json (e.g. after editing the notes). */
async function renderOnly(): Promise<void> {
  const report = JSON.parse(await readFile(path.join(RESULTS_DIR, 'overall.json'), 'utf8')) as Report;
  const startup = report.startup;
  const issue = issueRows({
    scale: await scaleSizes(),
    eras: report.eras,
    idle: report.idle,
    worstOverhead: worstOf(report.overhead),
    sdkBound: {
      sdkOnlyMs: startup.find((s) => s.name.startsWith('SDK only'))!.medianMs,
      floorMs: startup.find((s) => s.name === 'bare node floor')!.medianMs,
    },
  });
  // The rows from the children's results files are read again: a child may have run since.
  const fromChildren = / \((navigation-scale|http-hub), /;
  const targets = [
    ...report.targets.filter((row) => !fromChildren.test(row.target)),
    ...(await scaleTargets()),
    ...(await httpHubTargets()),
  ];
  await writeResults({ ...report, targets, issue, notes: await notes() });
}

/** `--budget-only`: the tools budget measured again into overall.json, then `--render-only`. */
async function budgetOnly(): Promise<void> {
  const file = path.join(RESULTS_DIR, 'overall.json');
  const report = JSON.parse(await readFile(file, 'utf8')) as Report;
  const budget = await measureToolsBudget(flags.official);
  const isBudgetRow = (row: { target: string }) => row.target.startsWith('tools/list with no options');
  const at = report.targets.findIndex(isBudgetRow);
  const targets = report.targets.filter((row) => !isBudgetRow(row));
  targets.splice(at < 0 ? targets.length : at, 0, ...budgetTargets(budget));
  await writeFile(file, `${JSON.stringify({ ...report, targets, budget }, null, 2)}\n`);
  await renderOnly();
}

await (flags['budget-only'] ? budgetOnly() : flags['render-only'] ? renderOnly() : main());
