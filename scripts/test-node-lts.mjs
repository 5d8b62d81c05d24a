// `npm run test:node-lts`: the passes of scripts/test-passes.mjs alone (the server on Node 22
// with the v1 client, on Node 24), as projects of one vitest run. `npm test` runs them with the main pass.
// `node scripts/test-node-lts.mjs node22` runs one pass.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PASSES, PASSES_ENV, passOf, requestedPasses } from './test-passes.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
let passes;
try {
  passes = requestedPasses(process.argv.slice(2).join(',') || PASSES.join(','));
} catch (error) {
  console.error(error.message);
  process.exit(2);
}
const runnable = passes.filter((name) => {
  const { skipped } = passOf(name);
  if (skipped) console.log(`Skipping ${name}: ${skipped}.`);
  return !skipped;
});
if (runnable.length === 0) process.exit(0);
const started = performance.now();
const result = spawnSync(
  process.execPath,
  [
    path.join(root, 'node_modules/vitest/vitest.mjs'),
    'run',
    ...runnable.flatMap((name) => ['--project', name]),
  ],
  { cwd: root, stdio: 'inherit', env: { ...process.env, [PASSES_ENV]: runnable.join(',') } },
);
if (result.status !== 0) {
  console.error(`A pass failed (${runnable.join(', ')}).`);
  process.exit(result.status ?? 1);
}
console.log(`(${runnable.join(', ')}: ${Math.round((performance.now() - started) / 1000)} s)`);
