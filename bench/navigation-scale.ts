/**
 * Navigation at scale (`node --import tsx bench/navigation-scale.ts [--sizes 1000,10000,100000,1000000]`):
 * the built bin over stdio against the emulator (≤ 100k blocks) or the synthetic Local API
 * (1M, test/scale), in both node set-ups (default, `--max-semi-space-size=1`): first navigation
 * call (the index build), every navigation tool with its largest `limit` (answer size), warm calls
 * outside the staleness window (0) and inside it, peak RSS (VmHWM), and cold start to
 * `initialize`. Writes bench/results/navigation-scale.{json,md}.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { BIN, cpuMs, GRAPH, startBackend, startBin, TOKEN } from './scale-processes.ts';

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const SEMI_SPACE = '--max-semi-space-size=1';
const log = (message: string) => process.stderr.write(`[navigation-scale] ${message}\n`);
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

async function peakRssMb(pid: number): Promise<number> {
  const match = /VmHWM:\s+(\d+) kB/.exec(await readFile(`/proc/${pid}/status`, 'utf8'));
  return match ? round(Number(match[1]) / 1024) : NaN;
}

/** Every navigation tool with the largest `limit` its schema allows: answer sizes. */
function everyTool(hub: string, other: string): Array<[string, Record<string, unknown>]> {
  return [
    ['get_outlinks', { title: hub, limit: 100 }],
    ['get_neighbors', { title: hub, limit: 50 }],
    ['find_path', { source: other, target: hub }],
    ['get_hubs', { metric: 'pagerank', limit: 50 }],
    ['search_by_tags', { tags: [hub], limit: 100 }],
    ['search_by_tags', { tags: [hub], target: 'blocks', limit: 100 }],
    ['random_page', { tags: [hub] }],
    ['list_pages', { limit: 100 }],
    ['resolve_pages', { names: Array.from({ length: 50 }, (_, i) => `${other} ${i}`), strategy: 'fuzzy' }],
    ['get_link_graph', { center: hub, depth: 3, limit: 100 }],
    ['get_link_graph', { limit: 100 }],
    ['semantic_search', { query: `${hub} ${other}`, limit: 50 }],
  ];
}

/** Waits for the index the build kept on disk (written right after the first answer). */
async function keptIndexIn(dataDir: string): Promise<void> {
  for (let waited = 0; waited < 60_000; waited += 50) {
    const names = await readdir(path.join(dataDir, 'index')).catch(() => [] as string[]);
    if (names.some((n) => n.endsWith('.lidx'))) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no kept index appeared in ${dataDir}`);
}

/** A new chat: a new process whose first navigation call finds the index an earlier one kept. */
async function newChat(home: string, execArgv: string[], dataDir: string) {
  await keptIndexIn(dataDir);
  const bin = await startBin(home, execArgv, 0, dataDir);
  try {
    const cpuBefore = await cpuMs(bin.pid);
    const first = await bin.call('get_hubs', { limit: 50 });
    return {
      newChatMs: round(first.wallMs),
      newChatCpuMs: (await cpuMs(bin.pid)) - cpuBefore,
      newChatPeakMb: await peakRssMb(bin.pid),
    };
  } finally {
    await bin.close();
  }
}

async function runVariant(home: string, execArgv: string[]) {
  const dataDir = await mkdtemp(path.join(home, 'data-'));
  const built = await buildVariant(home, execArgv, dataDir);
  return { ...built, ...(await newChat(home, execArgv, dataDir)) };
}

async function buildVariant(home: string, execArgv: string[], dataDir: string) {
  const bin = await startBin(home, execArgv, 0, dataDir);
  try {
    const atRestMb = await peakRssMb(bin.pid);
    const cpuBefore = await cpuMs(bin.pid);
    const first = await bin.call('get_hubs', { limit: 50 });
    const firstCallCpuMs = (await cpuMs(bin.pid)) - cpuBefore;
    const afterBuildMb = await peakRssMb(bin.pid);
    const titles = first.json.items.map((i: { title: string }) => i.title) as string[];
    const [hub, other] = [titles[0]!, titles[titles.length - 1]!];
    const tools = [];
    for (const [name, args] of everyTool(hub, other)) {
      const { wallMs, tokens } = await bin.call(name, args);
      const peakMb = await peakRssMb(bin.pid);
      tools.push({
        tool: `${name} ${JSON.stringify(args).slice(0, 60)}`,
        wallMs: round(wallMs),
        tokens,
        peakMb,
      });
    }
    const warm: number[] = [];
    const warmCpuBefore = await cpuMs(bin.pid);
    for (let i = 0; i < 7; i++) warm.push((await bin.call('get_outlinks', { title: hub })).wallMs);
    const warmCpuMs = round(((await cpuMs(bin.pid)) - warmCpuBefore) / 7);
    return {
      warmCpuMs,
      firstCallMs: round(first.wallMs),
      firstCallCpuMs,
      atRestMb,
      afterBuildMb,
      tools,
      warmOutsideMs: round(median(warm)),
      peakRssMb: await peakRssMb(bin.pid),
      hub,
    };
  } finally {
    await bin.close();
  }
}

async function insideWindow(home: string, hub: string) {
  const bin = await startBin(home, [], 600_000, await mkdtemp(path.join(home, 'data-')));
  try {
    await bin.call('get_outlinks', { title: hub });
    const warm: number[] = [];
    for (let i = 0; i < 7; i++) warm.push((await bin.call('get_outlinks', { title: hub })).wallMs);
    return round(median(warm));
  } finally {
    await bin.close();
  }
}

async function benchSize(blocks: number) {
  const home = await mkdtemp(path.join(os.tmpdir(), 'nav-scale-'));
  const backend = blocks > 100_000 ? 'synthetic' : 'emulator';
  const api = await startBackend(home, blocks, backend);
  log(`${blocks} blocks (${backend}): loaded in ${Math.round(api.loadMs!)} ms`);
  try {
    const plain = await runVariant(home, []);
    log(`  default: ${JSON.stringify({ ...plain, tools: undefined })}`);
    const semi = await runVariant(home, [SEMI_SPACE]);
    log(`  ${SEMI_SPACE}: ${JSON.stringify({ ...semi, tools: undefined })}`);
    const inside = await insideWindow(home, plain.hub);
    return { blocks, backend, counts: api.counts!, default: plain, semiSpace: semi, warmInsideMs: inside };
  } finally {
    await api.close();
    await rm(home, { recursive: true, force: true });
  }
}

const INITIALIZE = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'b', version: '1' } } })}\n`;

/** Spawn → `initialize` answered, ms. */
function coldStart(execArgv: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const began = performance.now();
    const child = spawn(process.execPath, [...execArgv, BIN], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: os.tmpdir(),
        ROAM_MCP_NO_LAUNCH: '1',
        ROAM_GRAPH: GRAPH,
        ROAM_API_TOKEN: TOKEN,
      },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    child.stdout.once('data', () => {
      resolve(performance.now() - began);
      child.kill();
    });
    child.on('error', reject);
    child.stdin.write(INITIALIZE);
  });
}

