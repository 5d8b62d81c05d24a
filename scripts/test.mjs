// `npm test`: the static checks and the whole test suite, on a clean clone. The checks (typecheck,
// lint, format, one after another) run alongside vitest, whose tests spend much of their time waiting on the
// processes and servers they start; their output is held and printed when each ends, so vitest's
// stays readable. Vitest runs the main pass and the passes of scripts/test-passes.mjs (the server
// on Node 22 with the v1 client, on Node 24) as projects of one run; its global setup builds dist/ first.
// Exits non-zero when any step fails, after every step has ended.
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PASSES_ENV } from './test-passes.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const bin = (name) => path.join(root, 'node_modules/.bin', name);
// The typecheck is TypeScript 7's native compiler (tsgo, tsc ported to Go): the same checks in a quarter of
// the CPU, which a 2-core machine running the tests beside it gives back to them. typescript-eslint
// and editors keep the `typescript` package.
const CHECKS = [
  { name: 'typecheck', command: bin('tsgo'), args: ['--noEmit', '-p', 'tsconfig.json'] },
  { name: 'lint', command: bin('eslint'), args: ['--max-warnings', '0', '.'] },
  { name: 'format', command: bin('prettier'), args: ['--check', '.'] },
  // No unused file, export or dependency (knip.json names the entry points).
  { name: 'knip', command: bin('knip'), args: ['--no-progress'] },
];

const started = performance.now();
const seconds = (since) => `${Math.round((performance.now() - since) / 1000)} s`;

function run({ name, command, args, env, quiet, priority }) {
  const since = performance.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    if (priority !== undefined && child.pid !== undefined) {
      try {
        os.setPriority(child.pid, priority);
      } catch {
        // Not allowed here: the check runs at the usual priority.
      }
    }
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => (output += `${error.message}\n`));
    child.on('close', (code, signal) => {
      const ok = code === 0;
      if (quiet) {
        const status = ok ? 'passed' : `FAILED (${signal ?? `exit ${code}`})`;
        process.stdout.write(`\n[${name}] ${status} in ${seconds(since)}\n${ok ? '' : output}`);
      }
      resolve({ name, ok });
    });
  });
}

/**
 * The checks one after another, at a lower priority (nice 10): the tests' workers spend much of
 * their time waiting on the processes and servers they start, and the checks use the core that
 * leaves idle instead of slowing the workers down (only CPU time moves; nothing waits on a check).
 */
async function checks() {
  const results = [];
  for (const check of CHECKS) results.push(await run({ ...check, quiet: true, priority: 10 }));
  return results;
}

const results = await Promise.all([
  checks(),
  run({
    name: 'vitest',
    command: process.execPath,
    args: [path.join(root, 'node_modules/vitest/vitest.mjs'), 'run'],
    env: { [PASSES_ENV]: 'all' },
  }),
]).then((all) => all.flat());
const failed = results.filter((result) => !result.ok).map((result) => result.name);
console.log(
  `\nnpm test: ${failed.length ? `FAILED: ${failed.join(', ')}` : 'every step passed'} (${seconds(started)})`,
);
process.exit(failed.length ? 1 : 0);
