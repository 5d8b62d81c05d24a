/**
 * roam-mcp speed, measured (never asserted in tests):
 * - cold start: spawn → `initialize` answered, for dist/roam-mcp.mjs and for a bare node script
 *   that answers initialize by hand (the floor), interleaved, ≥ 20 runs each;
 * - per-call overhead: get_page through roam-mcp (SDK client over stdio) minus the same Local
 *   API call made directly over HTTP to the emulator, interleaved, ≥ 200 calls each.
 * The emulator runs in its own process (dist/emulator.mjs), so both paths cross processes alike.
 * Run: node scripts/build.mjs mcp emulator && node --import tsx bench/mcp-cold-start-and-overhead.ts
 * Writes bench/results/mcp.json and bench/results/mcp.md.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { build } from 'esbuild';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const BIN = path.join(root, 'dist/roam-mcp.mjs');
const BARE = path.join(root, 'bench/mcp-bare-initialize.mjs');
const EMULATOR = path.join(root, 'dist/emulator.mjs');
const COLD_RUNS = Number(process.env.COLD_RUNS ?? 25);
const CALLS = Number(process.env.CALLS ?? 300);

const INITIALIZE = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
})}\n`;

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[index] as number;
}
const round = (ms: number) => Math.round(ms * 1000) / 1000;

/**
 * CPU time (user + system) a process has used so far, from /proc (Linux): unlike wall time it
 * barely depends on what else the machine is doing. Undefined elsewhere.
 */
function cpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, 100 ticks/s
  } catch {
    return undefined;
  }
}

/** Wall time from spawn until the first stdout line (the initialize response), and CPU used by then. */
function coldStart(script: string, env: NodeJS.ProcessEnv): Promise<{ wall: number; cpu?: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [script], { env, stdio: ['pipe', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (!out.includes('\n')) return;
      const wall = performance.now() - started;
      const cpu = cpuMs(child.pid);
      if (!JSON.parse(out.split('\n')[0] as string).result)
        reject(new Error(`bad initialize answer: ${out}`));
      child.kill();
      resolve({ wall, cpu });
    });
    child.on('error', reject);
    child.stdin.write(INITIALIZE);
  });
}

