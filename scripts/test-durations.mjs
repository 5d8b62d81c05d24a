// `npm run test:durations`: records how long each test file took in this machine's last vitest run
// (vitest's own cache) in test/file-durations.json, which orders a clean clone's run longest first
// (test/sequencer.ts). Run it after a full `npm test` on a quiet machine when files were added or
// got much slower: durations measured while other runs share the cores are inflated.
import { existsSync, readdirSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { vitestCacheDir } from './vitest-cache.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const cacheDir = path.join(vitestCacheDir(root), 'vitest');
const [cacheFile] = (existsSync(cacheDir) ? readdirSync(cacheDir) : [])
  .map((hash) => path.join(cacheDir, hash, 'results.json'))
  .filter(existsSync);
if (!cacheFile) {
  console.error('No vitest results on this machine yet: run `npm test` first.');
  process.exit(1);
}
const { results } = JSON.parse(await readFile(cacheFile, 'utf8'));
// Only files that still exist: the cache keeps moved and deleted ones.
const current = ([key]) =>
  /^[^:]+:test\//.test(key) && existsSync(path.join(root, key.slice(key.indexOf(':') + 1)));
const durations = Object.fromEntries(
  results
    .filter(current)
    .map(([key, { duration }]) => [key, Math.round(duration / 100) / 10])
    .sort(([a], [b]) => (a < b ? -1 : 1)),
);
const out = path.join(root, 'test/file-durations.json');
await writeFile(out, `${JSON.stringify(durations, null, 2)}\n`);
const [, , load15] = os.loadavg();
console.log(
  `${Object.keys(durations).length} files → ${path.relative(root, out)} (load average over the last 15 minutes: ${load15.toFixed(1)} on ${os.cpus().length} cores)`,
);
if (load15 > os.cpus().length * 2)
  console.warn(
    'The machine was busy: these durations are inflated by other work. Record them after a run on a quiet machine.',
  );
