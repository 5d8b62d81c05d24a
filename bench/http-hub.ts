/**
 * One HTTP server for every chat against a roam-mcp per chat (`node --import tsx bench/http-hub.ts
 * [--blocks 100000] [--soak-calls 500]`, Linux: reads /proc). The emulator (a generated graph) runs
 * in its own process; the built bin serves `serve --http`, driven by v1 SDK clients (2025-11-25
 * sessions) over HTTP, and as stdio processes for the comparison. Measures:
 *
 * - total RSS with N = 1, 5, 20 chats that each made a navigation call: the one HTTP server
 *   against N stdio processes (the kept index on disk shared, as in real use);
 * - the first navigation call of a new chat on a warm server (wall);
 * - per-call overhead: the same cheap call over HTTP and over stdio (median wall);
 * - a soak: 20 chats × N mixed calls, RSS after the first round and at the end, file descriptors
 *   before, after and once the chats closed.
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

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round = (x: number) => Math.round(x * 10) / 10;
const mb = (kb: number) => round(kb / 1024);

async function rssKb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}
const fds = async (pid: number) => (await readdir(`/proc/${pid}/fd`)).length;

type Mcp = Client & { pid?: number };

async function call(client: Client, [name, args]: [string, Record<string, unknown>]): Promise<number> {
  const began = performance.now();
  const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 600_000 });
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
  const results: Record<string, unknown> = { blocks: BLOCKS, emulatorLoadMs: Math.round(started.loadMs!) };
  try {
    // Warm the server: its first chat builds (or resumes) the link index.
    const warmer = await httpChat(url, key);
    results.firstCallColdServerMs = round(await call(warmer, NAVIGATION));
    await warmer.close();

    const firstCalls: number[] = [];
    for (let i = 0; i < 5; i++) {
      const chat = await httpChat(url, key);
      firstCalls.push(await call(chat, NAVIGATION));
      await chat.close();
    }
    results.newChatFirstNavigationMs = {
      median: round(median(firstCalls)),
      max: round(Math.max(...firstCalls)),
    };
    process.stderr.write(
      `new chat, first navigation call: ${JSON.stringify(results.newChatFirstNavigationMs)}\n`,
    );

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

    const overhead: Record<string, number> = {};
    const cheap: [string, Record<string, unknown>] = ['current_graph', {}];
    for (const [label, open] of [
      ['http', () => httpChat(url, key)],
      ['stdio', () => stdioChat(env)],
    ] as const) {
      const chat = await open();
      for (let i = 0; i < 20; i++) await call(chat, cheap);
      const samples = [];
      for (let i = 0; i < 200; i++) samples.push(await call(chat, cheap));
      overhead[`${label}MedianMs`] = round(median(samples));
      await chat.close();
    }
    results.perCallCurrentGraph = overhead;
    process.stderr.write(`per call: ${JSON.stringify(overhead)}\n`);

    const fdsBefore = await fds(pid);
    const chats = await Promise.all(Array.from({ length: 20 }, () => httpChat(url, key)));
    const rounds = Math.ceil(SOAK_CALLS / MIX.length);
    // A soak counts failures instead of stopping at the first (the emulator may drop a connection under load).
    const failures: Record<string, number> = {};
    const tolerant = (chat: Client, step: [string, Record<string, unknown>]) =>
      call(chat, step).catch((error: Error) => {
        const code = /([A-Z]{3,}_[A-Z_]+)/.exec(error.message)?.[1] ?? error.message.slice(0, 40);
        failures[code] = (failures[code] ?? 0) + 1;
        return 0;
      });
    const roundOf = (chat: Client) =>
      MIX.reduce((p, step) => p.then(() => tolerant(chat, step)), Promise.resolve(0));
    await Promise.all(chats.map(roundOf));
    const afterFirst = await rssKb(pid);
    const fdsDuring = await fds(pid);
    const began = performance.now();
    // RSS every tenth of the soak, to tell a leak (a steady climb) from a heap that settles.
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
    const atEnd = await rssKb(pid);
    const fdsAtEnd = await fds(pid);
    await Promise.all(chats.map((chat) => chat.close()));
    // Idle keep-alive sockets close after the server's keep-alive timeout (5 s).
    await new Promise((resolve) => setTimeout(resolve, 6000));
    results.soak = {
      chats: 20,
      callsPerChat: rounds * MIX.length,
      seconds: round(soakMs / 1000),
      rssAfterFirstRoundMb: mb(afterFirst),
      rssAtEndMb: mb(atEnd),
      rssGrowthPercent: round(((atEnd - afterFirst) / afterFirst) * 100),
      rssCurveMb: curve.join(' → '),
      fdsBefore,
      fdsDuring,
      fdsAtEnd,
      fdsAfterClose: await fds(pid),
      failures:
        Object.entries(failures)
          .map(([code, n]) => `${code} ×${n}`)
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
  const first = r.newChatFirstNavigationMs as Record<string, number>;
  const per = r.perCallCurrentGraph as Record<string, number>;
  return [
    `# One HTTP server for every chat (${r.blocks} blocks)`,
    '',
    '| chats | HTTP server RSS (MB) | N stdio processes RSS (MB) |',
    '| ----- | -------------------- | -------------------------- |',
    ...rss.map((row) => `| ${row.chats} | ${row.httpServerMb} | ${row.stdioProcessesMb} |`),
    '',
    `- First navigation call (get_hubs) of a new chat on a warm server: median ${first.median} ms, max ${first.max} ms (the server's first ever: ${r.firstCallColdServerMs} ms).`,
    `- Per call (current_graph, median of 200): HTTP ${per.httpMedianMs} ms, stdio ${per.stdioMedianMs} ms.`,
    `- Soak: ${soak.chats} chats × ${soak.callsPerChat} mixed calls in ${soak.seconds} s; RSS ${soak.rssAfterFirstRoundMb} MB after the first round, ${soak.rssAtEndMb} MB at the end (${soak.rssGrowthPercent} %; along the way: ${soak.rssCurveMb}); file descriptors ${soak.fdsBefore} before, ${soak.fdsDuring} after the first round, ${soak.fdsAtEnd} at the end, ${soak.fdsAfterClose} 6 s after the chats closed; failed calls: ${soak.failures}.`,
    '',
  ].join('\n');
}

await main();
