/**
 * What roam-mcp's prompts cost: of prompts/list, each prompt's name + title + description +
 * arguments (JSON as sent), per toolset selection (a client may put the list in the model's
 * context, as it does tools/list; most show it as slash commands); and, once a user runs one, the
 * size of each prompt's messages on the demo graph and on a generated 10k-block graph (its best
 * connected page and newest daily note, as completion offers them first), which the prompt
 * budget bounds. From the built bin over stdio (SDK client, emulator), like bench/tools-budget.ts.
 *
 * Alone: node --import tsx bench/prompts-budget.ts (writes bench/results/prompts-budget.{json,md});
 * `npm run bench` runs it with the other benchmarks.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { GetPromptResult, Prompt } from '@modelcontextprotocol/sdk/types.js';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PROMPT_BUDGET } from '../src-mcp/prompts/prompt-text.ts';
import { DEFAULT_TOOLSETS } from '../src-shared/toolsets.ts';
import { startEmulator } from '../test/emulator/index.ts';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const BIN = path.join(root, 'dist/roam-mcp.mjs');
const TOKENS = {
  budget: 'roam-graph-local-token-PROMPTSpromptsPROMPTSpromp',
  large: 'roam-graph-local-token-LARGElargeLARGElargeLARGEl',
};
const GRAPH = 'budget';
const LARGE = 'large';
const LARGE_BLOCKS = 10_000;
const SELECTIONS = ['all', 'default', 'core', 'navigation'];

/** Arguments for one run of each prompt, about `page` on the day `date`. */
function samples(page: string, date: string): Record<string, Record<string, string>> {
  return {
    backlinks: { page },
    graph: { page, depth: '2' },
    related: { query: page },
    'daily-review': { date },
  };
}

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

export interface PromptListRow {
  selection: string;
  prompts: number;
  bytes: number;
  perPrompt: Array<{ name: string; bytes: number }>;
}

export interface PromptRunRow {
  graph: string;
  prompt: string;
  args: Record<string, string>;
  messages: number;
  bytes: number;
  estimatedTokens: number;
}

/** What the model would read of one listed prompt. */
function listedBytes(prompt: Prompt): number {
  return (
    bytes(prompt.name) +
    bytes(prompt.title ?? '') +
    bytes(prompt.description ?? '') +
    bytes(JSON.stringify(prompt.arguments ?? []))
  );
}

/** Text and embedded resources' text of a prompt's messages. */
function messageBytes(result: GetPromptResult): number {
  return result.messages.reduce((sum, { content }) => {
    if (content.type === 'text') return sum + bytes(content.text);
    if (content.type === 'resource') return sum + bytes((content.resource as { text?: string }).text ?? '');
    return sum + bytes(JSON.stringify(content));
  }, 0);
}

async function connect(home: string, selection: string): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, ...(selection === 'default' ? [] : ['--tools', selection])],
    env: { PATH: process.env.PATH ?? '', HOME: home, ROAM_MCP_NO_LAUNCH: '1' },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(transport);
  return client;
}

async function measureList(home: string, selection: string): Promise<PromptListRow> {
  const client = await connect(home, selection);
  try {
    const { prompts } = await client.listPrompts();
    const perPrompt = prompts.map((p) => ({ name: p.name, bytes: listedBytes(p) }));
    return {
      selection,
      prompts: prompts.length,
      bytes: perPrompt.reduce((sum, p) => sum + p.bytes, 0),
      perPrompt,
    };
  } finally {
    await client.close();
  }
}

/** The first value completion offers for a prompt's argument on `graph`. */
async function firstCompletion(client: Client, graph: string, prompt: string, name: string, value: string) {
  const { completion } = await client.complete({
    ref: { type: 'ref/prompt', name: prompt },
    argument: { name, value },
    context: { arguments: { graph } },
  });
  if (!completion.values[0]) throw new Error(`no completion for ${prompt} ${name} on ${graph}`);
  return completion.values[0];
}

