/**
 * The test fixtures that run as processes of their own (the `--mcp` launcher minus Electron, the
 * store and journal writers, the environment scrub, the atomic writer and the lock holder that
 * reliability tests kill), bundled by test/global-setup.ts once per run
 * with esbuild, as scripts/build.mjs bundles the app, and started with plain `node`: starting them
 * through `--import tsx` compiled their sources again in every process (about 0.9 s of CPU each,
 * for dozens of launcher starts a run). The same code runs either way.
 */
import { createHash } from 'node:crypto';
import { build } from 'esbuild';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// One folder per checkout: git worktrees that share one node_modules must not run each other's code.
const OUT_DIR = path.join(
  ROOT,
  'node_modules/.cache/roam-test-fixtures',
  createHash('sha256').update(ROOT).digest('hex').slice(0, 12),
);
const ENTRIES = {
  'launcher-entry': 'test/main/fixtures/launcher-entry.ts',
  'store-writer': 'test/main/fixtures/store-writer.ts',
  'scrub-then-spawn': 'test/main/fixtures/scrub-then-spawn.ts',
  'journal-writer': 'test/mcp/changes/fixtures/journal-writer.ts',
  'atomic-writer': 'test/reliability/fixtures/atomic-writer.ts',
  'lock-holder': 'test/reliability/fixtures/lock-holder.ts',
} as const;

export type FixtureName = keyof typeof ENTRIES;

/** The bundled script of fixture `name`: run it as `node <path> …arguments`. */
export function fixtureScript(name: FixtureName): string {
  return path.join(OUT_DIR, `${name}.mjs`);
}

/** Bundles every fixture; each file is written through a rename, so a reader sees a whole one. */
export async function buildFixtureScripts(): Promise<void> {
  await mkdir(OUT_DIR, { recursive: true });
  const result = await build({
    entryPoints: Object.fromEntries(
      Object.entries(ENTRIES).map(([name, entry]) => [name, path.join(ROOT, entry)]),
    ),
    outdir: OUT_DIR,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    logLevel: 'warning',
    // CommonJS dependencies inside an ESM bundle need a real `require` (as scripts/build.mjs).
    banner: {
      js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
    },
  });
  for (const file of result.outputFiles) {
    const temp = `${file.path}.${process.pid}.tmp`;
    await writeFile(temp, file.contents);
    await rename(temp, file.path);
  }
}
