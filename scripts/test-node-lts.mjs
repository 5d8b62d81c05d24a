// `npm run test:node-lts`: the stdio tests whose outcome can depend on the Node line or the
// client's protocol era, again, in the passes `npm test`'s main run does not cover (docs/mcp.md, Node versions
// and "State and the two protocol eras"):
// - `v1-client`: the v1 SDK client (2025-11-25, `initialize`) against the server on this Node
//   (the main run uses the v2 client at 2026-07-28); test/sdk-client.ts reads ROAM_TEST_CLIENT;
// - `node22`, `node24`: the server on the LTS lines users run (npm-shipped binaries, installed on
//   first use by scripts/lts-node.mjs), v2 client; test/server-node.ts reads ROAM_TEST_NODE.
// Vitest itself stays on the Node that runs this script. `node scripts/test-node-lts.mjs node22`
// runs one pass.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureLtsNode, ltsNodeSupported } from './lts-node.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
/**
 * What the Node line changes for the server: its stdio streams and line sizes, HTTP to the Local
 * API, fetch and DNS for uploads, file locks, atomic writes and appends (config, journal, kept
 * index), and the tray's child over IPC. Every tool and rule above those is the same code on
 * every Node, and runs in the main pass.
 */
export const STDIO_SUITE = [
  'test/mcp/server-single-graph.test.ts',
  'test/mcp/server-multi-graph.test.ts',
  'test/mcp/stdio-limits.test.ts',
  'test/mcp/upload-safety.test.ts',
  'test/mcp/ipc-mode.test.ts',
  'test/changes/undo-tools.test.ts',
  'test/navigation/navigation-stdio.test.ts',
  'test/tray/mcp-launcher.test.ts',
  'test/tray/mcp-launcher-two-clients.test.ts',
  'test/clients/inspector-cli.test.ts',
];
/**
 * What the client's protocol era changes: the handshake, list_changed, results and errors,
 * prompts and completion, progress and cancellation, across the tool surface.
 */
const CLIENT_SUITE = [
  'test/mcp/server-single-graph.test.ts',
  'test/mcp/server-multi-graph.test.ts',
  'test/mcp/capabilities.test.ts',
  'test/mcp/prompts.test.ts',
  'test/mcp/shared-token-request.test.ts',
  'test/mcp/stdio-limits.test.ts',
  'test/navigation/navigation-stdio.test.ts',
  'test/tray/mcp-launcher.test.ts',
];
const PASSES = ['v1-client', 'node22', 'node24'];
const passes = process.argv.slice(2).length ? process.argv.slice(2) : PASSES;

for (const name of passes) {
  if (!PASSES.includes(name)) {
    console.error(`Unknown pass '${name}'. Passes: ${PASSES.join(', ')}.`);
    process.exit(2);
  }
  if (name === 'v1-client') {
    console.log(`\n=== stdio suite with the v1 SDK client (2025-11-25) on Node ${process.version} ===`);
    run(CLIENT_SUITE, { ROAM_TEST_CLIENT: 'v1' }, `the v1 client on Node ${process.version}`);
    continue;
  }
  if (!ltsNodeSupported) {
    console.log(`Skipping ${name}: the npm-shipped Node binaries run on linux-x64 only.`);
    continue;
  }
  const node = ensureLtsNode(name);
  const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
  console.log(`\n=== stdio suite with the server on Node ${version} (${name}) ===`);
  run(STDIO_SUITE, { ROAM_TEST_NODE: node }, `the server on Node ${version}`);
}

function run(files, env, what) {
  const started = performance.now();
  const result = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/vitest/vitest.mjs'), 'run', ...files],
    { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } },
  );
  if (result.status !== 0) {
    console.error(`The stdio suite failed with ${what}.`);
    process.exit(result.status ?? 1);
  }
  console.log(`(${what}: ${Math.round((performance.now() - started) / 1000)} s)`);
}
