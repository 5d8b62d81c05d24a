/**
 * One HTTP server for every chat against a roam-mcp per chat (`node --import tsx bench/http-hub.ts
 * [--blocks 100000] [--soak-calls 500]`, Linux: reads /proc). The emulator (a generated graph) runs
 * in its own process; the built bin serves `serve --http`, driven by v1 SDK clients (2025-11-25
 * sessions) over HTTP, and as stdio processes for the comparison. Measures:
 *
 * - total RSS with N = 1, 5, 20 chats that each made a navigation call: the one HTTP server
 *   against N stdio processes (the kept index on disk shared, as in real use);
 * - the first navigation call of a new chat on a warm server (wall), in both eras;
 * - per-call overhead: the same cheap call over HTTP (both eras) and over stdio: median wall, and
 *   the server's own CPU per call (from /proc: the client's side is not the server's cost);
 * - a soak: 20 chats × N mixed calls. RSS is compared settled: once it has held still for 15 s
 *   after the first round and after the soak (a heap V8 grew for a burst is handed back by its
 *   memory reducer when the burst ends; a leak is not), with the peak along the way beside it.
 *   File descriptors before, after the first round, at the end and once the chats closed.
 *
 * Writes bench/results/http-hub.json and http-hub.md.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import * as v2 from '@modelcontextprotocol/client';
import { execFileSync } from 'node:child_process';
import { forkBenchChild } from './bench-child.ts';

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const BIN = path.join(ROOT, 'dist/roam-mcp.mjs');
const TOKEN = 'roam-graph-local-token-BENCHbenchBENCHbenchBENCHben';
const GRAPH = 'bench';
const NAVIGATION: [string, Record<string, unknown>] = ['get_hubs', {}];
const MIX: Array<[string, Record<string, unknown>]> = [
  ['current_graph', {}],
  NAVIGATION,
  ['list_graphs', {}],
  ['random_page', {}],
];

const { values } = parseArgs({
  // --server-heap-mb N: the server's old space capped, so a leak would end the soak with an out-of-memory crash.
  options: {
    blocks: { type: 'string' },
    'soak-calls': { type: 'string' },
    'server-heap-mb': { type: 'string' },
  },
});
const BLOCKS = Number(values.blocks ?? 100_000);
const SOAK_CALLS = Number(values['soak-calls'] ?? 500);
const PER_CALL_SAMPLES = 500;
/** The server's link index staleness window (its default: docs/navigation.md, "Freshness"). */
const STALENESS_MS = 2000;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round = (x: number) => Math.round(x * 10) / 10;
const mb = (kb: number) => round(kb / 1024);

