/**
 * Cold start by protocol era and Node version, for bench/run-all.ts (RESULTS.md).
 *
 * Spawn → first answer on stdout, for the two ways a client opens a stdio session:
 * - `initialize` (clients of the 2025-06-18 / 2025-11-25 revisions);
 * - `server/discover` (2026-07-28: no handshake, protocol version and client info in `_meta`).
 * A server that predates 2026-07-28 answers discover with a JSON-RPC error ("method not found");
 * that is still its time to answer, and the table labels it with the error code.
 * Each server runs on Node 20 (the Node running the bench), 22 and 24 (npm-shipped, scripts/lts-node.mjs),
 * against the floor (bench/mcp-bare-initialize.mjs, a bare Node process that
 * answers both requests by hand) and, with --official, Roam's official server; all interleaved.
 * Also the import cost of the MCP SDK's server module alone, whichever SDK is installed.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureLtsNode, ltsNodeSupported } from '../scripts/lts-node.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const BIN = path.join(root, 'dist/roam-mcp.mjs');
const FLOOR = path.join(root, 'bench/mcp-bare-initialize.mjs');

const clientInfo = { name: 'bench', version: '1' };
export const ERAS = {
  'initialize (2025-06-18)': {
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo },
  },
  'server/discover (2026-07-28)': {
    method: 'server/discover',
    params: {
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': clientInfo,
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    },
  },
} as const;
type Era = keyof typeof ERAS;

/** The SDK server module to time, newest line first (SDK v2 is `@modelcontextprotocol/server`). */
const SDK_SERVER_MODULES = ['@modelcontextprotocol/server', '@modelcontextprotocol/sdk/server/index.js'];

export interface NodeBinary {
  version: string;
  path: string;
}

/**
 * The Node running the bench (20 on CI) and the npm-shipped 22 and 24 (scripts/lts-node.mjs,
 * linux-x64 only), one per version.
 */
export function nodeBinaries(): NodeBinary[] {
  const paths = [
    process.execPath,
    ...(ltsNodeSupported ? [ensureLtsNode('node22'), ensureLtsNode('node24')] : []),
  ];
  const byVersion = new Map<string, NodeBinary>();
  for (const p of paths.filter((candidate) => existsSync(candidate))) {
    const version = spawnSync(p, ['--version'], { encoding: 'utf8' }).stdout.trim();
    if (!byVersion.has(version)) byVersion.set(version, { path: p, version });
  }
  return [...byVersion.values()];
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const p90 = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.max(0, Math.ceil(0.9 * values.length) - 1)] ?? NaN;
const round = (n: number) => Math.round(n * 100) / 100;

/** Milliseconds from spawn to the first stdout line, and what that line was (result or error code). */
function firstAnswer(command: string[], era: Era, env: NodeJS.ProcessEnv) {
  const request = `${JSON.stringify({ jsonrpc: '2.0', id: 1, ...ERAS[era] })}\n`;
  return new Promise<{ ms: number; answer: string }>((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command[0] as string, command.slice(1), { env, stdio: ['pipe', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (!out.includes('\n')) return;
      const ms = performance.now() - started;
      child.kill();
      const message = JSON.parse(out.split('\n')[0] as string) as {
        result?: unknown;
        error?: { code: number };
      };
      if (message.result) resolve({ ms, answer: 'result' });
      else if (message.error) resolve({ ms, answer: `error ${message.error.code}` });
      else reject(new Error(`no answer to ${era} from ${command.join(' ')}: ${out.slice(0, 200)}`));
    });
    child.on('error', reject);
    child.stdin.on('error', () => undefined); // a server may exit before reading
    child.stdin.write(request);
  });
}

