/**
 * Per-call overhead of one read tool, in detail: a call through roam-mcp over stdio against the
 * same Local API requests sent directly, two ways:
 * - in-process: replayed from this process, which also hosts the emulator (what bench/run-all.ts
 *   subtracts: no process hop at all);
 * - through a relay: replayed by a minimal child process that reads one line on stdin, sends the
 *   requests over HTTP with a kept-alive agent and writes one line back (the same process hops as
 *   a tool call: client → child over a pipe → emulator over TCP → child → client).
 * The second difference is what roam-mcp itself adds: the SDK's JSON-RPC and schema work, our
 * call path, the JSON of the answer.
 *
 * Run: node scripts/build.mjs mcp && node --import tsx bench/call-overhead.ts [--tool get_neighbors]
 *      [--rounds 200] [--cpu-prof DIR] (the bin then writes a V8 CPU profile into DIR at exit)
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startEmulator } from '../test/emulator/index.ts';
import { replayDirect, startRelay } from './direct-replay.ts';
import { pagesByReferences } from './referenced-pages.ts';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const BIN = path.join(root, 'dist/roam-mcp.mjs');
const TOKEN = 'roam-graph-local-token-BENCHbenchBENCHbenchBENCHbe';
const GRAPH = 'bench';

const { values: flags } = parseArgs({
  options: {
    tool: { type: 'string', default: 'get_neighbors' },
    rounds: { type: 'string', default: '200' },
    'cpu-prof': { type: 'string' },
    /** A node option for the bin, e.g. --node-arg=--max-semi-space-size=16 (repeatable). */
    'node-arg': { type: 'string', multiple: true, default: [] },
  },
});
const ROUNDS = Number(flags.rounds);

const quantile = (values: number[], q: number) => {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] as number;
};
const r2 = (n: number) => Math.round(n * 100) / 100;

/** utime + stime of a process in ms (Linux /proc, 10 ms ticks). */
async function cpuMs(pid: number | null | undefined): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

const home = await mkdtemp(path.join(os.tmpdir(), 'roam-overhead-'));
const emulator = await startEmulator({
  home,
  port: 0,
  semanticSearch: true,
  graphs: [{ name: GRAPH, content: 'demo', tokens: [{ token: TOKEN, accessLevel: 'full' }] }],
});
await writeFile(
  path.join(home, '.roam-tools.json'),
  JSON.stringify({ version: 1, graphs: [{ name: GRAPH, type: 'hosted', token: TOKEN }] }),
  { mode: 0o600 },
);
const nodeArgs = flags['cpu-prof']
  ? ['--cpu-prof', `--cpu-prof-dir=${flags['cpu-prof']}`, '--cpu-prof-interval=50']
  : [];
nodeArgs.push(...(flags['node-arg'] ?? []));
const transport = new StdioClientTransport({
  command: process.execPath,
  args: [...nodeArgs, BIN],
  env: { PATH: process.env.PATH ?? '', HOME: home, ROAM_MCP_NO_LAUNCH: '1', ROAM_MCP_TOOLS: 'all' },
  stderr: 'ignore',
});
const client = new Client({ name: 'bench', version: '1' });
await client.connect(transport);
const relay = startRelay(TOKEN);
try {
  await client.callTool({ name: 'select_graph', arguments: { graph: GRAPH } });
  const { tools } = await client.listTools();
  const tool = tools.find((t) => t.name === flags.tool);
  if (!tool) throw new Error(`no tool ${flags.tool}`);
  const hub = pagesByReferences(emulator, GRAPH)[0] ?? 'Project Apollo';
  const args: Record<string, unknown> = { title: hub };
  const limit = (tool.inputSchema.properties as Record<string, { maximum?: number }> | undefined)?.limit;
  if (limit?.maximum !== undefined) args.limit = limit.maximum;
  const call = () => client.callTool({ name: tool.name, arguments: args });
  for (let i = 0; i < 20; i++) await call();
  emulator.clearRequests();
  await call();
  const wire = emulator.requests.filter((r) => r.graph === GRAPH);
  const viaRelay = () => relay.replay(emulator.port, wire);
  const inProcess = async () => {
    for (const r of wire) await replayDirect(emulator.port, r, TOKEN);
  };
  for (let i = 0; i < 20; i++) {
    await viaRelay();
    await inProcess();
  }
  const timed = async (fn: () => Promise<unknown>) => {
    const t = performance.now();
    await fn();
    return performance.now() - t;
  };
  const mcp: number[] = [];
  const direct: number[] = [];
  const relayed: number[] = [];
  const overDirect: number[] = [];
  const overRelay: number[] = [];
  const binCpuBefore = await cpuMs(transport.pid);
  const relayCpuBefore = await cpuMs(relay.pid);
  for (let i = 0; i < ROUNDS; i++) {
    const m = await timed(call);
    const d = await timed(inProcess);
    const r = await timed(viaRelay);
    mcp.push(m);
    direct.push(d);
    relayed.push(r);
    overDirect.push(m - d);
    overRelay.push(m - r);
  }
  const binCpuPerCall = ((await cpuMs(transport.pid)) - binCpuBefore) / ROUNDS;
  const relayCpuPerCall = ((await cpuMs(relay.pid)) - relayCpuBefore) / ROUNDS;
  const out = {
    cpuPerCallMs: { roamMcp: r2(binCpuPerCall), relay: r2(relayCpuPerCall) },
    tool: tool.name,
    localApiRequests: wire.length,
    rounds: ROUNDS,
    loadAverage: os.loadavg().map((n) => r2(n)),
    medianMs: {
      viaMcp: r2(quantile(mcp, 0.5)),
      directInProcess: r2(quantile(direct, 0.5)),
      directThroughRelay: r2(quantile(relayed, 0.5)),
      overheadOverInProcess: r2(quantile(overDirect, 0.5)),
      overheadOverRelay: r2(quantile(overRelay, 0.5)),
    },
  };
  console.log(JSON.stringify(out, null, 2));
} finally {
  relay.close();
  await client.close();
  await emulator.close();
  await rm(home, { recursive: true, force: true });
}