async function coldStarts(runs: number) {
  const samples: Record<string, number[]> = { default: [], semiSpace: [] };
  await coldStart([]);
  for (let i = 0; i < runs; i++) {
    samples.default!.push(await coldStart([]));
    samples.semiSpace!.push(await coldStart([SEMI_SPACE]));
  }
  return { defaultMs: round(median(samples.default!)), semiSpaceMs: round(median(samples.semiSpace!)), runs };
}

function markdown(report: Awaited<ReturnType<typeof run>>): string {
  const lines = [
    '# Navigation at scale',
    '',
    `${report.date} · ${report.machine} · load average at start ${report.loadAverage.join(' / ')}`,
    '',
    `Cold start (spawn → initialize answered, median of ${report.coldStart.runs}): default ${report.coldStart.defaultMs} ms, ${SEMI_SPACE} ${report.coldStart.semiSpaceMs} ms.`,
    '',
    'Wall times depend on the machine\'s load (see the load average); "CPU" is the bin\'s own utime + stime from /proc (10 ms ticks).',
    '',
    '| blocks | backend | pages | first call wall ms (default / semi-space) | first call bin CPU ms (default / semi-space) | warm outside window wall ms (bin CPU per call) | warm inside window ms | peak RSS MB (default / semi-space) | largest answer tokens |',
    '|---|---|---|---|---|---|---|---|---|',
    ...report.sizes.map(
      (s) =>
        `| ${s.blocks.toLocaleString('en')} | ${s.backend} | ${s.counts.pages} | ${s.default.firstCallMs} / ${s.semiSpace.firstCallMs} | ${s.default.firstCallCpuMs} / ${s.semiSpace.firstCallCpuMs} | ${s.default.warmOutsideMs} (${s.default.warmCpuMs}) | ${s.warmInsideMs} | ${s.default.peakRssMb} / ${s.semiSpace.peakRssMb} | ${Math.max(...s.default.tools.map((t) => t.tokens))} |`,
    ),
  ];
  for (const s of report.sizes) {
    lines.push(
      '',
      `## ${s.blocks.toLocaleString('en')} blocks: every navigation tool`,
      '',
      `Peak RSS (default / semi-space): at rest ${s.default.atRestMb} / ${s.semiSpace.atRestMb} MB, after the index build ${s.default.afterBuildMb} / ${s.semiSpace.afterBuildMb} MB, then after each call:`,
      '',
      '| call | wall ms (default) | tokens | peak RSS MB (default / semi-space) |',
      '|---|---|---|---|',
    );
    s.default.tools.forEach((t, i) =>
      lines.push(
        `| \`${t.tool.replace(/\|/g, '\\|')}\` | ${t.wallMs} | ${t.tokens} | ${t.peakMb} / ${s.semiSpace.tools[i]?.peakMb} |`,
      ),
    );
  }
  return `${lines.join('\n')}\n`;
}

async function run(sizes: number[]) {
  const coldStart = await coldStarts(9);
  const results = [];
  for (const blocks of sizes) results.push(await benchSize(blocks));
  return {
    date: new Date().toISOString(),
    machine: `${os.cpus()[0]?.model ?? 'cpu'} × ${os.cpus().length}, Node ${process.versions.node}`,
    loadAverage: os.loadavg().map((l) => round(l, 2)),
    coldStart,
    sizes: results,
  };
}

const { values } = parseArgs({
  options: { sizes: { type: 'string', default: '1000,10000,100000,1000000' } },
});
const report = await run(values.sizes.split(',').map(Number));
const out = path.join(ROOT, 'bench/results');
await mkdir(out, { recursive: true });
await writeFile(path.join(out, 'navigation-scale.json'), `${JSON.stringify(report, null, 2)}\n`);
await writeFile(path.join(out, 'navigation-scale.md'), markdown(report));
log(`wrote ${path.join(out, 'navigation-scale.json')} and navigation-scale.md`);
