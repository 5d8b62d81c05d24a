/**
 * Navigation benchmark (`node --import tsx bench/navigation.ts [--sizes 1000,10000,100000]`):
 * on generated graphs, the Local API round trips (from the emulator's request log), bytes on the
 * wire, wall time and our server's own CPU time per tool, cold (index build) and warm (cached),
 * in-process through a ToolContext over real HTTP and end-to-end through the stdio bin.
 * The emulator runs in a child process so process.cpuUsage() here is the server's work alone.
 * Writes bench/results/navigation.json and navigation.md.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { z } from 'zod';
import { LinkIndexes } from '../src-mcp/navigation/index-cache.ts';
import { DEFAULT_STALENESS_MS } from '../src-mcp/navigation/index-staleness.ts';
import { navigationTools } from '../src-mcp/tools/navigation/index.ts';
import type { ToolContext } from '../src-mcp/contract/tool-definition.ts';
import { ownServices } from '../test/harness/http-context.ts';
import { forkBenchChild } from './bench-child.ts';

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const TOKEN = 'roam-graph-local-token-BENCHbenchBENCHbenchBENCHben';
const GRAPH = 'bench';

interface ChildMessage {
  type: string;
  url?: string;
  loadMs?: number;
  counts?: { pages: number; blocks: number };
  requests?: Array<{ action: string; status?: number }>;
}

/** The emulator child: start it, then ask it things and wait for the answer. */
async function startChild(home: string, blocks: number) {
  const { child, next } = forkBenchChild<ChildMessage>('bench/navigation-emulator-child.ts', 6144);
  const ready = next('ready');
  child.send({ home, graph: GRAPH, blocks, token: TOKEN });
  const started = await ready;
  const ask = async (message: Record<string, unknown>, reply: string) => {
    const answer = next(reply);
    child.send(message);
    return answer;
  };
  return {
    url: started.url!,
    loadMs: started.loadMs!,
    counts: started.counts!,
    requests: async () => (await ask({ type: 'requests' }, 'requests')).requests!,
    clear: () => ask({ type: 'clear' }, 'cleared'),
    edit: (parentUid: string, text: string) => ask({ type: 'edit', parentUid, text }, 'edited'),
    close: () => ask({ type: 'close' }, 'closed'),
  };
}

/** A ToolContext over real HTTP that also measures bytes and time spent waiting for the Local API. */
function measuredContext(url: string, linkIndexes: LinkIndexes) {
  const wire = { bytesSent: 0, bytesReceived: 0, waitMs: 0 };
  const ctx: ToolContext = {
    graph: { name: GRAPH, nickname: GRAPH },
    ...ownServices(),
    linkIndexes,
    signal: new AbortController().signal,
    progress: () => {},
    notice: () => {},
    async call<T>(action: string, args: unknown[] = []): Promise<T> {
      const body = JSON.stringify({ action, args });
      const began = performance.now();
      const response = await fetch(`${url}/api/${GRAPH}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${TOKEN}` },
        body,
      });
      const text = await response.text();
      wire.waitMs += performance.now() - began;
      wire.bytesSent += Buffer.byteLength(body);
      wire.bytesReceived += Buffer.byteLength(text);
      const parsed = JSON.parse(text) as { success: boolean; result: T; error?: { message?: string } };
      if (!parsed.success) throw new Error(`${action}: ${parsed.error?.message}`);
      return parsed.result;
    },
  };
  return { ctx, wire };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const round = (value: number, digits = 1) => Number(value.toFixed(digits));

interface Measurement {
  tool: string;
  roundTrips: number;
  bytes: number;
  wallMs: number;
  /** Our process's CPU (user + system) for the call. */
  serverCpuMs: number;
  /** Wall time spent waiting on Local API responses (the emulator's DataScript work, mostly). */
  localApiWaitMs: number;
}

async function measure(
  child: Awaited<ReturnType<typeof startChild>>,
  url: string,
  linkIndexes: LinkIndexes,
  tool: string,
  args: Record<string, unknown>,
): Promise<Measurement> {
  const definition = navigationTools.find((t) => t.name === tool)!;
  const parsed = z.object(definition.inputSchema).parse(args);
  const { ctx, wire } = measuredContext(url, linkIndexes);
  await child.clear();
  const cpu = process.cpuUsage();
  const began = performance.now();
  await definition.handler(parsed, ctx);
  const wallMs = performance.now() - began;
  const used = process.cpuUsage(cpu);
  const requests = await child.requests();
  return {
    tool,
    roundTrips: requests.length,
    bytes: wire.bytesSent + wire.bytesReceived,
    wallMs,
    serverCpuMs: (used.user + used.system) / 1000,
    localApiWaitMs: wire.waitMs,
  };
}

