/**
 * `roam-mcp doctor` through the built bin, against the emulator, with each fault made real in
 * turn: a healthy setup passes; a stale client entry, an http entry whose key was revoked, a full
 * journal, a revoked graph token and Roam Desktop stopped are each reported with what to do,
 * and a failure exits 1; an ok check carries no fix. `--report` writes only one 0600 file with the
 * same checks and no token, key, note text, home path or graph name, and says where on stdout.
 */
import { spawn } from 'node:child_process';
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../emulator/index.ts';
import { binCommand, binEnv, newToken, runBin, toolsConfig } from '../../harness/mcp-bin.ts';
import { readUrlFile } from '../../../src-mcp/data-folder/url-file.ts';
import { removeDir, tempDir } from '../../harness/temp-dir.ts';
import type { DoctorReport } from '../../../src-mcp/doctor/index.ts';

const WORK = newToken();
let home: string;
let emulator: Emulator;
const data = () => path.join(home, 'data');
const cursorFile = () => path.join(home, '.cursor', 'mcp.json');
/** Everything doctor printed, searched for secrets at the end. */
const said: string[] = [];

beforeAll(async () => {
  home = await tempDir('roam-doctor-');
  emulator = await startEmulator({
    home,
    graphs: [{ name: 'work', content: 'demo', tokens: [{ token: WORK, accessLevel: 'full' }] }],
  });
  await writeFile(
    path.join(home, '.roam-tools.json'),
    toolsConfig([{ name: 'work', nickname: 'Work', token: WORK, accessLevel: 'read-edit-own' }]),
    { mode: 0o600 },
  );
  await mkdir(path.dirname(cursorFile()), { recursive: true });
}, 60_000);

afterAll(async () => {
  await emulator?.close();
  await removeDir(home);
});

async function roamMcp(args: string[], env: Record<string, string> = {}) {
  const run = await runBin(args, {
    env: binEnv(home, { ROAM_COMPANION_DATA_DIR: data(), ...env }),
    cwd: home,
  });
  said.push(run.stdout, run.stderr);
  return run;
}

async function doctor(env: Record<string, string> = {}) {
  const run = await roamMcp(['doctor', '--json'], env);
  const report = JSON.parse(run.stdout) as DoctorReport;
  const find = (name: string) => report.checks.find((check) => check.name === name)!;
  return { code: run.code, report, find };
}

it('a healthy setup passes: Node, Roam, the graph’s token and guidelines, the client', async () => {
  expect((await roamMcp(['install', 'cursor', '--transport', 'stdio'])).code).toBe(0);
  const { code, report, find } = await doctor();
  expect(code).toBe(0);
  expect(report.checks.map((c) => c.section)).toEqual(
    expect.arrayContaining(['node', 'roam', 'graphs', 'clients', 'http', 'journal', 'files']),
  );
  expect(find('Node.js').status).toBe('ok');
  expect(find('Roam Desktop')).toMatchObject({
    status: 'ok',
    detail: expect.stringContaining(`port ${emulator.port}`),
  });
  expect(find('graph Work (work)')).toMatchObject({
    status: 'ok',
    detail: 'token grants full, chosen level read-edit-own; guidelines readable',
  });
  expect(find('Cursor')).toMatchObject({
    status: 'ok',
    detail: expect.stringContaining('installed over stdio'),
  });
  expect(find('Roam config (holds tokens)')).toMatchObject({ status: 'ok' });
  const text = await roamMcp(['doctor']);
  expect(text.stdout).toContain('✓ graph Work (work): token grants full');
  expect(text.stdout).toContain('Everything checked is in order.');
});

it('a stale entry and a revoked key’s http entry are warnings that say what to do', async () => {
  const entry = JSON.parse(await readFile(cursorFile(), 'utf8'));
  entry.mcpServers['roam-companion'].command = '/gone/node';
  await writeFile(cursorFile(), JSON.stringify(entry));
  let found = await doctor();
  expect(found.find('Cursor')).toMatchObject({ status: 'warn', fix: 'roam-mcp install cursor' });
  expect(found.find('Cursor').detail).toContain('/gone/node, which no longer exists');

  const key = (await roamMcp(['key', 'create', 'cursor'])).stdout.trim();
  const url = 'http://127.0.0.1:39017/mcp';
  await writeFile(
    cursorFile(),
    JSON.stringify({
      mcpServers: { 'roam-companion': { url, headers: { Authorization: `Bearer ${key}` } } },
    }),
  );
  found = await doctor();
  expect(found.find('Cursor')).toMatchObject({ status: 'ok', detail: expect.stringContaining('over http') });
  await roamMcp(['key', 'revoke', 'cursor']);
  found = await doctor();
  expect(found.find('Cursor')).toMatchObject({ status: 'warn' });
  expect(found.find('Cursor').detail).toContain('Its key was revoked or replaced');
});

