// `npm run test:node-lts`: the stdio suite (the whole tool surface over stdio, the launcher and
// its child) with the server on Node 22 and 24, the LTS lines users run (npm-shipped binaries,
// installed on first use by scripts/lts-node.mjs). Vitest itself
// stays on the Node that runs this script; test/server-node.ts reads ROAM_TEST_NODE.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureLtsNode, ltsNodeSupported } from './lts-node.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
export const STDIO_SUITE = [
  'test/mcp',
  'test/navigation/navigation-stdio.test.ts',
  'test/tray/mcp-launcher.test.ts',
  'test/clients/inspector-cli.test.ts',
];
const versions = process.argv.slice(2).length ? process.argv.slice(2) : ['node22', 'node24'];

for (const name of versions) {
  if (!ltsNodeSupported) {
    console.log(`Skipping ${name}: the npm-shipped Node binaries run on linux-x64 only.`);
    continue;
  }
  const node = ensureLtsNode(name);
  const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
  console.log(`\n=== stdio suite with the server on Node ${version} (${name}) ===`);
  const run = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/vitest/vitest.mjs'), 'run', ...STDIO_SUITE],
    { cwd: root, stdio: 'inherit', env: { ...process.env, ROAM_TEST_NODE: node } },
  );
  if (run.status !== 0) {
    console.error(`The stdio suite failed with the server on Node ${version}.`);
    process.exit(run.status ?? 1);
  }
}
