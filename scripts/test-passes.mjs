// The passes of the stdio tests whose outcome can depend on the Node line or the client's
// protocol era, again, beyond the main run (docs/mcp.md, Node versions and "State and the two
// protocol eras"). vitest.config.ts adds each pass named in ROAM_TEST_PASSES as a project of the
// same run, so `npm test` runs them alongside the main pass (scripts/test.mjs) and
// `npm run test:node-lts` runs them alone (scripts/test-node-lts.mjs). The main run is Node 20
// with the v2 client (2026-07-28); the passes pair the other Node lines with the other era, since
// what the Node line changes (streams, HTTP, locks, IPC) and what the era changes (handshake,
// results, errors) are separate code:
// - `node22`: the server on Node 22 with the v1 SDK client (2025-11-25, `initialize`): both
//   suites; test/harness/sdk-client.ts reads ROAM_TEST_CLIENT;
// - `node24`: the server on Node 24 with the v2 client: the stdio suite.
// The Node binaries are npm-shipped, installed on first use by the test setup (scripts/lts-node.mjs),
// and read by test/server-node.ts (ROAM_TEST_NODE). Where they cannot run, `node22` still runs the
// v1 client, against the server on this Node. Vitest itself stays on the Node that runs the tests.
import { ltsNodePath, ltsNodeSupported } from './lts-node.mjs';

/**
 * What the Node line changes for the server: its stdio streams and line sizes, HTTP to the Local
 * API, fetch and DNS for uploads, file locks, atomic writes and appends (config, journal, kept
 * index), and the tray's child over IPC. Every tool and rule above those is the same code on
 * every Node, and runs in the main pass.
 */
export const STDIO_SUITE = [
  'test/mcp/server-single-graph.test.ts',
  'test/mcp/server-multi-graph.test.ts',
  'test/mcp/process/stdio-limits.test.ts',
  'test/mcp/uploads/upload-safety.test.ts',
  'test/mcp/ipc-mode.test.ts',
  'test/mcp/changes/undo-tools.test.ts',
  'test/mcp/navigation/navigation-stdio.test.ts',
  'test/main/core/clients/mcp-launcher.test.ts',
  'test/main/core/clients/mcp-launcher-two-clients.test.ts',
];
/**
 * What the client's protocol era changes: the handshake, list_changed, results and errors,
 * prompts and completion, progress and cancellation, across the tool surface.
 */
export const CLIENT_SUITE = [
  'test/mcp/server-single-graph.test.ts',
  'test/mcp/server-multi-graph.test.ts',
  'test/mcp/capabilities.test.ts',
  'test/mcp/prompts/prompts.test.ts',
  'test/mcp/shared-token-request.test.ts',
  'test/mcp/process/stdio-limits.test.ts',
  'test/mcp/navigation/navigation-stdio.test.ts',
  'test/main/core/clients/mcp-launcher.test.ts',
];
export const PASSES = ['node22', 'node24'];
/** The environment variable that names the passes to add (comma-separated, or `all`). */
export const PASSES_ENV = 'ROAM_TEST_PASSES';

/** The passes `value` (ROAM_TEST_PASSES) names; throws on an unknown one. */
export function requestedPasses(value = '') {
  const names = value === 'all' ? PASSES : value.split(',').filter(Boolean);
  const unknown = names.filter((name) => !PASSES.includes(name));
  if (unknown.length)
    throw new Error(`Unknown pass '${unknown.join("', '")}'. Passes: ${PASSES.join(', ')}.`);
  return names;
}

/**
 * A pass's files and environment, or a reason it cannot run here (the npm-shipped Node binaries
 * run on linux-x64 only). The test setup (test/global-setup.ts) installs the binaries.
 */
export function passOf(name) {
  if (name === 'node22') {
    const files = [...new Set([...STDIO_SUITE, ...CLIENT_SUITE])];
    const server = ltsNodeSupported ? { ROAM_TEST_NODE: ltsNodePath(name) } : {};
    return { files, env: { ROAM_TEST_CLIENT: 'v1', ...server } };
  }
  if (!ltsNodeSupported) return { skipped: `the npm-shipped Node binaries run on linux-x64 only` };
  return { files: STDIO_SUITE, env: { ROAM_TEST_NODE: ltsNodePath(name) } };
}
