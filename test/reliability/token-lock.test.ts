/**
 * No token is ever lost to concurrent writers of `~/.roam-tools.json`: in each round a writer is
 * SIGKILLed while holding the lock, then N real roam-mcp bins obtain tokens by exchange with the
 * emulator while `roam-mcp connect` adds a graph (also by exchange) and disables/enables
 * another, all at once and all waiting on the dead holder's lock until it goes stale. Afterwards
 * the file must parse and hold every token. ROAM_LONG_TESTS=1 runs 100 rounds and prints the
 * figures (docs/reliability.md).
 */
import { spawn } from 'node:child_process';
import { readFile, utimes, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STALE_MS } from '../../src-shared/node/file-lock.ts';
import { startEmulator, type Emulator } from '../emulator/index.ts';
import { fixtureScript } from '../harness/fixture-bundles.ts';
import { binCommand, binEnv, errorCode, startMcp, scratchHome, toolsConfigPath } from '../harness/mcp-bin.ts';

const LONG = process.env.ROAM_LONG_TESTS === '1';
const ROUNDS = LONG ? 100 : 2;
const SERVERS = 6;
const SERVER_GRAPHS = Array.from({ length: SERVERS }, (_, i) => `server-${i}`);
const CONNECT_GRAPH = 'by-connect';
const TOGGLED = 'toggled';

let dir: { home: string; cleanup(): Promise<void> };
let holder: string;
let emulator: Emulator;
const configPath = () => toolsConfigPath(dir.home);

beforeAll(async () => {
  dir = await scratchHome('roam-token-lock-');
  // Bundled once per run by the test setup.
  holder = fixtureScript('lock-holder');
  emulator = await startEmulator({
    home: dir.home,
    port: 0,
    graphs: [...SERVER_GRAPHS, CONNECT_GRAPH].map((name) => ({ name, content: 'empty' as const })),
  });
  // Roam's dialog answered at once: the test is about the writes, not the waiting.
  emulator.autoDecide({ kind: 'approve' }, 0);
});

afterAll(async () => {
  await emulator?.close();
  await dir?.cleanup();
});

/** A process that takes the config lock and is SIGKILLed while holding it. */
function leaveStaleLock(file: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [holder, file], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('locked')) child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('exit', (_code, signal) =>
      signal === 'SIGKILL' ? resolve() : reject(new Error('the lock holder exited by itself')),
    );
  });
}

/**
 * Keeps the dead holder's lock fresh until every writer that exchanges for a token (the bins and
 * `connect --graph`) has its answer, so all are queued on it, then ages it past the stale time:
 * they break it at once instead of after STALE_MS of real time (file-lock.test.ts proves the stale
 * time itself). Kept fresh meanwhile so that no writer breaks it earlier and then has its own live
 * lock aged.
 */
async function ageDeadLockOnceAllWait(file: string): Promise<void> {
  const lock = `${file}.lock`;
  const touch = (at: Date) => utimes(lock, at, at);
  let touching = Promise.resolve();
  const refresher = setInterval(() => (touching = touching.then(() => touch(new Date()))), 1_000);
  const answered = () =>
    emulator.requests.filter((r) => r.path === '/api/graphs/tokens/request' && r.status !== undefined).length;
  try {
    await expect.poll(answered, { timeout: 60_000 }).toBeGreaterThanOrEqual(SERVERS + 1);
  } finally {
    clearInterval(refresher);
    await touching;
  }
  await touch(new Date(Date.now() - STALE_MS - 1_000));
}

function connect(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(...binCommand(['connect', ...args]), {
    env: binEnv(dir.home),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })));
}

async function serverObtainsToken(graph: string): Promise<void> {
  const bin = await startMcp({ home: dir.home });
  try {
    const result = await bin.call('select_graph', { graph });
    expect(errorCode(result), bin.stderr()).toBeUndefined();
  } finally {
    await bin.close();
  }
}

interface RoundOutcome {
  torn: boolean;
  lost: number;
}

async function round(): Promise<RoundOutcome> {
  // Some padding widens each writer's read-modify-write window.
  const graphs = [
    ...SERVER_GRAPHS.map((name) => ({ name, type: 'hosted', description: 'd'.repeat(50_000) })),
    { name: TOGGLED, type: 'hosted' },
  ];
  await writeFile(configPath(), JSON.stringify({ version: 1, graphs }, null, 2), { mode: 0o600 });
  await leaveStaleLock(configPath());
  emulator.clearRequests();
  const connects = (async () => {
    const results = await Promise.all([
      connect(['--graph', CONNECT_GRAPH]),
      connect(['--disable', TOGGLED]).then(async (r) => (r.code === 0 ? connect(['--enable', TOGGLED]) : r)),
    ]);
    for (const r of results) expect(r.code, r.stderr).toBe(0);
  })();
  await Promise.all([
    ...SERVER_GRAPHS.map(serverObtainsToken),
    connects,
    ageDeadLockOnceAllWait(configPath()),
  ]);
  let saved: { graphs: Array<{ name: string; token?: string; disabled?: boolean }> };
  try {
    saved = JSON.parse(await readFile(configPath(), 'utf8')) as typeof saved;
  } catch {
    return { torn: true, lost: 0 };
  }
  const expected = [...SERVER_GRAPHS, CONNECT_GRAPH];
  const lost = expected.filter((name) => !saved.graphs.find((g) => g.name === name)?.token).length;
  const toggled = saved.graphs.find((g) => g.name === TOGGLED);
  return { torn: false, lost: lost + (toggled && !toggled.disabled ? 0 : 1) };
}

describe('config lock under concurrent writers', () => {
  it(
    `${SERVERS} bins + connect + a SIGKILLed holder's stale lock: no token lost, no torn file (${ROUNDS} rounds)`,
    { timeout: ROUNDS * 60_000 },
    async () => {
      const started = Date.now();
      let lost = 0;
      let torn = 0;
      for (let i = 0; i < ROUNDS; i++) {
        const outcome = await round();
        lost += outcome.lost;
        torn += outcome.torn ? 1 : 0;
      }
      const seconds = Math.round((Date.now() - started) / 1000);
      console.log(
        `token-lock: ${ROUNDS} rounds, ${SERVERS} servers + 3 connect runs + 1 SIGKILLed holder each: ` +
          `${lost} tokens lost, ${torn} torn files, ${seconds} s`,
      );
      expect({ lost, torn }).toEqual({ lost: 0, torn: 0 });
    },
  );
});
