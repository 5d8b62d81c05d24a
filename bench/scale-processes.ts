/**
 * The processes of the scale benches (bench/navigation-scale.ts, bench/index-build.ts): the Local
 * API at scale in a child of its own (the emulator, or the synthetic API answering from memory:
 * bench/navigation-scale-child.ts) and the bin over stdio on that graph, with its CPU from /proc.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { forkBenchChild } from './bench-child.ts';

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
export const BIN = path.join(ROOT, 'dist/roam-mcp.mjs');
export const TOKEN = 'roam-graph-local-token-SCALEbenchSCALEbenchSCALEbe';
export const GRAPH = 'scale';

type Reply = { type: string; url?: string; counts?: { pages: number; blocks: number }; loadMs?: number };

/** The Local API at scale, ready to answer. */
export async function startBackend(home: string, blocks: number, backend: 'emulator' | 'synthetic') {
  const { child, next } = forkBenchChild<Reply>('bench/navigation-scale-child.ts', 8192);
  const ready = next('ready');
  child.send({ home, graph: GRAPH, blocks, token: TOKEN, backend });
  const started = await ready;
  const ask = (type: string, reply: string) => {
    const answer = next(reply);
    child.send({ type });
    return answer;
  };
  return { ...started, close: () => ask('close', 'closed') };
}

/** utime + stime of a process in ms (Linux /proc): our side's work, whatever the machine's load. */
export async function cpuMs(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** The bin on the scale graph, its data folder `dataDir`; `call` throws on a tool error. */
export async function startBin(
  home: string,
  execArgv: string[],
  stalenessMs: number,
  dataDir: string,
  bin = BIN,
) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...execArgv, bin],
    env: {
      HOME: home,
      PATH: process.env.PATH ?? '',
      ROAM_MCP_NO_LAUNCH: '1',
      ROAM_MCP_TOOLS: 'all',
      ROAM_GRAPH: GRAPH,
      ROAM_API_TOKEN: TOKEN,
      ROAM_MCP_INDEX_STALENESS_MS: String(stalenessMs),
      ROAM_COMPANION_DATA_DIR: dataDir,
    },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'navigation-scale', version: '1' });
  await client.connect(transport);
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const began = performance.now();
    const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 600_000 });
    const wallMs = performance.now() - began;
    const text = JSON.stringify(result.content);
    if (result.isError) throw new Error(`${name}: ${text.slice(0, 300)}`);
    return {
      wallMs,
      tokens: Math.ceil(text.length / 4),
      json: JSON.parse((result.content as Array<{ text: string }>)[0]!.text),
    };
  };
  return { call, pid: transport.pid!, close: () => client.close() };
}