/** The tools and arguments a warm pass exercises, picked from the graph itself. */
async function warmCalls(
  url: string,
  linkIndexes: LinkIndexes,
): Promise<Array<[string, Record<string, unknown>]>> {
  const { ctx } = measuredContext(url, linkIndexes);
  const run = (tool: string, args: Record<string, unknown>) => {
    const definition = navigationTools.find((t) => t.name === tool)!;
    return definition.handler(z.object(definition.inputSchema).parse(args), ctx) as Promise<{
      items: Array<{ title: string }>;
      total: number;
    }>;
  };
  const hubs = await run('get_hubs', { limit: 50 });
  const listed = await run('list_pages', { limit: 1, offset: Math.floor(hubs.total / 2) });
  const hub = hubs.items[0]!.title;
  const tag = hubs.items.find((i) => /^[a-z]+$/.test(i.title))?.title ?? hub;
  const quiet = listed.items[0]!.title;
  return [
    ['get_outlinks', { title: hub }],
    ['get_neighbors', { title: hub }],
    ['find_path', { source: quiet, target: hubs.items[10]?.title ?? hub }],
    ['get_hubs', { metric: 'in_degree' }],
    ['get_hubs', { metric: 'pagerank' }],
    ['search_by_tags', { tags: [tag, hub], mode: 'any' }],
    ['search_by_tags', { tags: [tag], target: 'blocks', limit: 50 }],
    ['random_page', { tags: [tag] }],
    ['list_pages', { prefix: 'a', limit: 50 }],
    [
      'resolve_pages',
      { names: [hub.toLowerCase(), `${quiet}x`, 'Quantum Gardening', 'weekly reserch', tag] },
    ],
    ['get_link_graph', { center: hub, depth: 2 }],
    ['get_link_graph', {}],
  ];
}

/** End to end: the built bin over stdio, its first (cold) call and warm calls. */
async function stdioPass(
  child: Awaited<ReturnType<typeof startChild>>,
  home: string,
  calls: Array<[string, Record<string, unknown>]>,
  repeats: number,
) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(ROOT, 'dist/roam-mcp.mjs')],
    env: {
      HOME: home,
      PATH: process.env.PATH ?? '',
      ROAM_MCP_NO_LAUNCH: '1',
      ROAM_MCP_TOOLS: 'all',
      ROAM_GRAPH: GRAPH,
      ROAM_API_TOKEN: TOKEN,
    },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'navigation-bench', version: '1.0.0' });
  await client.connect(transport);
  const callTimed = async (name: string, args: Record<string, unknown>) => {
    await child.clear();
    const began = performance.now();
    const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 600_000 });
    const wallMs = performance.now() - began;
    if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
    const navigation = (await child.requests()).filter((r) => r.action !== 'data.ai.semanticSearch');
    return { wallMs, roundTrips: navigation.length };
  };
  const cold = await callTimed('get_hubs', {});
  const warm: Array<{ tool: string; wallMs: number; roundTrips: number }> = [];
  for (const [name, args] of calls) {
    const samples = [];
    for (let i = 0; i < repeats; i++) samples.push(await callTimed(name, args));
    warm.push({
      tool: `${name} ${JSON.stringify(args)}`.slice(0, 70),
      wallMs: round(median(samples.map((s) => s.wallMs))),
      roundTrips: Math.max(...samples.map((s) => s.roundTrips)),
    });
  }
  await client.close();
  return { cold: { wallMs: round(cold.wallMs), roundTrips: cold.roundTrips }, warm };
}

async function benchSize(blocks: number) {
  const home = await mkdtemp(path.join(os.tmpdir(), 'nav-bench-'));
  const child = await startChild(home, blocks);
  process.stderr.write(`${blocks} blocks: emulator loaded in ${Math.round(child.loadMs)} ms\n`);
  try {
    // One server's cache for this size: cold first, then warm.
    const linkIndexes = new LinkIndexes({ stalenessMs: DEFAULT_STALENESS_MS });
    const cold = await measure(child, child.url, linkIndexes, 'get_hubs', {});
    const calls = await warmCalls(child.url, linkIndexes);
    const repeats = blocks >= 100_000 ? 5 : 9;
    const warm = [];
    for (const [tool, args] of calls) {
      const samples: Measurement[] = [];
      for (let i = 0; i < repeats; i++)
        samples.push(await measure(child, child.url, linkIndexes, tool, args));
      warm.push({
        tool: `${tool} ${JSON.stringify(args)}`.slice(0, 70),
        roundTrips: Math.max(...samples.map((s) => s.roundTrips)),
        bytes: Math.max(...samples.map((s) => s.bytes)),
        medianServerCpuMs: round(median(samples.map((s) => s.serverCpuMs))),
        medianWallMs: round(median(samples.map((s) => s.wallMs))),
        medianLocalApiWaitMs: round(median(samples.map((s) => s.localApiWaitMs))),
      });
      process.stderr.write(`  ${tool}: ${JSON.stringify(warm.at(-1))}\n`);
    }
    // Another client edits: the next call notices and rebuilds.
    const { ctx } = measuredContext(child.url, linkIndexes);
    const rows = await ctx.call<string[][]>('data.q', [
      `[:find ?u :where [?p :node/title ${JSON.stringify(calls[0]![1].title)}] [?p :block/uid ?u]]`,
    ]);
    await child.edit(rows[0]![0]!, 'bench edit [[Bench Edit Target]]');
    const afterEdit = await measure(child, child.url, linkIndexes, 'get_hubs', {});
    const stdio = await stdioPass(child, home, calls.slice(0, 4), blocks >= 100_000 ? 3 : 5);
    const all = warm.map((w) => w.medianServerCpuMs);
    return {
      blocks,
      graph: child.counts,
      emulatorLoadMs: Math.round(child.loadMs),
      cold: {
        ...cold,
        wallMs: round(cold.wallMs),
        serverCpuMs: round(cold.serverCpuMs),
        localApiWaitMs: round(cold.localApiWaitMs),
      },
      afterEdit: {
        roundTrips: afterEdit.roundTrips,
        serverCpuMs: round(afterEdit.serverCpuMs),
        wallMs: round(afterEdit.wallMs),
      },
      warm,
      warmMedianServerCpuMs: round(median(all)),
      warmMaxRoundTrips: Math.max(...warm.map((w) => w.roundTrips)),
      stdio,
    };
  } finally {
    await child.close();
    await rm(home, { recursive: true, force: true });
  }
}