/** `initialize` then `tools/list`, both answered, then the process is ended as clients end it. */
function wholeSession(command: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const initialize = { jsonrpc: '2.0', id: 1, ...ERAS['initialize (2025-06-18)'] };
  const lines = [
    initialize,
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(command[0] as string, command.slice(1), { env, stdio: ['pipe', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (!out.split('\n').some((line) => line.startsWith('{') && JSON.parse(line).id === 2)) return;
      child.once('exit', () => resolve());
      child.kill();
    });
    child.on('error', reject);
    child.stdin.write(lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
  });
}

export interface EraRow {
  node: string;
  server: string;
  era: Era;
  answer: string;
  runs: number;
  medianMs: number;
  p90Ms: number;
  vsFloor: number;
}

/** Whether this Node has the compile cache roam-mcp turns on (src-mcp/server/compile-cache.ts). */
const hasCompileCache = (node: NodeBinary) => Number(/^v(\d+)/.exec(node.version)?.[1]) >= 22;

function serversOn(node: NodeBinary, official: string | undefined) {
  const servers: Array<{ name: string; command: string[]; env?: Record<string, string> }> = [
    { name: 'roam-mcp', command: [node.path, BIN] },
    { name: 'bare node floor', command: [node.path, FLOOR] },
  ];
  // The first start on a machine (or with the cache switched off) compiles everything.
  if (hasCompileCache(node))
    servers.splice(1, 0, {
      name: 'roam-mcp, compile cache off',
      command: [node.path, BIN],
      env: { NODE_DISABLE_COMPILE_CACHE: '1' },
    });
  if (official)
    servers.push({
      name: 'official Roam MCP',
      command: /\.(c|m)?js$/.test(official) ? [node.path, official] : [official],
    });
  return servers;
}

/** Every server × era × Node, interleaved run by run so machine noise hits all alike. */
export async function measureColdStartEras(env: NodeJS.ProcessEnv, runs: number, official?: string) {
  const cells = nodeBinaries().flatMap((node) =>
    serversOn(node, official).flatMap((server) =>
      (Object.keys(ERAS) as Era[]).map((era) => ({ node, server, era, samples: [] as number[], answer: '' })),
    ),
  );
  // Warms the file cache, and roam-mcp's compile cache with a whole session (its tools load after
  // the first answer), as the first chat on a machine does: the runs time every later chat.
  for (const node of nodeBinaries()) await wholeSession([node.path, BIN], env);
  for (const cell of cells) await firstAnswer(cell.server.command, cell.era, { ...env, ...cell.server.env });
  for (let i = 0; i < runs; i++) {
    for (const cell of cells) {
      const { ms, answer } = await firstAnswer(cell.server.command, cell.era, { ...env, ...cell.server.env });
      cell.samples.push(ms);
      cell.answer = answer;
    }
  }
  const floorOf = (node: NodeBinary, era: Era) =>
    median(
      cells.find((c) => c.node === node && c.era === era && c.server.name === 'bare node floor')!.samples,
    );
  return cells.map((c): EraRow => ({
    node: c.node.version,
    server: c.server.name,
    era: c.era,
    answer: c.answer,
    runs: c.samples.length,
    medianMs: round(median(c.samples)),
    p90Ms: round(p90(c.samples)),
    vsFloor: round(median(c.samples) / floorOf(c.node, c.era)),
  }));
}

export interface ImportCost {
  node: string;
  module: string;
  /** Whether dist/roam-mcp.mjs bundles it (its source map names the package). */
  ours: boolean;
  medianMs: number;
}

/** Each SDK server module installed, with its package version; `ours` when the bin bundles it. */
function sdkServerModules() {
  // The entry's map and its chunks' (scripts/build.mjs).
  const chunks = path.join(root, 'dist/roam-mcp-chunks');
  const maps = [
    path.join(root, 'dist/roam-mcp.mjs.map'),
    ...(existsSync(chunks)
      ? readdirSync(chunks)
          .filter((n) => n.endsWith('.map'))
          .map((n) => path.join(chunks, n))
      : []),
  ];
  const bundled = maps
    .filter((map) => existsSync(map))
    .map((map) => readFileSync(map, 'utf8'))
    .join('\n');
  return SDK_SERVER_MODULES.flatMap((specifier) => {
    const pkg = specifier.split('/').slice(0, 2).join('/');
    const manifest = path.join(root, 'node_modules', pkg, 'package.json');
    if (!existsSync(manifest)) return [];
    const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
    return [
      {
        specifier,
        label: `${specifier} (${pkg} ${version})`,
        ours: bundled.includes(`node_modules/${pkg}/`),
      },
    ];
  });
}

/** Time to import an SDK's server module alone (unbundled, from node_modules), per Node. */
export function measureSdkImport(runs: number): ImportCost[] {
  return sdkServerModules().flatMap((sdk) => {
    const url = import.meta.resolve(sdk.specifier);
    const script = `const t = performance.now(); await import(${JSON.stringify(url)}); process.stdout.write(String(performance.now() - t));`;
    return nodeBinaries().map((node) => {
      const samples = Array.from({ length: runs }, () =>
        Number(spawnSync(node.path, ['--input-type=module', '-e', script], { encoding: 'utf8' }).stdout),
      );
      return { node: node.version, module: sdk.label, ours: sdk.ours, medianMs: round(median(samples)) };
    });
  });
}

/** The RESULTS.md section. */
export function coldStartErasMarkdown(rows: EraRow[], imports: ImportCost[], official: boolean): string[] {
  return [
    '## Cold start by protocol era and Node version',
    '',
    'Spawn → first answer on stdout, all cells interleaved run by run. `initialize` is how 2025-06-18 / ' +
      '2025-11-25 clients open a session; `server/discover` is how 2026-07-28 clients probe a stdio server. ' +
      'An answer of `error -32601` means the server does not speak that revision yet (method not found): ' +
      'the time is its time to say so. "× floor" is the median over the bare Node floor (same Node, same request).',
    '',
    '| Node | server | request | answer | median | p90 | × floor |',
    '|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.node} | ${r.server} | ${r.era} | ${r.answer} | ${r.medianMs} ms | ${r.p90Ms} ms | ${r.vsFloor}× |`,
    ),
    ...(official ? [] : ['', 'Official Roam MCP server: not measured (pass `--official PATH`).']),
    '',
    'Import of an MCP SDK server module alone (unbundled, from node_modules), for each SDK installed; ' +
      '"ours" is the one dist/roam-mcp.mjs bundles (others come with test clients and dev tools):',
    '',
    '| Node | module | ours | import median |',
    '|---|---|---|---|',
    ...imports.map((i) => `| ${i.node} | \`${i.module}\` | ${i.ours ? 'yes' : 'no'} | ${i.medianMs} ms |`),
  ];
}
