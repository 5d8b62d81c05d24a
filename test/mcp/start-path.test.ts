/**
 * The server's start path stays short: when the bin writes its first answer, it has not loaded
 * the Node built-ins that only a Local API request, a tool or another command needs
 * (scripts/build.mjs, lazyBuiltins; src-shared/local-api/http-json.ts makes its agent at the
 * first request). Each of them costs milliseconds of every chat's cold start.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { binCommand, binEnv, makeToken, removeHome, ROOT, tempHome } from '../harness/mcp-bin.ts';

const PRELOAD = path.join(ROOT, 'test/mcp/fixtures/loaded-builtins.cjs');
// Not node:net: Node loads it for stdio pipes.
const LATER = ['http', 'https', 'crypto', 'child_process', 'dns', 'tls', 'readline', 'assert'];

let home: string;
beforeAll(async () => {
  home = await tempHome();
});
afterAll(() => removeHome(home));

/** The built-ins loaded when the first answer to `message` is written. */
function loadedAtFirstAnswer(message: object): Promise<string[]> {
  const [node, args] = binCommand([], ['--require', PRELOAD]);
  const child = spawn(node, args, {
    env: binEnv(home, { ROAM_GRAPH: 'start-path', ROAM_API_TOKEN: makeToken('startpath') }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const line = /^LOADED (.*)$/m.exec(stderr);
      if (!line) return;
      child.kill();
      resolve(JSON.parse(line[1]!) as string[]);
    });
    child.on('error', reject);
    child.on('exit', () => reject(new Error(`the bin exited before answering: ${stderr}`)));
    child.stdin.write(`${JSON.stringify(message)}\n`);
  });
}

it('answers initialize before loading http, crypto, child_process and the like', async () => {
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'start-path', version: '1' },
    },
  };
  const loaded = await loadedAtFirstAnswer(initialize);
  expect(loaded).toContain('fs'); // the list is Node's own
  expect(loaded.filter((name) => LATER.includes(name))).toEqual([]);
});
