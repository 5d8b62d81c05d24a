/**
 * The MCP Inspector CLI (2.x, a client nobody here wrote) against the built bin over stdio, in a
 * temp HOME with one emulator graph, `Demo`. The Inspector needs Node ≥ 22.19, so it runs on the
 * npm-shipped Node 24 (scripts/lts-node.mjs); the bin runs on the Node under test
 * (test/harness/mcp-bin.ts binCommand). The token lives only in the HOME's config file, never in
 * argv or env, and no output of the Inspector may carry it.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { ltsNodePath } from '../../scripts/lts-node.mjs';
import { startEmulator, type Emulator } from '../emulator/index.ts';
import { binCommand, newToken, removeHome, ROOT, tempHome, writeToolsConfig } from '../harness/mcp-bin.ts';

const INSPECTOR_NODE = ltsNodePath('node24');
const INSPECTOR = path.join(
  ROOT,
  'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js',
);

export interface InspectorHome {
  /** Roam, as the emulator plays it: the graph `demo` and every request it received. */
  emulator: Emulator;
  /**
   * One Inspector CLI run (`--cli --format json -q`): its stdout, or on a non-zero exit its stderr
   * (a failed request's `{error}`), checked to hold no token. The server's environment (`-e
   * NAME=VALUE`, `options`) comes after `args`, since `--prompt-args` takes every word after it.
   */
  inspect(args: string[], options?: string[]): Promise<string>;
  close(): Promise<void>;
}

export async function startInspectorHome(prefix: string): Promise<InspectorHome> {
  const token = newToken();
  const home = await tempHome(prefix);
  const emulator = await startEmulator({
    home,
    graphs: [{ name: 'demo', content: 'demo', tokens: [{ token, accessLevel: 'full' }] }],
  });
  await writeToolsConfig(home, [{ name: 'demo', token, nickname: 'Demo' }]);
  return {
    emulator,
    async inspect(args, options = []) {
      const environment = ['-e', 'ROAM_MCP_NO_LAUNCH=1', ...options];
      const command = [
        INSPECTOR,
        '--cli',
        '--format',
        'json',
        '-q',
        ...args,
        ...environment,
        ...binCommand().flat(),
      ];
      // HOME holds the Inspector's own catalog and our config file; the Inspector passes HOME on.
      // Its runs share a compile cache there: its modules are compiled once, not once a run.
      const output = await promisify(execFile)(INSPECTOR_NODE, command, {
        cwd: home,
        env: {
          HOME: home,
          PATH: process.env.PATH ?? '',
          NODE_COMPILE_CACHE: path.join(home, 'compile-cache'),
        },
        timeout: 60_000,
      }).then(
        (ok) => ok.stdout,
        (failed: { stderr?: string }) => failed.stderr ?? '',
      );
      expect(output).not.toContain(token);
      return output;
    },
    async close() {
      await emulator.close();
      await removeHome(home);
    },
  };
}