function markdown(report: Awaited<ReturnType<typeof run>>): string {
  const lines = [
    '# Navigation benchmark',
    '',
    `${report.date} · ${report.machine.cpu} × ${report.machine.cores} · ${report.machine.memoryGb} GB · Node ${report.machine.node} · ${report.machine.platform}`,
    '',
    'Round trips are counted on the emulator\'s request log. "Server CPU" is process.cpuUsage() of the',
    'process running the handlers (the emulator runs in a child process); "Local API wait" is wall time',
    "spent waiting for the emulator's answers, i.e. mostly DataScript query time in the emulator.",
    '',
  ];
  for (const size of report.sizes) {
    lines.push(
      `## ${size.blocks.toLocaleString('en')} blocks (${size.graph.pages} pages)`,
      '',
      `Cold call (freshness check + index build): **${size.cold.roundTrips} round trips**, ${(size.cold.bytes / 1024).toFixed(0)} KiB, ` +
        `server CPU ${size.cold.serverCpuMs} ms, Local API wait ${size.cold.localApiWaitMs} ms, wall ${size.cold.wallMs} ms.  `,
      `After an edit by another client: ${size.afterEdit.roundTrips} round trips, server CPU ${size.afterEdit.serverCpuMs} ms.  `,
      `Warm calls: at most **${size.warmMaxRoundTrips} round trips**, median server CPU over tools **${size.warmMedianServerCpuMs} ms**.`,
      '',
      '| warm call | round trips | bytes | server CPU ms (median) | Local API wait ms | wall ms |',
      '|---|---|---|---|---|---|',
      ...size.warm.map(
        (w) =>
          `| \`${w.tool.replace(/\|/g, '\\|')}\` | ${w.roundTrips} | ${w.bytes} | ${w.medianServerCpuMs} | ${w.medianLocalApiWaitMs} | ${w.medianWallMs} |`,
      ),
      '',
      `End to end over stdio (dist/roam-mcp.mjs): first call ${size.stdio.cold.wallMs} ms / ${size.stdio.cold.roundTrips} round trips; warm:`,
      '',
      '| call | round trips | wall ms (median) |',
      '|---|---|---|',
      ...size.stdio.warm.map(
        (w) => `| \`${w.tool.replace(/\|/g, '\\|')}\` | ${w.roundTrips} | ${w.wallMs} |`,
      ),
      '',
    );
  }
  return lines.join('\n');
}

async function run(sizes: number[]) {
  const results = [];
  for (const blocks of sizes) results.push(await benchSize(blocks));
  return {
    date: new Date().toISOString(),
    machine: {
      cpu: os.cpus()[0]?.model ?? 'unknown',
      cores: os.cpus().length,
      memoryGb: Math.round(os.totalmem() / 2 ** 30),
      node: process.versions.node,
      platform: `${os.platform()} ${os.release()}`,
      loadAverage: os.loadavg().map((l) => round(l, 2)),
    },
    sizes: results,
  };
}

const { values } = parseArgs({ options: { sizes: { type: 'string', default: '1000,10000,100000' } } });
const report = await run(values.sizes.split(',').map(Number));
const out = path.join(ROOT, 'bench/results');
await mkdir(out, { recursive: true });
await writeFile(path.join(out, 'navigation.json'), `${JSON.stringify(report, null, 2)}\n`);
await writeFile(path.join(out, 'navigation.md'), `${markdown(report)}\n`);
process.stderr.write(`wrote ${path.join(out, 'navigation.json')} and navigation.md\n`);
