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
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BIN, cpuMs, startBackend, startBin } from './scale-processes.ts';

const log = (message: string) => process.stderr.write(`[index-build] ${message}\n`);

const { values } = parseArgs({
  options: {
    blocks: { type: 'string', default: '1000000' },
    rounds: { type: 'string', default: '5' },
    setup: { type: 'string', multiple: true },
    bin: { type: 'string', multiple: true },
  },
});
const bins = values.bin?.length ? values.bin : [BIN];
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

async function buildOnce(home: string, bin: string, execArgv: string[]) {
  const dataDir = await mkdtemp(path.join(home, 'data-'));
  const mcp = await startBin(home, execArgv, 0, dataDir, bin);
  try {
    const before = await cpuMs(mcp.pid);
    const { wallMs } = await mcp.call('get_hubs', { limit: 50 });
    return { wallMs, cpuMs: (await cpuMs(mcp.pid)) - before };
  } finally {
    await mcp.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

const home = await mkdtemp(path.join(os.tmpdir(), 'index-build-'));
const blocks = Number(values.blocks);
const api = await startBackend(home, blocks, blocks > 100_000 ? 'synthetic' : 'emulator');
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
  await api.close();
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