async function rssKb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}
const fds = async (pid: number) => (await readdir(`/proc/${pid}/fd`)).length;
const TICK_MS = 1000 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));
/** The process's CPU time so far (user + system), in ms. */
async function cpuMs(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

/**
 * RSS once it has held within 1 MB for 15 one-second samples (at most 90 s), and how long that
 * took. 15 s because V8's memory reducer first looks about 8 s after a burst's last GC.
 */
async function settledRss(pid: number): Promise<{ mb: number; afterS: number }> {
  const samples: number[] = [];
  for (let second = 0; second < 90; second++) {
    samples.push(await rssKb(pid));
    const last = samples.slice(-15);
    if (last.length === 15 && Math.max(...last) - Math.min(...last) <= 1024)
      return { mb: mb(last.at(-1)!), afterS: second };
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  return { mb: mb(samples.at(-1)!), afterS: 90 };
}

interface Caller {
  callTool(
    params: { name: string; arguments: Record<string, unknown> },
    schema?: undefined,
    options?: { timeout: number },
  ): Promise<object>;
  close(): Promise<void>;
}
type Mcp = Client & { pid?: number };

async function call(client: Caller, [name, args]: [string, Record<string, unknown>]): Promise<number> {
  const began = performance.now();
  const result: { isError?: boolean; content?: unknown } = await client.callTool(
    { name, arguments: args },
    undefined,
    { timeout: 600_000 },
  );
  if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content).slice(0, 300)}`);
  return performance.now() - began;
}

function run(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0 ? resolve(out.trim()) : reject(new Error(`${args[0]}: ${code}`)),
    );
  });
}

async function startHub(env: NodeJS.ProcessEnv): Promise<{ server: ChildProcess; url: string }> {
  const heap = values['server-heap-mb'] ? [`--max-old-space-size=${values['server-heap-mb']}`] : [];
  const server = spawn(process.execPath, [...heap, BIN, 'serve', '--http', '--port', '0'], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let stderr = '';
    server.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const found = /serving MCP at (\S+)/.exec(stderr);
      if (found?.[1]) resolve(found[1]);
    });
    server.once('exit', (code) => reject(new Error(`serve --http exited ${code}: ${stderr}`)));
  });
  return { server, url };
}

async function httpChat(url: string, key: string): Promise<Client> {
  const client = new Client({ name: 'http-hub-bench', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    }),
  );
  return client;
}

/** A 2026-07-28 chat: the v2 client, naming its chat with its own Mcp-Session-Id. */
async function modernChat(url: string, key: string, chatId: string): Promise<Caller> {
  const client = new v2.Client(
    { name: 'http-hub-bench', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(
    new v2.StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { Authorization: `Bearer ${key}`, 'Mcp-Session-Id': chatId } },
    }),
  );
  if (client.getProtocolEra() !== 'modern') throw new Error('the v2 client did not negotiate 2026-07-28');
  return client as unknown as Caller;
}

async function stdioChat(env: NodeJS.ProcessEnv): Promise<Mcp> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN],
    env: { ...env, ROAM_GRAPH: GRAPH, ROAM_API_TOKEN: TOKEN } as Record<string, string>,
    stderr: 'ignore',
  });
  const client: Mcp = new Client({ name: 'http-hub-bench', version: '1.0.0' });
  await client.connect(transport);
  client.pid = transport.pid ?? undefined;
  return client;
}

async function main() {
  const home = await mkdtemp(path.join(os.tmpdir(), 'http-hub-bench-'));
  const { child, next } = forkBenchChild<{ type: string; loadMs?: number }>(
    'bench/navigation-emulator-child.ts',
    6144,
  );
  const ready = next('ready');
  child.send({ home, graph: GRAPH, blocks: BLOCKS, token: TOKEN });
  const started = await ready;
  process.stderr.write(`${BLOCKS} blocks: emulator loaded in ${Math.round(started.loadMs!)} ms\n`);
  const env: NodeJS.ProcessEnv = {
    HOME: home,
    PATH: process.env.PATH ?? '',
    ROAM_MCP_NO_LAUNCH: '1',
    ROAM_MCP_TOOLS: 'all',
    ROAM_COMPANION_DATA_DIR: path.join(home, 'data'),
    ROAM_MCP_HTTP_MAX_CHATS: '200',
    ROAM_MCP_HTTP_MAX_CHATS_PER_KEY: '200',
    ROAM_MCP_HTTP_RATE_PER_MINUTE: '1000000',
  };
  await writeFile(
    path.join(home, '.roam-tools.json'),
    JSON.stringify({ version: 1, graphs: [{ name: GRAPH, type: 'hosted', token: TOKEN, nickname: GRAPH }] }),
    { mode: 0o600 },
  );
  const key = await run(['key', 'create', 'bench'], env);
  const { server, url } = await startHub(env);
  const pid = server.pid!;
  const results: Record<string, unknown> = {
    date: new Date().toISOString(),
    blocks: BLOCKS,
    emulatorLoadMs: Math.round(started.loadMs!),
  };
  try {
    // Warm the server: its first chat builds (or resumes) the link index.
    const warmer = await httpChat(url, key);
    results.firstCallColdServerMs = round(await call(warmer, NAVIGATION));

    // A new chat's first navigation call in each era (a 2025 session opens with initialize, a
    // 2026-07-28 chat with its first request): inside the shared index's staleness window (another
    // chat just called), and past it, when the call pays the freshness check (two Roam queries),
    // as any call does once per window.
    const firstCalls: Record<string, Record<string, { median: number; max: number }>> = {};
    for (const era of ['v1', 'v2'] as const) {
      firstCalls[era] = {};
      for (const when of ['inWindow', 'checkDue'] as const) {
        const samples: number[] = [];
        for (let i = 0; i < 5; i++) {
          const chat = era === 'v1' ? await httpChat(url, key) : await modernChat(url, key, `${when}-${i}`);
          if (when === 'inWindow') await call(warmer, NAVIGATION);
          else await new Promise((resolve) => setTimeout(resolve, STALENESS_MS + 100));
          samples.push(await call(chat, NAVIGATION));
          await chat.close();
        }
        firstCalls[era][when] = { median: round(median(samples)), max: round(Math.max(...samples)) };
      }
    }
    await warmer.close();
    results.newChatFirstNavigationMs = firstCalls;
    process.stderr.write(`new chat, first navigation call: ${JSON.stringify(firstCalls)}\n`);

    const rss: Array<Record<string, number>> = [];
    for (const n of [1, 5, 20]) {
      const chats = await Promise.all(Array.from({ length: n }, () => httpChat(url, key)));
      await Promise.all(chats.map((chat) => call(chat, NAVIGATION)));
      const hubMb = mb(await rssKb(pid));
      await Promise.all(chats.map((chat) => chat.close()));
      const stdio: Mcp[] = [];
      for (let i = 0; i < n; i++) stdio.push(await stdioChat(env));
      // One by one: the first keeps its index on disk, the rest resume it (as chats do in use).
      for (const chat of stdio) await call(chat, NAVIGATION);
      let stdioKb = 0;
      for (const chat of stdio) stdioKb += await rssKb(chat.pid!);
      await Promise.all(stdio.map((chat) => chat.close()));
      rss.push({ chats: n, httpServerMb: hubMb, stdioProcessesMb: mb(stdioKb) });
      process.stderr.write(`RSS ${JSON.stringify(rss.at(-1))}\n`);
    }
    results.rss = rss;

    const overhead: Record<string, { wallMedianMs: number; serverCpuMsPerCall: number }> = {};
    const cheap: [string, Record<string, unknown>] = ['current_graph', {}];
    for (const [label, open] of [
      ['httpV1', () => httpChat(url, key)],
      ['httpV2', () => modernChat(url, key, 'overhead')],
      ['stdio', () => stdioChat(env)],
    ] as const) {
      const chat: Caller & { pid?: number } = await open();
      const servedBy = chat.pid ?? pid;
      for (let i = 0; i < 20; i++) await call(chat, cheap);
      const samples = [];
      const cpuBefore = await cpuMs(servedBy);
      for (let i = 0; i < PER_CALL_SAMPLES; i++) samples.push(await call(chat, cheap));
      overhead[label] = {
        wallMedianMs: round(median(samples)),
        serverCpuMsPerCall:
          Math.round((((await cpuMs(servedBy)) - cpuBefore) / PER_CALL_SAMPLES) * 100) / 100,
      };
      await chat.close();
    }
    results.perCallCurrentGraph = overhead;
    process.stderr.write(`per call: ${JSON.stringify(overhead)}\n`);

    const fdsBefore = await fds(pid);
    // Half the chats in each era: 2025 sessions keep a server each, 2026-07-28 requests build one per request.
    const chats = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? modernChat(url, key, `soak-${i}`) : httpChat(url, key))),
    );
    const rounds = Math.ceil(SOAK_CALLS / MIX.length);
    // A soak counts failures instead of stopping at the first, with what each said.
    const failures: Record<string, number> = {};
    const tolerant = (chat: Caller, step: [string, Record<string, unknown>]) =>
      call(chat, step).catch((error: Error) => {
        const said = `${step[0]}: ${error.message.slice(0, 120)}`;
        failures[said] = (failures[said] ?? 0) + 1;
        return 0;
      });
    const roundOf = (chat: Caller) =>
      MIX.reduce((p, step) => p.then(() => tolerant(chat, step)), Promise.resolve(0));
    await Promise.all(chats.map(roundOf));
    const afterFirstRound = mb(await rssKb(pid));
    const fdsDuring = await fds(pid);
    const settledFirst = await settledRss(pid);
    const began = performance.now();
    // RSS every tenth of the soak, to tell a leak (a steady climb) from a heap that grows for the burst.
    const curve: number[] = [];
    const step = Math.max(1, Math.floor(rounds / 10));
    for (let done = 1; done < rounds; done += step) {
      const these = Math.min(step, rounds - done);
      await Promise.all(
        chats.map(async (chat) => {
          for (let r = 0; r < these; r++) await roundOf(chat);
        }),
      );
      curve.push(mb(await rssKb(pid)));
    }
    const soakMs = performance.now() - began;
    const atEnd = mb(await rssKb(pid));
    const fdsAtEnd = await fds(pid);
    const settledEnd = await settledRss(pid);
    await Promise.all(chats.map((chat) => chat.close()));
    // Idle keep-alive sockets close after the server's keep-alive timeout (5 s).
    await new Promise((resolve) => setTimeout(resolve, 6000));
    results.soak = {
      chats: 20,
      callsPerChat: rounds * MIX.length,
      seconds: round(soakMs / 1000),
      rssAfterFirstRoundMb: afterFirstRound,
      rssSettledAfterFirstRoundMb: settledFirst.mb,
      rssAtEndMb: atEnd,
      rssPeakMb: Math.max(afterFirstRound, ...curve),
      rssSettledAtEndMb: settledEnd.mb,
      settledAfterS: settledEnd.afterS,
      rssGrowthPercent: round(((settledEnd.mb - settledFirst.mb) / settledFirst.mb) * 100),
      rssCurveMb: curve.join(' → '),
      fdsBefore,
      fdsDuring,
      fdsAtEnd,
      fdsAfterClose: await fds(pid),
      failures:
        Object.entries(failures)
          .map(([said, n]) => `${said} ×${n}`)
          .join(', ') || 'none',
    };
    process.stderr.write(`soak: ${JSON.stringify(results.soak)}\n`);
  } finally {
    server.kill('SIGTERM');
    child.send({ type: 'close' });
    await next('closed');
    await rm(home, { recursive: true, force: true });
  }
  const dir = path.join(ROOT, 'bench/results');
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'http-hub.json'), `${JSON.stringify(results, null, 2)}\n`);
  await writeFile(path.join(dir, 'http-hub.md'), markdown(results));
  process.stdout.write(markdown(results));
}

function markdown(r: Record<string, unknown>): string {
  const rss = r.rss as Array<Record<string, number>>;
  const soak = r.soak as Record<string, number>;
  const first = r.newChatFirstNavigationMs as Record<
    'v1' | 'v2',
    Record<'inWindow' | 'checkDue', { median: number; max: number }>
  >;
  const firsts = (era: 'v1' | 'v2') =>
    `median ${first[era].inWindow.median} ms, max ${first[era].inWindow.max} ms inside the index's staleness window; median ${first[era].checkDue.median} ms, max ${first[era].checkDue.max} ms with the freshness check due`;
  const per = r.perCallCurrentGraph as Record<string, { wallMedianMs: number; serverCpuMsPerCall: number }>;
  const perCall = (label: string) =>
    `${per[label]!.wallMedianMs} ms wall, ${per[label]!.serverCpuMsPerCall} ms server CPU`;
  return [
    `# One HTTP server for every chat (${r.blocks} blocks, ${String(r.date).slice(0, 16)})`,
    '',
    '| chats | HTTP server RSS (MB) | N stdio processes RSS (MB) |',
    '| ----- | -------------------- | -------------------------- |',
    ...rss.map((row) => `| ${row.chats} | ${row.httpServerMb} | ${row.stdioProcessesMb} |`),
    '',
    `- First navigation call (get_hubs) of a new chat on a warm server, 5 each: 2025 session ${firsts('v1')}; 2026-07-28 ${firsts('v2')} (the server's first ever: ${r.firstCallColdServerMs} ms).`,
    `- Per call (current_graph, median of ${PER_CALL_SAMPLES}): HTTP 2025 session ${perCall('httpV1')}; HTTP 2026-07-28 ${perCall('httpV2')}; stdio ${perCall('stdio')}.`,
    `- Soak: ${soak.chats} chats (half per era) × ${soak.callsPerChat} mixed calls in ${soak.seconds} s. RSS settled (still for 15 s): ${soak.rssSettledAfterFirstRoundMb} MB after the first round, ${soak.rssSettledAtEndMb} MB ${soak.settledAfterS} s after the soak (${soak.rssGrowthPercent} %). During the burst: ${soak.rssAfterFirstRoundMb} MB after the first round, then ${soak.rssCurveMb}, peak ${soak.rssPeakMb} MB. File descriptors ${soak.fdsBefore} before, ${soak.fdsDuring} after the first round, ${soak.fdsAtEnd} at the end, ${soak.fdsAfterClose} 6 s after the chats closed. Failed calls: ${soak.failures}.`,
    '',
  ].join('\n');
}

await main();