async function measureRuns(home: string): Promise<PromptRunRow[]> {
  const client = await connect(home, 'all');
  try {
    const large = {
      page: await firstCompletion(client, LARGE, 'backlinks', 'page', ''),
      date: await firstCompletion(client, LARGE, 'daily-review', 'date', '2'),
    };
    const runs = [
      [GRAPH, samples('Project Apollo', '2026-11-22')],
      [LARGE, samples(large.page, large.date)],
    ] as const;
    const rows: PromptRunRow[] = [];
    for (const [graph, sample] of runs) {
      for (const [prompt, args] of Object.entries(sample)) {
        const result = await client.getPrompt({ name: prompt, arguments: { ...args, graph } });
        const size = messageBytes(result);
        const estimatedTokens = Math.ceil(size / 4);
        rows.push({ graph, prompt, args, messages: result.messages.length, bytes: size, estimatedTokens });
      }
    }
    return rows;
  } finally {
    await client.close();
  }
}

export async function measurePromptsBudget(): Promise<{ lists: PromptListRow[]; runs: PromptRunRow[] }> {
  const home = await mkdtemp(path.join(os.tmpdir(), 'roam-prompts-budget-'));
  const emulator = await startEmulator({
    home,
    port: 0,
    graphs: [
      { name: GRAPH, content: 'demo', tokens: [{ token: TOKENS.budget, accessLevel: 'full' }] },
      {
        name: LARGE,
        content: { generate: { blocks: LARGE_BLOCKS, seed: 1 } },
        tokens: [{ token: TOKENS.large, accessLevel: 'full' }],
      },
    ],
  });
  try {
    await writeFile(
      path.join(home, '.roam-tools.json'),
      JSON.stringify({
        version: 1,
        graphs: [GRAPH, LARGE].map((name) => ({
          name,
          type: 'hosted',
          token: TOKENS[name as keyof typeof TOKENS],
        })),
      }),
      { mode: 0o600 },
    );
    const lists: PromptListRow[] = [];
    for (const selection of SELECTIONS) lists.push(await measureList(home, selection));
    return { lists, runs: await measureRuns(home) };
  } finally {
    await emulator.close();
    await rm(home, { recursive: true, force: true });
  }
}

export function promptsBudgetMarkdown(report: { lists: PromptListRow[]; runs: PromptRunRow[] }): string[] {
  const all = report.lists.find((r) => r.selection === 'all');
  return [
    '## Prompts budget',
    '',
    'Of prompts/list, per prompt: name + title + description + arguments as sent (compact JSON). A ' +
      'prompt is listed only when its tools are offered. From the built bin over stdio ' +
      '(bench/prompts-budget.ts).',
    '',
    '| selection | prompts | bytes | ≈ tokens |',
    '|---|---|---|---|',
    ...report.lists.map(
      (r) =>
        `| ${r.selection === 'default' ? `default (${DEFAULT_TOOLSETS.join(',')})` : r.selection} | ${r.prompts} | ${r.bytes} | ${Math.ceil(r.bytes / 4)} |`,
    ),
    '',
    `Per prompt: ${(all?.perPrompt ?? []).map((p) => `${p.name} ${p.bytes} B`).join(', ')}.`,
    '',
    'One run of each (what a user pays when running it: text and embedded resources) on the demo graph ' +
      `and on a generated ${LARGE_BLOCKS.toLocaleString('en')}-block graph, about its best connected page ` +
      `and newest daily note. Each prompt embeds at most ${PROMPT_BUDGET.toLocaleString('en')} characters of data.`,
    '',
    '| graph | prompt | arguments | messages | bytes | ≈ tokens |',
    '|---|---|---|---|---|---|',
    ...report.runs.map(
      (r) =>
        `| ${r.graph} | ${r.prompt} | \`${JSON.stringify(r.args)}\` | ${r.messages} | ${r.bytes} | ${r.estimatedTokens} |`,
    ),
  ];
}

async function main(): Promise<void> {
  const report = await measurePromptsBudget();
  const results = path.join(root, 'bench/results');
  await mkdir(results, { recursive: true });
  await writeFile(path.join(results, 'prompts-budget.json'), `${JSON.stringify(report, null, 2)}\n`);
  const md = promptsBudgetMarkdown(report);
  await writeFile(path.join(results, 'prompts-budget.md'), `${md.join('\n')}\n`);
  process.stdout.write(`${md.join('\n')}\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