it('a full journal fails, with its size against the quota', async () => {
  const journal = path.join(data(), 'journal');
  await mkdir(journal, { recursive: true, mode: 0o700 });
  await writeFile(path.join(journal, '20261127-120000-4242-abcdef.jsonl'), 'x'.repeat(2048), { mode: 0o600 });
  const { code, find } = await doctor({ ROAM_MCP_TEST_JOURNAL_LIMITS: JSON.stringify({ maxBytes: 1024 }) });
  expect(code).toBe(1);
  expect(find('change journal')).toMatchObject({ status: 'fail', detail: expect.stringMatching(/\(200%\)/) });
});

it('names where the HTTP server serves and who started it', async () => {
  const [command, args] = binCommand(['serve', '--http', '--port', '0']);
  const server = spawn(command, args, {
    env: binEnv(home, { ROAM_COMPANION_DATA_DIR: data() }),
    cwd: home,
    stdio: 'ignore',
  });
  try {
    const served = await expect
      .poll(() => readUrlFile({ env: { ROAM_COMPANION_DATA_DIR: data() } }), { timeout: 20_000 })
      .toBeDefined()
      .then(() => readUrlFile({ env: { ROAM_COMPANION_DATA_DIR: data() } }));
    const { find } = await doctor();
    expect(find('HTTP server')).toMatchObject({
      status: 'ok',
      detail: `serving at ${served!.url}, started by roam-mcp serve --http (pid ${server.pid})`,
    });
  } finally {
    server.kill();
    await new Promise((resolve) => server.once('exit', resolve));
  }
  expect((await doctor()).find('HTTP server')).toMatchObject({ status: 'skip' });
});

it('a revoked token, then Roam stopped, fail with the way out', async () => {
  emulator.revokeToken(WORK);
  let found = await doctor();
  expect(found.code).toBe(1);
  expect(found.find('graph Work (work)')).toMatchObject({
    status: 'fail',
    detail: 'Roam refuses its token (revoked?)',
    fix: expect.stringContaining('roam-mcp connect --graph work'),
  });

  await emulator.stop();
  found = await doctor();
  expect(found.find('Roam Desktop')).toMatchObject({
    status: 'fail',
    detail: expect.stringContaining('nothing answers on port'),
    fix: expect.stringContaining('Open Roam Desktop'),
  });
  expect(found.find('graph Work (work)').status).toBe('skip');
});

it('names the server’s and the tray’s log files with their sizes, and quotes none of their lines', async () => {
  await roamMcp(['--tools', WORK]);
  const { report, find } = await doctor();
  const logs = path.join(data(), 'logs');
  const size = (await stat(path.join(logs, 'roam-mcp.log'))).size;
  expect(find('server log')).toMatchObject({
    status: 'ok',
    detail: `${path.join(logs, 'roam-mcp.log')}, ${size < 1024 ? `${size} B` : `${(size / 1024).toFixed(1)} KB`}`,
  });
  expect(find('tray log')).toMatchObject({
    status: 'skip',
    detail: `none yet (${path.join(logs, 'roam-companion.log')})`,
  });
  expect(JSON.stringify(report)).not.toContain('unknown toolset');
});

