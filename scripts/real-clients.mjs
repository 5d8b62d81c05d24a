// The AI clients' own CLIs (Gemini CLI, Codex, Claude Code), for the tests that check what
// `roam-mcp install` writes against the clients themselves (test/clients/real-clients.test.ts).
// Not dependencies of the package: installed from the npm registry on first use, pinned, into
// node_modules/.cache/real-clients/<name> (outside the tracked tree), once, shared by every run.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const cache = path.join(root, 'node_modules/.cache/real-clients');

export const REAL_CLIENTS = {
  gemini: { spec: '@google/gemini-cli@0.61.0', bin: 'gemini' },
  codex: { spec: '@openai/codex@0.171.0', bin: 'codex' },
  claude: { spec: '@anthropic-ai/claude-code@2.1.332', bin: 'claude' },
};

/** The client's executable once installed. */
export function realClientPath(name) {
  return path.join(cache, name, 'node_modules/.bin', REAL_CLIENTS[name].bin);
}

/** Why the last install failed, or undefined (written by ensureRealClients). */
const failureFile = path.join(cache, 'install-failed.txt');

export async function realClientsFailure() {
  return readFile(failureFile, 'utf8').catch(() => undefined);
}

/** The line of npm's error output that says what went wrong (a network error names its cause). */
function npmReason(stderr) {
  const lines = stderr.split('\n').map((line) => line.trim());
  const reason =
    lines.find((line) => /^npm error (code|errno|network|request to)\b/.test(line)) ??
    lines.filter(Boolean).at(-1) ??
    'no output';
  return reason.slice(0, 300);
}

function installOne(name) {
  const prefix = path.join(cache, name);
  const args = ['install', '--prefix', prefix, '--no-save', '--no-package-lock', '--no-audit', '--no-fund'];
  // An unreachable registry fails in seconds rather than after npm's minutes of retries.
  args.push('--fetch-timeout=20000', '--fetch-retries=1', REAL_CLIENTS[name].spec);
  return new Promise((resolve, reject) => {
    const npm = spawn('npm', args, { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    npm.stderr.on('data', (chunk) => (stderr += chunk));
    npm.on('error', (error) => reject(error));
    npm.on('close', (status) =>
      status === 0 && existsSync(realClientPath(name))
        ? resolve()
        : reject(new Error(`npm install ${REAL_CLIENTS[name].spec} exited ${status}: ${npmReason(stderr)}`)),
    );
  });
}

/**
 * Installs the missing clients at once. Never throws: a registry that cannot be reached leaves
 * the reason in `install-failed.txt`, and the tests that need the clients skip, saying it.
 */
export async function ensureRealClients() {
  const missing = Object.keys(REAL_CLIENTS).filter((name) => !existsSync(realClientPath(name)));
  if (missing.length === 0) return;
  await mkdir(cache, { recursive: true });
  await rm(failureFile, { force: true });
  const results = await Promise.allSettled(missing.map(installOne));
  const failed = results.flatMap((r) =>
    r.status === 'rejected' ? [String(r.reason?.message ?? r.reason)] : [],
  );
  if (failed.length) await writeFile(failureFile, failed.join('\n'));
}
