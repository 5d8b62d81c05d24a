/**
 * `npm run conformance` as a test: the official MCP conformance suite's scenarios that apply to a
 * Roam server (scripts/conformance.mjs, docs/mcp.md) against the built bin through supergateway,
 * with the emulator playing Roam. Real processes, real HTTP; the script's exit code is the verdict.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { expect, it } from 'vitest';
import { ltsNodeSupported } from '../../scripts/lts-node.mjs';
import { ROOT } from '../harness/mcp-bin.ts';
import { SERVER_NODE } from '../server-node.ts';

it.skipIf(!ltsNodeSupported)(
  'passes every applicable conformance scenario through the stdio→HTTP bridge',
  async () => {
    const child = spawn(process.execPath, [path.join(ROOT, 'scripts/conformance.mjs')], {
      cwd: ROOT,
      env: { ...process.env, ROAM_TEST_NODE: SERVER_NODE },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(output).toMatch(/Conformance: 5\/5 scenarios passed/);
    for (const scenario of ['server-initialize', 'ping', 'tools-list', 'tools-call-error', 'resources-list'])
      expect(output).toContain(`Running client scenario '${scenario}'`);
    expect(output).not.toContain('FAILURE');
    expect(code, output.slice(-2000)).toBe(0);
  },
  120_000,
);
