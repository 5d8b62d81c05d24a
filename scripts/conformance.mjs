// `npm run conformance`: the official MCP conformance suite (@modelcontextprotocol/conformance)
// against the built bin. The suite speaks Streamable HTTP, our bin speaks stdio, so supergateway
// bridges them (stateful: one bin per client session, as a stdio client would run it). The
// emulator plays Roam with the demo graph. Everything runs on the npm-shipped Node 24 (the suite
// needs Node ≥ 22) except the bin, which runs on ROAM_TEST_NODE or this Node. Which scenarios run
// and why the others do not apply: docs/mcp.md, "Conformance suite".
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureLtsNode } from './lts-node.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const NODE24 = ensureLtsNode('node24');
const SERVER_NODE = process.env.ROAM_TEST_NODE || process.execPath;
const BIN = path.join(root, 'dist/roam-mcp.mjs');
export const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'tools-call-error', 'resources-list'];

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
    console.log(`\nConformance: ${SCENARIOS.length - failed.length}/${SCENARIOS.length} scenarios passed.`);
    if (failed.length) {
      console.error(`Failed: ${failed.join(', ')}. Rerun one with --scenario NAME --verbose (docs/mcp.md).`);
      process.exitCode = 1;
    }
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await rm(home, { recursive: true, force: true });
  }
}

await main();
