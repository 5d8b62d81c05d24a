/**
 * Idle RSS, for bench/run-all.ts: a server spawned, `initialize` answered, `tools/list` answered
 * (the bare Node floor answers only `initialize`), then left alone for a moment; its resident set
 * (VmRSS, Linux /proc) is what every open chat costs the machine while nobody calls a tool.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';

const request = (id: number, method: string, params: unknown = {}) =>
  `${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`;
const INITIALIZE = request(1, 'initialize', {
  protocolVersion: '2025-06-18',
  capabilities: {},
  clientInfo: { name: 'bench', version: '1' },
});
const INITIALIZED = `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`;
const SETTLE_MS = 1_000;

async function rssMb(pid: number): Promise<number> {
  const match = /VmRSS:\s+(\d+) kB/.exec(await readFile(`/proc/${pid}/status`, 'utf8'));
  return match ? Math.round((Number(match[1]) / 1024) * 10) / 10 : NaN;
}

/** One run: the RSS in MB once the server has answered and settled. */
function idleRssOnce(command: string[], env: NodeJS.ProcessEnv, listTools: boolean): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command[0]!, command.slice(1), { env, stdio: ['pipe', 'pipe', 'ignore'] });
    let out = '';
    let answers = 0;
    const done = async () => {
      await new Promise((r) => setTimeout(r, SETTLE_MS));
      const mb = await rssMb(child.pid!).catch(() => NaN);
      child.kill();
      resolve(mb);
    };
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const lines = out.split('\n');
      out = lines.pop()!;
      const before = answers;
      answers += lines.filter((l) => l.includes('"id"')).length;
      if (before === 0 && answers >= 1 && listTools)
        child.stdin.write(INITIALIZED + request(2, 'tools/list'));
      else if (answers > before) void done();
    });
    child.on('error', reject);
    child.stdin.on('error', () => undefined);
    child.stdin.write(INITIALIZE);
  });
}

export interface IdleRss {
  name: string;
  runs: number;
  medianMb: number;
}

/** Median of `runs` for each server, interleaved. */
export async function measureIdleRss(
  servers: Array<{ name: string; command: string[]; listTools: boolean }>,
  env: NodeJS.ProcessEnv,
  runs: number,
): Promise<IdleRss[]> {
  const samples = servers.map(() => [] as number[]);
  for (let i = 0; i < runs; i++) {
    for (const [at, server] of servers.entries())
      samples[at]!.push(await idleRssOnce(server.command, env, server.listTools));
  }
  return servers.map((server, at) => {
    const sorted = [...samples[at]!].sort((a, b) => a - b);
    return { name: server.name, runs, medianMb: sorted[sorted.length >> 1]! };
  });
}
