/**
 * The index build alone, at scale, interleaved: one synthetic Local API (test/scale, answers from
 * memory) and, round after round, a new bin per node set-up whose first navigation call builds
 * the link index. Reports the first call's wall time and the bin's CPU (utime + stime from /proc,
 * 10 ms ticks) per set-up: median, min, max.
 *
 * Run: node scripts/build.mjs mcp && node --import tsx bench/index-build.ts [--blocks 1000000]
 *      [--rounds 5] [--setup name=flag,flag ...] [--bin path/to/roam-mcp.mjs]
 * Set-ups by default: node's defaults (the server sets V8's young-generation growth itself), V8's
 * default growth throughout (`--semi-space-growth-factor=2`: the server then leaves V8 alone),
 * and 1 MB semi-spaces throughout (`--max-semi-space-size=1`, the tray's child).
 */
import { fork } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const TOKEN = 'roam-graph-local-token-SCALEbenchSCALEbenchSCALEbe';
const GRAPH = 'scale';
const log = (message: string) => process.stderr.write(`[index-build] ${message}\n`);

const { values } = parseArgs({
  options: {
    blocks: { type: 'string', default: '1000000' },
    rounds: { type: 'string', default: '5' },
    setup: { type: 'string', multiple: true },
    bin: { type: 'string', multiple: true },
  },
});
const bins = values.bin?.length ? values.bin : [path.join(ROOT, 'dist/roam-mcp.mjs')];
const setups: Array<[string, string[]]> = values.setup?.length
  ? values.setup.map((s) => {
      const at = s.indexOf('=');
      const [name, flags] = at === -1 ? [s, ''] : [s.slice(0, at), s.slice(at + 1)];
      return [name, flags ? flags.split(',').map((f) => (f.startsWith('--') ? f : `--${f}`)) : []];
    })
  : [
      ['default', []],
      ['growth-2', ['--semi-space-growth-factor=2']],
      ['semi-1', ['--max-semi-space-size=1']],
    ];

async function cpuMs(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

async function startBackend(home: string, blocks: number) {
  const child = fork(path.join(ROOT, 'bench/navigation-scale-child.ts'), [], {
    execArgv: ['--import', 'tsx', '--max-old-space-size=8192'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = new Promise<void>((resolve) =>
    child.on('message', (m: { type: string }) => m.type === 'ready' && resolve()),
  );
  child.send({
    home,
    graph: GRAPH,
    blocks,
    token: TOKEN,
    backend: blocks > 100_000 ? 'synthetic' : 'emulator',
  });
  await ready;
  return { close: () => child.kill() };
}

async function buildOnce(home: string, bin: string, execArgv: string[]) {
  const dataDir = await mkdtemp(path.join(home, 'data-'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...execArgv, bin],
    env: {
      HOME: home,
      PATH: process.env.PATH ?? '',
      ROAM_MCP_NO_LAUNCH: '1',
      ROAM_MCP_TOOLS: 'all',
      ROAM_GRAPH: GRAPH,
      ROAM_API_TOKEN: TOKEN,
      ROAM_MCP_INDEX_STALENESS_MS: '0',
      ROAM_COMPANION_DATA_DIR: dataDir,
    },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'index-build', version: '1' });
  await client.connect(transport);
  try {
    const pid = transport.pid!;
    const before = await cpuMs(pid);
    const began = performance.now();
    const result = await client.callTool({ name: 'get_hubs', arguments: { limit: 50 } }, undefined, {
      timeout: 600_000,
    });
    const wallMs = performance.now() - began;
    if (result.isError) throw new Error(JSON.stringify(result.content).slice(0, 300));
    return { wallMs, cpuMs: (await cpuMs(pid)) - before };
  } finally {
    await client.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

const home = await mkdtemp(path.join(os.tmpdir(), 'index-build-'));
const api = await startBackend(home, Number(values.blocks));
const samples = new Map<string, Array<{ wallMs: number; cpuMs: number }>>();
try {
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const bin of bins)
      for (const [name, flags] of setups) {
        const key = bins.length > 1 ? `${path.basename(path.dirname(path.dirname(bin)))} ${name}` : name;
        const s = await buildOnce(home, bin, flags);
        samples.set(key, [...(samples.get(key) ?? []), s]);
        log(
          `round ${round + 1} ${key}: wall ${Math.round(s.wallMs)} ms, cpu ${s.cpuMs} ms (load ${os.loadavg()[0]!.toFixed(1)})`,
        );
      }
  }
} finally {
  api.close();
  await rm(home, { recursive: true, force: true });
}
const stats = (v: number[]) => {
  const s = [...v].sort((a, b) => a - b);
  return { median: Math.round(s[s.length >> 1]!), min: Math.round(s[0]!), max: Math.round(s[s.length - 1]!) };
};
for (const [key, list] of samples)
  console.log(
    JSON.stringify({
      setup: key,
      wallMs: stats(list.map((s) => s.wallMs)),
      cpuMs: stats(list.map((s) => s.cpuMs)),
    }),
  );
console.log(JSON.stringify({ loadAverageAtEnd: os.loadavg().map((n) => Math.round(n * 10) / 10) }));
