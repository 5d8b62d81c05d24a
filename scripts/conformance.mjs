// `npm run conformance`: the official MCP conformance suite (@modelcontextprotocol/conformance)
// against the built bin, in both eras. The suite speaks HTTP, our bin speaks stdio: for the 2025
// scenarios supergateway bridges them (stateful: one bin per client session, as a stdio client
// would run it); for 2026-07-28, the newest suite (0.2.0-alpha, installed as
// @modelcontextprotocol/conformance-2026) goes through scripts/stdio-http-bridge.mjs (stateless:
// one bin per request, as that revision's HTTP is). The emulator plays Roam with the demo graph. Everything runs on the npm-shipped Node 24 (the suite
// needs Node ≥ 22) except the bin, which runs on ROAM_TEST_NODE or this Node. Which scenarios run
// and why the others do not apply: docs/mcp.md, "Conformance suite".
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureLtsNode } from './lts-node.mjs';
import { bridgeStdioToHttp } from './stdio-http-bridge.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const NODE24 = ensureLtsNode('node24');
const SERVER_NODE = process.env.ROAM_TEST_NODE || process.execPath;
const BIN = path.join(root, 'dist/roam-mcp.mjs');
export const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'tools-call-error', 'resources-list'];
/**
 * The 2026-07-28 scenarios that apply to a stdio server with Roam's tools (docs/mcp.md,
 * "Conformance suite", says why the others do not): cache hints on every list and read, the tool
 * list, a tool error, resources, an unknown resource.
 */
export const SCENARIOS_2026 = [
  'caching',
  'tools-list',
  'tools-call-error',
  'resources-list',
  'sep-2164-resource-not-found',
];
const SUITE_2026 = path.join(root, 'node_modules/@modelcontextprotocol/conformance-2026/dist/index.js');

/** Spawns a process and resolves once a line of its output matches `ready` (rejects if it exits first). */
function startUntil(command, args, options, ready) {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (chunk) => {
      out += chunk.toString('utf8');
      const match = ready.exec(out);
      if (match) resolve({ child, match });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) =>
      reject(new Error(`${path.basename(args[0])} exited (${code}): ${out.slice(-500)}`)),
    );
  });
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

function run(command, args, options) {
  return new Promise((resolve) => {
    spawn(command, args, { ...options, stdio: 'inherit' }).on('exit', (code) => resolve(code ?? 1));
  });
}

async function main() {
  const home = await mkdtemp(path.join(os.tmpdir(), 'roam-conformance-'));
  const children = [];
  try {
    const emulator = await startUntil(
      process.execPath,
      [path.join(root, 'dist/emulator.mjs'), '--home', home, '--graph', 'demo:demo'],
      {},
      /^(\{.*\})\n/m,
    );
    children.push(emulator.child);
    const { graphs } = JSON.parse(emulator.match[1]);
    // The token goes to the bin through its config file only (never argv or env).
    await writeFile(
      path.join(home, '.roam-tools.json'),
      JSON.stringify({ version: 1, graphs: [{ name: 'demo', type: 'hosted', token: graphs[0].token }] }),
      { mode: 0o600 },
    );
    const port = await freePort();
    const bridge = await startUntil(
      NODE24,
      [
        path.join(root, 'node_modules/supergateway/dist/index.js'),
        ...['--stdio', `"${SERVER_NODE}" "${BIN}"`, '--outputTransport', 'streamableHttp', '--stateful'],
        ...['--port', String(port), '--logLevel', 'info'],
      ],
      { env: { HOME: home, PATH: process.env.PATH ?? '', ROAM_MCP_NO_LAUNCH: '1' } },
      /Listening on port/,
    );
    children.push(bridge.child);
    const failed = [];
    for (const scenario of SCENARIOS) {
      const code = await run(
        NODE24,
        [
          path.join(root, 'node_modules/@modelcontextprotocol/conformance/dist/index.js'),
          ...['server', '--url', `http://127.0.0.1:${port}/mcp`, '--scenario', scenario],
          ...['--output-dir', path.join(home, 'results')],
        ],
        { cwd: home },
      );
      if (code !== 0) failed.push(scenario);
    }
    failed.push(...(await run2026(home)));
    const total = SCENARIOS.length + SCENARIOS_2026.length;
    console.log(`\nConformance: ${total - failed.length}/${total} scenarios passed.`);
    if (failed.length) {
      console.error(`Failed: ${failed.join(', ')}. Rerun one with --scenario NAME --verbose (docs/mcp.md).`);
      process.exitCode = 1;
    }
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await rm(home, { recursive: true, force: true });
  }
}

/** The 2026-07-28 scenarios through the stateless bridge; answers the failed ones (as `2026:NAME`). */
async function run2026(home) {
  const port = await freePort();
  const env = { HOME: home, PATH: process.env.PATH ?? '', ROAM_MCP_NO_LAUNCH: '1' };
  const bridge = await bridgeStdioToHttp({ command: SERVER_NODE, args: [BIN], env, port });
  const failed = [];
  try {
    for (const scenario of SCENARIOS_2026) {
      const code = await run(
        NODE24,
        [
          SUITE_2026,
          ...['server', '--url', `http://127.0.0.1:${port}/mcp`, '--scenario', scenario],
          ...['--spec-version', '2026-07-28', '--output-dir', path.join(home, 'results-2026')],
        ],
        { cwd: home },
      );
      if (code !== 0) failed.push(`2026:${scenario}`);
    }
  } finally {
    await bridge.close();
  }
  return failed;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