it('--report writes one 0600 file with the checks and no token, key, note text, home path or graph name; stdout says where', async () => {
  const file = path.join(home, 'doctor-report.txt');
  const run = await roamMcp(['doctor', '--report', file]);
  expect(run.code).toBe(1);
  expect(run.stdout).toMatch(
    new RegExp(`^Wrote ${file}: \\d+ checks, 1 problem\\(s\\), \\d+ warning\\(s\\)\\.`),
  );
  expect(run.stdout.trim().split('\n')).toHaveLength(1);
  expect(run.stderr).toBe('');
  expect((await stat(file)).mode & 0o777).toBe(0o600);
  const report = await readFile(file, 'utf8');
  expect(report).toContain('Roam Desktop');
  expect(report).toContain('"checks"');
  expect(report).toContain('graph graph-1 (graph-1)');
  expect(report).toContain('~/.roam-tools.json');
  expect(report).not.toContain(home);
  expect(report).not.toMatch(/\bwork\b|\bWork\b/);
  said.push(report);
  const everything = said.join('\n');
  expect(everything).not.toContain(WORK);
  expect(everything).not.toMatch(/roam-graph-local-token-[A-Za-z0-9_-]{8,}/);
  // The one place a key is printed is `key create`'s stdout, on purpose: none elsewhere.
  expect(said.filter((text) => !/^roam-mcp-key-\S+\n$/.test(text)).join('\n')).not.toMatch(
    /roam-mcp-key-[A-Za-z0-9_-]{20,}/,
  );
});

it('a --config file that is missing is named, with how to create it there (not in ~/.roam-tools.json)', async () => {
  const missing = path.join(home, 'missing.json');
  const run = await roamMcp(['doctor', '--config', missing, '--json']);
  const config = (JSON.parse(run.stdout) as DoctorReport).checks.find((c) => c.name === 'config');
  expect(config).toMatchObject({ status: 'fail' });
  expect(config?.detail).toContain(
    `does not exist: ${missing}. Create it, or add a graph to it with 'roam-mcp connect --config ${missing}'.`,
  );
});

it('refuses an unknown option with exit 2', async () => {
  const run = await roamMcp(['doctor', '--frobnicate']);
  expect(run.code).toBe(2);
  expect(run.stderr).toMatch(/^roam-mcp doctor: .*frobnicate/);
});

it('a client config holding a key that others can read is flagged with the exact chmod; 0600 is ok', async () => {
  const key = (await roamMcp(['key', 'create', 'cursor-by-hand'])).stdout.trim();
  const url = 'http://127.0.0.1:39017/mcp';
  const held = JSON.stringify({
    mcpServers: { 'roam-companion': { url, headers: { Authorization: `Bearer ${key}` } } },
  });
  // As a client that saves by writing a new file and renaming it leaves it: 0644.
  await writeFile(cursorFile(), held, { mode: 0o644 });
  await chmod(cursorFile(), 0o644);
  let found = await doctor();
  expect(found.find('Cursor config (holds a roam-mcp key)')).toEqual({
    section: 'files',
    name: 'Cursor config (holds a roam-mcp key)',
    status: 'warn',
    detail: `${cursorFile()} is mode 644: others on this computer can read the key in it`,
    fix: `chmod 600 '${cursorFile()}'`,
  });
  const text = await roamMcp(['doctor']);
  expect(text.stdout).toContain(`      chmod 600 '${cursorFile()}'`);

  await chmod(cursorFile(), 0o600);
  found = await doctor();
  expect(found.find('Cursor config (holds a roam-mcp key)').status).toBe('ok');
  // Installed, with a note that is part of what was found: an ok check carries nothing to fix.
  expect(found.find('Cursor')).toMatchObject({
    status: 'ok',
    detail: expect.stringContaining(`No roam-mcp HTTP server answers at ${url} now`),
  });
  expect(found.report.checks.filter((check) => check.status === 'ok' && 'fix' in check)).toEqual([]);
  // A config without a key of ours is not a key file.
  await writeFile(cursorFile(), '{ "mcpServers": {} }', { mode: 0o644 });
  found = await doctor();
  expect(found.find('Cursor config (holds a roam-mcp key)')).toBeUndefined();
});

it('a Codex file the old installer broke (our table beside an inline mcp_servers) is not called ours', async () => {
  await mkdir(path.join(home, '.codex'), { recursive: true });
  await writeFile(
    path.join(home, '.codex', 'config.toml'),
    'mcp_servers = { other = { command = "x" } }\n\n[mcp_servers.roam-companion]\ncommand = "node"\nargs = ["x"]\n',
  );
  const { find } = await doctor();
  expect(find('Codex')).toMatchObject({
    status: 'warn',
    detail: expect.stringMatching(/is not valid TOML \(trying to redefine .*\) at line 3, column \d/),
  });
  expect(find('Codex').detail).not.toContain('installed');
});
