/**
 * A writer killed at random points never leaves a torn or empty file: a child process rewrites
 * one file with src-shared/node/atomic-write.ts in a loop and is SIGKILLed after a random delay;
 * the file must then parse and be complete, with mode 0600. 50 kills by default, 1,000 with
 * ROAM_LONG_TESTS=1.
 */
import fc from 'fast-check';
import { spawn } from 'node:child_process';
import { readFile, readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureScript } from '../harness/fixture-bundles.ts';
import { scratchHome } from '../harness/mcp-bin.ts';

const LONG = process.env.ROAM_LONG_TESTS === '1';
const KILLS = LONG ? 1000 : 50;

let dir: { home: string; cleanup(): Promise<void> };
let writer: string;

beforeAll(async () => {
  dir = await scratchHome('roam-atomic-');
  // Bundled once per run by the test setup, so each of the many children starts in plain node quickly.
  writer = fixtureScript('atomic-writer');
});

afterAll(async () => {
  await dir?.cleanup();
});

/** Starts the writer, waits for its first write, kills it `delayMs` later. */
function writeAndKill(file: string, delayMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [writer, file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.once('data', () => setTimeout(() => child.kill('SIGKILL'), delayMs));
    child.on('exit', (_code, signal) =>
      signal === 'SIGKILL' ? resolve() : reject(new Error(`writer ended without the kill: ${stderr}`)),
    );
  });
}

describe('atomic writes under SIGKILL', () => {
  it(
    `${KILLS} writers killed at random points never leave a torn, empty or widened file`,
    { timeout: LONG ? 900_000 : 60_000 },
    async () => {
      // Two writers at a time on two files (the machine has two cores; each kill costs a process start).
      const files = ['config-a.json', 'config-b.json'].map((name) => path.join(dir.home, name));
      for (const file of files)
        await writeFile(file, JSON.stringify({ seq: 0, size: 1, pad: 'x' }), { mode: 0o600 });
      let checked = 0;
      const killAndCheck = async (file: string, delayMs: number) => {
        await writeAndKill(file, delayMs);
        const text = await readFile(file, 'utf8');
        expect(text.length).toBeGreaterThan(0);
        const doc = JSON.parse(text) as { seq: number; size: number; pad: string };
        expect(doc.pad.length).toBe(doc.size);
        expect((await stat(file)).mode & 0o777).toBe(0o600);
        checked += 1;
      };
      await fc.assert(
        fc.asyncProperty(
          fc.tuple(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 40 })),
          async (delays) => {
            await Promise.all(files.map((file, i) => killAndCheck(file, delays[i] as number)));
          },
        ),
        { numRuns: KILLS / 2, seed: LONG ? undefined : 5 },
      );
      expect(checked).toBe(KILLS);
      // Temp files a kill left behind are hidden siblings, never the file itself.
      const leftovers = (await readdir(dir.home)).filter((name) => name.endsWith('.tmp'));
      for (const name of leftovers) expect(name).toMatch(/^\.config-[ab]\.json\..*\.tmp$/);
    },
  );
});
