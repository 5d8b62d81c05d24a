/**
 * `npm run conformance` as a test: the official MCP conformance suite's scenarios that apply to a
 * Roam server (scripts/conformance.mjs, docs/mcp.md) against the built bin, 2025 through
 * supergateway and 2026-07-28 (the newest suite) through the stateless bridge, with the emulator
 * playing Roam. Warnings count too (a SHOULD the suite checks). Real processes, real HTTP; the script's exit code is the verdict.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { expect, it } from 'vitest';
import { SCENARIOS, SCENARIOS_2026 } from '../../scripts/conformance.mjs';
import { ltsNodeSupported } from '../../scripts/lts-node.mjs';
import { ROOT } from '../harness/mcp-bin.ts';
import { removeDir, tempDir } from '../harness/temp-dir.ts';
import { SERVER_NODE } from '../server-node.ts';

it.skipIf(!ltsNodeSupported)(
  'passes every applicable conformance scenario through the stdio→HTTP bridge',
  async () => {
    // The suite's runs on Node 24 share a compile cache: each of its two bundles is compiled once,
    // not once per scenario.
    const compileCache = await tempDir('roam-conformance-cache-');
    const child = spawn(process.execPath, [path.join(ROOT, 'scripts/conformance.mjs')], {
      cwd: ROOT,
      env: { ...process.env, ROAM_TEST_NODE: SERVER_NODE, NODE_COMPILE_CACHE: compileCache },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    await removeDir(compileCache);
    expect(output).toMatch(/Conformance: 10\/10 scenarios passed/);
    for (const scenario of [...SCENARIOS, ...SCENARIOS_2026])
      expect(output).toContain(`Running client scenario '${scenario}'`);
    expect(output).not.toContain('FAILURE');
    expect(output).not.toContain('WARNING');
    expect(code, output.slice(-2000)).toBe(0);
  },
  120_000,
);
