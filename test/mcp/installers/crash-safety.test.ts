import { spawn } from 'node:child_process';
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKUP_SUFFIX, install, uninstall } from '../../../src-mcp/installers/installer.ts';
import { CLAUDE_DESKTOP_CONFIG, makeTempHome, readText, writeConfig, type TempHome } from './helpers.ts';
import { tempDir } from '../../harness/temp-dir.ts';

const ITERATIONS = process.env.ROAM_LONG_TESTS === '1' ? 1000 : 30;

// Lanes run side by side, each on its own home, because a Node start costs ~0.1-0.3 s.
const LANES = 3;

let writer: string;
let buildDir: string;
const homes: TempHome[] = [];

beforeAll(async () => {
  // Bundled so each child starts fast (tsx would add ~0.5 s per spawn).
  buildDir = await tempDir('roam-crash-writer-');
  writer = path.join(buildDir, 'crash-writer.mjs');
  await build({
    entryPoints: [fileURLToPath(new URL('./fixtures/crash-writer.ts', import.meta.url))],
    outfile: writer,
    bundle: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'silent',
  });
});
afterAll(async () => {
  await Promise.all(homes.map((home) => home.cleanup()));
  await rm(buildDir, { recursive: true, force: true });
});

/** Starts the writer, waits until it is looping, lets it run `delayMs`, then SIGKILLs it. */
function killWriterAfter(t: TempHome, delayMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [writer, t.home, t.launcher.command, t.launcher.args[0]!], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout.once('data', () => setTimeout(() => child.kill('SIGKILL'), delayMs));
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      signal === 'SIGKILL' ? resolve() : reject(new Error(`writer exited by itself (${code})`)),
    );
  });
}

/** Kills a writer `kills` times on one home; returns the config texts seen after each kill. */
async function lane(kills: number): Promise<Set<string>> {
  const t = await makeTempHome();
  homes.push(t);
  const dir = path.join(t.home, '.cursor');
  const file = path.join(dir, 'mcp.json');
  await writeConfig(file, CLAUDE_DESKTOP_CONFIG);
  const opts = { home: t.home, launcher: t.launcher, platform: 'linux' as const, env: {} };
  await install('cursor', opts);
  const installed = await readText(file);
  await uninstall('cursor', opts);
  const uninstalled = await readText(file);
  expect(uninstalled).toBe(CLAUDE_DESKTOP_CONFIG);
  const valid = new Set([installed, uninstalled]);

  const seen = new Set<string>();
  for (let i = 0; i < kills; i++) {
    await killWriterAfter(t, Math.random() * 20);
    const text = await readText(file);
    expect(valid.has(text), `kill ${i}: torn config:\n${text}`).toBe(true);
    expect(valid.has(await readText(file + BACKUP_SUFFIX)), `kill ${i}: torn backup`).toBe(true);
    seen.add(text === installed ? 'installed' : 'uninstalled');
  }
  // Interrupted writes may leave our temp files behind, never anything else.
  const others = (await readdir(dir)).filter(
    (name) => name !== 'mcp.json' && name !== 'mcp.json' + BACKUP_SUFFIX,
  );
  expect(
    others.every((name) => /^\.mcp\.json(\.roam-companion-backup)?\.\d+\.[0-9a-f]+\.tmp$/.test(name)),
  ).toBe(true);
  return seen;
}

describe('crash safety', () => {
  it(`a writer killed at random points never leaves a torn file (${ITERATIONS} kills)`, async () => {
    const seen = await Promise.all(Array.from({ length: LANES }, () => lane(Math.ceil(ITERATIONS / LANES))));
    // Kills landed in both states, so interrupted installs and uninstalls were both exercised.
    expect(new Set(seen.flatMap((states) => [...states])).size).toBe(2);
  }, 3_600_000);
});
