/**
 * What remote access costs a call (issue 50, docs/remote.md): `list_graphs` and `get_page` from a
 * real SDK client, median and p90 of N, over three paths to one `roam-mcp serve --http
 * --public-url` against the emulator:
 * - the local listener with a key (how a chat on this computer calls);
 * - the remote listener with an OAuth access token, directly (what the tunnel reaches);
 * - the remote listener through caddy's TLS on loopback, the tunnel's stand-in.
 * The calls of the three interleave, so the machine's load falls on all alike. Needs `caddy`
 * (Debian's package) and the built bin.
 *
 * Alone: node --import tsx bench/remote-call.ts [--rounds 40] (writes bench/results/remote-call.{json,md});
 * `npm run bench` runs it with the other benchmarks.
 */
import { writeFile, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { signIn } from '../test/mcp/remote/oauth-steps.ts';
import { hasCaddy, startRemoteWorld } from '../test/mcp/remote/remote-world.ts';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const RESULTS = path.join(root, 'bench/results');
const { values } = parseArgs({ options: { rounds: { type: 'string', default: '40' } } });
const ROUNDS = Number(values.rounds);
const WARMUP = 10;

const round = (n: number) => Math.round(n * 100) / 100;
const sorted = (v: number[]) => [...v].sort((a, b) => a - b);
const median = (v: number[]) => sorted(v)[Math.floor(v.length / 2)] ?? NaN;
const p90 = (v: number[]) => sorted(v)[Math.floor(v.length * 0.9)] ?? NaN;
const log = (m: string) => process.stderr.write(`[remote-call bench] ${m}\n`);

type Call = (name: string, args: Record<string, unknown>) => Promise<unknown>;

async function client(url: string, bearer: string, fetcher: typeof fetch) {
  const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    fetch: fetcher,
    requestInit: { headers: { Authorization: `Bearer ${bearer}` } },
  });
  const c = new Client(
    { name: 'remote-call-bench', version: '1' },
    { versionNegotiation: { mode: 'legacy' } },
  );
  await c.connect(transport);
  const call: Call = async (name, args) => {
    const result = await c.callTool({ name, arguments: args });
    if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content).slice(0, 200)}`);
    return result;
  };
  return { call, close: () => c.close() };
}

async function main(): Promise<void> {
  if (!hasCaddy) {
    log('caddy is not installed (apt-get install caddy): nothing measured');
    return;
  }
  const world = await startRemoteWorld();
  try {
    const signed = await signIn(world, world.fetch, world.publicUrl);
    const token = signed.tokens.access_token!;
    const paths = {
      'local listener, key': await client(world.served.hub, world.keys['local-client']!, fetch),
      'remote listener, token': await client(`${world.served.remote}/mcp`, token, fetch),
      'remote through caddy TLS': await client(`${world.publicUrl}/mcp`, token, world.fetch),
    };
    const tools: Array<[string, Record<string, unknown>]> = [
      ['list_graphs', {}],
      ['search', { graph: 'Work', query: 'project' }],
    ];
    const times = new Map<string, number[]>();
    for (let i = 0; i < WARMUP + ROUNDS; i++)
      for (const [name, c] of Object.entries(paths))
        for (const [tool, args] of tools) {
          const started = performance.now();
          await c.call(tool, args).catch((error: unknown) => {
            throw new Error(`${name}, ${tool}, round ${i}: ${String(error)}`);
          });
          const ms = performance.now() - started;
          if (i >= WARMUP) times.set(`${name}|${tool}`, [...(times.get(`${name}|${tool}`) ?? []), ms]);
        }
    for (const c of Object.values(paths)) await c.close();
    const rows = [...times].map(([key, v]) => {
      const [route, tool] = key.split('|') as [string, string];
      return { route, tool, medianMs: round(median(v)), p90Ms: round(p90(v)), n: v.length };
    });
    const load = os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
    await mkdir(RESULTS, { recursive: true });
    await writeFile(
      path.join(RESULTS, 'remote-call.json'),
      `${JSON.stringify({ at: new Date().toISOString(), load, rounds: ROUNDS, rows }, null, 2)}\n`,
    );
    const md = [
      `# A remote call's cost (bench/remote-call.ts)`,
      '',
      `${new Date().toISOString().slice(0, 16)}, load ${load}, ${ROUNDS} rounds after ${WARMUP} warm-up, the three paths interleaved.`,
      '',
      '| path | tool | median ms | p90 ms |',
      '|---|---|---|---|',
      ...rows.map((r) => `| ${r.route} | ${r.tool} | ${r.medianMs} | ${r.p90Ms} |`),
      '',
    ].join('\n');
    await writeFile(path.join(RESULTS, 'remote-call.md'), md);
    process.stdout.write(md);
  } finally {
    await world.close();
  }
}

await main();
