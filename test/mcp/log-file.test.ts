/**
 * The server's log file through the built bin: a start with a config problem lands in
 * `<data>/logs/roam-mcp.log` (0600 in a 0700 folder) with tokens and keys scrubbed as on stderr;
 * the file rotates to one `.1` at its cap; processes appending at once keep every line whole; a
 * data folder the log cannot be written to never stops the server.
 */
import { chmod, mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/index.ts';
import { binEnv, newToken, runBin, startMcp, textOf } from '../harness/mcp-bin.ts';
import { removeDir, tempDir } from '../harness/temp-dir.ts';

const TOKEN = newToken();
const KEY = 'roam-mcp-key-Zm9vYmFyYmF6cXV4cXV1eHF1dXhxdXV4cXV1eA';
let home: string;
let emulator: Emulator;

beforeAll(async () => {
  home = await tempDir('roam-log-file-');
  emulator = await startEmulator({
    home,
    graphs: [{ name: 'work', content: 'demo', tokens: [{ token: TOKEN, accessLevel: 'full' }] }],
  });
}, 60_000);

afterAll(async () => {
  await emulator?.close();
  await removeDir(home);
});

/** A start whose toolset is unknown: the server logs it (naming the value) and exits. */
const badStart = (data: string, toolset: string, env: Record<string, string> = {}) =>
  runBin(['--tools', toolset], { env: binEnv(home, { ROAM_COMPANION_DATA_DIR: data, ...env }), cwd: home });

/** Every line a log keeps starts with its time and the writer's pid. */
const WHOLE_LINE = /^\d{4}-\d\d-\d\dT[\d:.]+Z \[\d+\] roam-mcp(?: \w+)?: .*$/;

it('a start’s problem lands in the log file, scrubbed of a token and a key, 0600 in a 0700 folder', async () => {
  const data = path.join(home, 'data-scrub');
  const first = await badStart(data, TOKEN);
  const second = await badStart(data, KEY);
  const file = path.join(data, 'logs', 'roam-mcp.log');
  const text = await readFile(file, 'utf8');
  expect(text).toContain("--tools names unknown toolset 'roam-graph-local-token-…'");
  expect(text).toContain("--tools names unknown toolset 'roam-mcp-key-…'");
  for (const secret of [TOKEN, KEY]) {
    expect(text).not.toContain(secret);
    expect(first.stderr + second.stderr).not.toContain(secret);
  }
  for (const line of text.trimEnd().split('\n')) expect(line).toMatch(WHOLE_LINE);
  expect(first.stdout + second.stdout).toBe('');
  expect((await stat(file)).mode & 0o777).toBe(0o600);
  expect((await stat(path.dirname(file))).mode & 0o777).toBe(0o700);
});

it('rotates to one .1 file at its cap, the newest line in the live file', async () => {
  const data = path.join(home, 'data-rotate');
  const cap = 1000;
  for (let run = 0; run < 6; run++)
    await badStart(data, `run-${run}`, { ROAM_COMPANION_LOG_MAX_BYTES: String(cap) });
  const dir = path.join(data, 'logs');
  expect((await readdir(dir)).sort()).toEqual(['roam-mcp.log', 'roam-mcp.log.1']);
  for (const name of ['roam-mcp.log', 'roam-mcp.log.1']) {
    expect((await stat(path.join(dir, name))).size).toBeLessThanOrEqual(cap);
    expect((await stat(path.join(dir, name))).mode & 0o777).toBe(0o600);
  }
  const live = await readFile(path.join(dir, 'roam-mcp.log'), 'utf8');
  expect(live).toContain("unknown toolset 'run-5'");
  expect(await readFile(path.join(dir, 'roam-mcp.log.1'), 'utf8')).not.toContain("'run-5'");
});

it('several processes appending and rotating at once leave only whole lines', async () => {
  const data = path.join(home, 'data-race');
  const env = { ROAM_COMPANION_LOG_MAX_BYTES: '1500' };
  await Promise.all(Array.from({ length: 6 }, (_, n) => badStart(data, `racer-${n}`, env)));
  const dir = path.join(data, 'logs');
  for (const name of await readdir(dir)) {
    const text = await readFile(path.join(dir, name), 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    for (const line of text.trimEnd().split('\n')) expect(line).toMatch(WHOLE_LINE);
  }
});

it('a data folder the log cannot be written to never stops the server', async () => {
  const data = path.join(home, 'data-readonly');
  await mkdir(data, { recursive: true, mode: 0o700 });
  // `logs` is a file: no folder can be made there, whoever runs the test (root ignores modes).
  await writeFile(path.join(data, 'logs'), 'not a folder', { mode: 0o400 });
  await chmod(data, 0o500);
  try {
    const mcp = await startMcp({
      home,
      env: { ROAM_COMPANION_DATA_DIR: data, ROAM_GRAPH: 'work', ROAM_API_TOKEN: TOKEN },
    });
    try {
      const result = await mcp.call('current_graph');
      expect(result.isError).toBeFalsy();
      expect(textOf(result)).toContain('work');
      expect(mcp.stderr()).toContain('roam-mcp: 1 graph(s)');
    } finally {
      await mcp.close();
    }
  } finally {
    await chmod(data, 0o700);
  }
  expect(await readFile(path.join(data, 'logs'), 'utf8')).toBe('not a folder');
});
