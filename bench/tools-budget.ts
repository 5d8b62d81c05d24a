/**
 * What every chat pays for roam-mcp's tools (docs/mcp.md, "Toolsets"): of tools/list, each tool's
 * name + description + inputSchema (JSON as sent), plus the server instructions. Measured from
 * the built bin over stdio (SDK client, emulator graph with a full token and semantic search, so
 * every capability-probed tool is listed) for the full surface, the default set and each set.
 * Output schemas are not counted (clients do not show them to the model).
 *
 * Alone: node --import tsx bench/tools-budget.ts (writes bench/results/tools-budget.{json,md});
 * `npm run bench` (bench/run-all.ts) puts its targets and table into bench/RESULTS.md.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tools as catalogue } from '../src-mcp/tool-catalogue.ts';
import { probedActions } from '../src-mcp/tool-definition.ts';
import { DEFAULT_TOOLSETS, TOOLSET_NAMES } from '../src-shared/toolsets.ts';
import { startEmulator } from '../test/emulator/index.ts';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const BIN = path.join(root, 'dist/roam-mcp.mjs');
const TOKEN = 'roam-graph-local-token-BUDGETbudgetBUDGETbudgetBU';
const GRAPH = 'budget';

/** The official Roam MCP server 0.9.2: 38.2 KB of tools/list for 33 tools. */
const OFFICIAL_BYTES_PER_TOOL = 1157;
const FULL_SURFACE_TARGET = Math.round(0.6 * OFFICIAL_BYTES_PER_TOOL);
const DEFAULT_SET_TARGET = 16 * 1024;

export interface BudgetRow {
  selection: string;
  tools: number;
  /** Names the selection's sets assign that this build's catalogue does not have (yet). */
  missing: string[];
  toolBytes: number;
  instructionsBytes: number;
  totalBytes: number;
  bytesPerTool: number;
  perTool: Array<{ name: string; bytes: number }>;
}

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

/** tools/list as the model reads it, from the bin started with `args`. */
async function measure(selection: string, args: string[], home: string): Promise<BudgetRow> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, ...args],
    env: { PATH: process.env.PATH ?? '', HOME: home, ROAM_MCP_NO_LAUNCH: '1' },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench', version: '1' });
  const sets = selection === 'all' ? TOOLSET_NAMES : selection === 'default' ? DEFAULT_TOOLSETS : [selection];
  const inSets = catalogue.filter((tool) => (sets as readonly string[]).includes(tool.toolset));
  const names = inSets.map((tool) => tool.name);
  const probed = inSets.some((tool) => probedActions(tool).length > 0);
  const changed = new Promise<void>((resolve) =>
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
  );
  await client.connect(transport);
  try {
    // The first graph call (here a resource read: resources follow no toolset) probes
    // capabilities; probed tools appear with tools/list_changed.
    await client.readResource({ uri: `roam://${GRAPH}/stats` });
    if (probed) await changed;
    const { tools } = await client.listTools();
    const perTool = tools.map((tool) => ({
      name: tool.name,
      bytes: bytes(tool.name) + bytes(tool.description ?? '') + bytes(JSON.stringify(tool.inputSchema)),
    }));
    const toolBytes = perTool.reduce((sum, t) => sum + t.bytes, 0);
    const instructionsBytes = bytes(client.getInstructions() ?? '');
    const listed = new Set(tools.map((t) => t.name));
    return {
      selection,
      tools: tools.length,
      missing: names.filter((name) => !listed.has(name)),
      toolBytes,
      instructionsBytes,
      totalBytes: toolBytes + instructionsBytes,
      bytesPerTool: tools.length ? Math.round((toolBytes + instructionsBytes) / tools.length) : 0,
      perTool,
    };
  } finally {
    await client.close();
  }
}

/** Every selection: all, the default, then each set alone. */
export async function measureToolsBudget(): Promise<BudgetRow[]> {
  const home = await mkdtemp(path.join(os.tmpdir(), 'roam-budget-'));
  const emulator = await startEmulator({
    home,
    port: 0,
    semanticSearch: true,
    graphs: [{ name: GRAPH, content: 'demo', tokens: [{ token: TOKEN, accessLevel: 'full' }] }],
  });
  try {
    await writeFile(
      path.join(home, '.roam-tools.json'),
      JSON.stringify({ version: 1, graphs: [{ name: GRAPH, type: 'hosted', token: TOKEN }] }),
      { mode: 0o600 },
    );
    const rows = [await measure('all', ['--tools', 'all'], home), await measure('default', [], home)];
    for (const set of TOOLSET_NAMES) rows.push(await measure(set, ['--tools', set], home));
    return rows;
  } finally {
    await emulator.close();
    await rm(home, { recursive: true, force: true });
  }
}

export function budgetTargets(rows: BudgetRow[]) {
  const all = rows.find((r) => r.selection === 'all')!;
  const standard = rows.find((r) => r.selection === 'default')!;
  const partial = (row: BudgetRow) =>
    row.missing.length ? ` (${row.missing.length} assigned tools not in this build)` : '';
  return [
    {
      target: `tools/list full surface ≤ 0.6 × official 0.9.2's ${OFFICIAL_BYTES_PER_TOOL} B/tool = ${FULL_SURFACE_TARGET} B/tool`,
      measured: `${all.bytesPerTool} B/tool (${all.totalBytes} B, ${all.tools} tools)${partial(all)}`,
      pass: all.bytesPerTool <= FULL_SURFACE_TARGET,
    },
    {
      target: `tools/list default toolset (${DEFAULT_TOOLSETS.join(',')}) < 16 KB`,
      measured: `${standard.totalBytes} B (${standard.tools} tools)${partial(standard)}`,
      pass: standard.totalBytes < DEFAULT_SET_TARGET,
    },
  ];
}

export function budgetMarkdown(rows: BudgetRow[]): string[] {
  const heaviest = [...rows.find((r) => r.selection === 'all')!.perTool].sort((a, b) => b.bytes - a.bytes);
  return [
    '## Tools budget (what every chat pays)',
    '',
    'Of tools/list, per tool: name + description + inputSchema as sent (compact JSON); plus the server ' +
      'instructions once (in every total and bytes/tool). Output schemas are not counted. From the built bin ' +
      'over stdio, selected with `--tools` (bench/tools-budget.ts). "Not in this build": names a set assigns ' +
      'that this build does not have (yet).',
    '',
    '| selection | tools | tool bytes | + instructions | total bytes | bytes/tool | not in this build |',
    '|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.selection === 'default' ? `default (${DEFAULT_TOOLSETS.join(',')})` : r.selection} | ${r.tools} | ${r.toolBytes} | ${r.instructionsBytes} | ${r.totalBytes} | ${r.bytesPerTool} | ${r.missing.join(', ') || '—'} |`,
    ),
    '',
    `Heaviest tools: ${heaviest
      .slice(0, 8)
      .map((t) => `${t.name} ${t.bytes} B`)
      .join(', ')}.`,
  ];
}

async function main(): Promise<void> {
  const rows = await measureToolsBudget();
  const results = path.join(root, 'bench/results');
  await mkdir(results, { recursive: true });
  await writeFile(path.join(results, 'tools-budget.json'), `${JSON.stringify(rows, null, 2)}\n`);
  const targets = budgetTargets(rows);
  const md = [
    ...budgetMarkdown(rows),
    '',
    ...targets.map((t) => `- ${t.pass ? 'PASS' : 'FAIL'} ${t.target}: ${t.measured}`),
  ];
  await writeFile(path.join(results, 'tools-budget.md'), `${md.join('\n')}\n`);
  process.stdout.write(`${md.join('\n')}\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