async function main(): Promise<void> {
  const home = await mkdtemp(path.join(os.tmpdir(), 'mcp-bench-'));
  const emulator = spawn(process.execPath, [EMULATOR, '--home', home, '--graph', 'bench:demo'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const started = await new Promise<{ port: number; graphs: Array<{ token: string }> }>((resolve, reject) => {
    let out = '';
    emulator.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0] as string));
    });
    emulator.on('exit', () => reject(new Error('the emulator exited; run node scripts/build.mjs emulator')));
  });
  const TOKEN = started.graphs[0]!.token;
  const emulatorUrl = `http://127.0.0.1:${started.port}`;
  const env = {
    HOME: home,
    PATH: process.env.PATH ?? '',
    ROAM_GRAPH: 'bench',
    ROAM_API_TOKEN: TOKEN,
    ROAM_MCP_NO_LAUNCH: '1',
    ROAM_MCP_TOOLS: 'all',
  };

  // The SDK-only reference, bundled the way scripts/build.mjs bundles the bin.
  const sdkOnly = path.join(home, 'sdk-initialize.mjs');
  await build({
    entryPoints: [path.join(root, 'bench/mcp-sdk-initialize.ts')],
    outfile: sdkOnly,
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

  // Cold start, interleaved so machine noise hits every variant alike.
  const scripts = { bin: BIN, bare: BARE, sdk: sdkOnly };
  const wall: Record<keyof typeof scripts, number[]> = { bin: [], bare: [], sdk: [] };
  const cpu: Record<keyof typeof scripts, number[]> = { bin: [], bare: [], sdk: [] };
  for (const script of Object.values(scripts)) await coldStart(script, env); // fill the OS file cache
  for (let i = 0; i < COLD_RUNS; i++) {
    for (const [name, script] of Object.entries(scripts) as Array<[keyof typeof scripts, string]>) {
      const run = await coldStart(script, env);
      wall[name].push(run.wall);
      if (run.cpu !== undefined) cpu[name].push(run.cpu);
    }
  }
  const bin = wall.bin;
  const bare = wall.bare;
  const median = (values: number[]) => (values.length ? round(quantile(values, 0.5)) : null);

  // Per-call overhead: the same data.ai.getPage through roam-mcp and directly.
  const client = new Client({ name: 'bench', version: '1' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN],
    env,
    stderr: 'ignore',
  });
  await client.connect(transport);
  const agent = new http.Agent({ keepAlive: true });
  const direct = () =>
    new Promise<void>((resolve, reject) => {
      const body = JSON.stringify({
        action: 'data.ai.getPage',
        args: [{ title: 'Project Apollo', maxDepth: null }],
      });
      const req = http.request(
        `${emulatorUrl}/api/bench`,
        {
          method: 'POST',
          agent,
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${TOKEN}`,
            'content-length': Buffer.byteLength(body),
          },
        },
        (res) => {
          res.resume();
          res.on('end', resolve);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const viaMcp = async () => {
    const result = await client.callTool({ name: 'get_page', arguments: { title: 'Project Apollo' } });
    if (result.isError) throw new Error(JSON.stringify(result));
  };
  for (let i = 0; i < 30; i++) {
    await viaMcp();
    await direct();
  }
  const mcpTimes: number[] = [];
  const directTimes: number[] = [];
  const serverCpuBefore = cpuMs(transport.pid ?? undefined);
  for (let i = 0; i < CALLS; i++) {
    let t = performance.now();
    await viaMcp();
    mcpTimes.push(performance.now() - t);
    t = performance.now();
    await direct();
    directTimes.push(performance.now() - t);
  }
  const serverCpuAfter = cpuMs(transport.pid ?? undefined);
  await client.close();
  agent.destroy();
  emulator.kill('SIGTERM');
  await rm(home, { recursive: true, force: true });

  const overhead = mcpTimes.map((t, i) => t - (directTimes[i] as number));
  const results = {
    date: new Date().toISOString(),
    machine: {
      node: process.version,
      platform: `${os.platform()} ${os.release()}`,
      cpus: `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'unknown'}`,
      loadAverage1m: round(os.loadavg()[0] ?? 0),
    },
    coldStart: {
      runs: COLD_RUNS,
      roamMcpMedianMs: round(quantile(bin, 0.5)),
      bareNodeMedianMs: round(quantile(bare, 0.5)),
      ratio: round(quantile(bin, 0.5) / quantile(bare, 0.5)),
      sdkOnlyMedianMs: median(wall.sdk),
      roamMcpCpuMedianMs: median(cpu.bin),
      bareNodeCpuMedianMs: median(cpu.bare),
      sdkOnlyCpuMedianMs: median(cpu.sdk),
      target: 'roam-mcp within 1.5× the bare node floor',
    },
    perCall: {
      calls: CALLS,
      tool: 'get_page {title: "Project Apollo"}',
      viaMcpMedianMs: round(quantile(mcpTimes, 0.5)),
      viaMcpP99Ms: round(quantile(mcpTimes, 0.99)),
      directHttpMedianMs: round(quantile(directTimes, 0.5)),
      directHttpP99Ms: round(quantile(directTimes, 0.99)),
      /** Paired: each MCP call minus the direct call made right after it. */
      overheadMedianMs: round(quantile(overhead, 0.5)),
      overheadP99Ms: round(quantile(overhead, 0.99)),
      /** CPU roam-mcp itself spent per call (parse, validate, route, HTTP, shape the result). */
      serverCpuPerCallMs:
        serverCpuBefore !== undefined && serverCpuAfter !== undefined
          ? round((serverCpuAfter - serverCpuBefore) / CALLS)
          : null,
      target: 'overhead < 1 ms median',
    },
  };
  const out = path.join(root, 'bench/results');
  await writeFile(path.join(out, 'mcp.json'), `${JSON.stringify(results, null, 2)}\n`);
  const md = `# roam-mcp: cold start and per-call overhead

Measured ${results.date} on ${results.machine.cpus}, ${results.machine.platform}, Node ${results.machine.node}
(1-minute load average at the end: ${results.machine.loadAverage1m}). Produced by \`bench/mcp-cold-start-and-overhead.ts\`.

| measure | roam-mcp | reference | result | target |
|---|---|---|---|---|
| cold start, spawn → initialize answered (median of ${COLD_RUNS}) | ${results.coldStart.roamMcpMedianMs} ms | bare node: ${results.coldStart.bareNodeMedianMs} ms | ${results.coldStart.ratio}× | ≤ 1.5× |
| get_page round trip (median of ${CALLS}) | ${results.perCall.viaMcpMedianMs} ms | direct HTTP: ${results.perCall.directHttpMedianMs} ms | +${results.perCall.overheadMedianMs} ms | < 1 ms |
| get_page round trip (p99) | ${results.perCall.viaMcpP99Ms} ms | direct HTTP: ${results.perCall.directHttpP99Ms} ms | +${results.perCall.overheadP99Ms} ms | — |
| cold start of the SDK's Server alone, no tools (median) | ${results.coldStart.sdkOnlyMedianMs} ms | bare node: ${results.coldStart.bareNodeMedianMs} ms | ${results.coldStart.sdkOnlyMedianMs !== null ? round(results.coldStart.sdkOnlyMedianMs / results.coldStart.bareNodeMedianMs) : '?'}× | |
| CPU at the initialize answer (median) | ${results.coldStart.roamMcpCpuMedianMs} ms | bare node: ${results.coldStart.bareNodeCpuMedianMs} ms; SDK alone: ${results.coldStart.sdkOnlyCpuMedianMs} ms | | |
| roam-mcp CPU per get_page call | ${results.perCall.serverCpuPerCallMs} ms | | | |

Overhead is paired: each call through roam-mcp minus the direct call made right after it (median and p99
of those differences). It includes the SDK client's own work (JSON-RPC over stdio both ways), not only the server's.
The machine was shared with other builds and tests while this ran (see the load average): wall times are noisy,
CPU times less so.
`;
  await writeFile(path.join(out, 'mcp.md'), md);
  process.stdout.write(md);
}

await main();
