/**
 * A synthetic Roam Local API for scale (docs/navigation.md, "Measured"): real HTTP on 127.0.0.1,
 * the port file in HOME, bearer tokens, the success envelope, one read-only graph held as columns
 * (column-graph.ts). It answers the navigation's queries (synthetic-queries.ts) and
 * `data.ai.semanticSearch`, so every navigation tool runs against a million blocks; big answers
 * are built once and kept, so it answers "instantly" and a benchmark measures our side.
 */
import { writeFile } from 'node:fs/promises';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { generateGraph } from '../emulator/generate-graph.ts';
import type { PageSpec } from '../emulator/types.ts';
import { ColumnGraph } from './column-graph.ts';
import { answerKey, answerQuery, type Row } from './synthetic-queries.ts';

export interface SyntheticLocalApi {
  url: string;
  port: number;
  graph: ColumnGraph;
  /** Actions received since the last `clearRequests`. */
  requests: string[];
  clearRequests(): void;
  close(): Promise<void>;
}

export interface SyntheticOptions {
  home: string;
  graph: string;
  token: string;
  content: PageSpec[] | { generate: { blocks: number; seed?: number } };
}

const API_VERSION = '0.0.9';

function rowsBody(rows: Iterable<Row>): Buffer {
  const parts: string[] = ['{"success":true,"result":['];
  let first = true;
  for (const row of rows) {
    parts.push(first ? JSON.stringify(row) : `,${JSON.stringify(row)}`);
    first = false;
  }
  parts.push(`],"apiVersion":"${API_VERSION}"}`);
  return Buffer.from(parts.join(''));
}

const envelope = (result: unknown) =>
  Buffer.from(JSON.stringify({ success: true, result, apiVersion: API_VERSION }));
const failure = (code: string, message: string) =>
  Buffer.from(JSON.stringify({ success: false, error: { code, message } }));

/** Bag-of-words overlap, standing in for embeddings (the emulator's is a cosine of the same). */
function semanticSearch(g: ColumnGraph, input: { query?: unknown; limit?: unknown }): unknown {
  if (typeof input.query !== 'string' || !input.query.trim()) throw new Error('"query" is required');
  const words = new Set(input.query.toLowerCase().split(/\W+/).filter(Boolean));
  const limit = typeof input.limit === 'number' ? input.limit : 10;
  const hits: Array<{ eid: number; score: number }> = [];
  for (const eid of g.blocks) {
    const text = (g.string[eid] ?? '').toLowerCase().split(/\W+/);
    const score = text.filter((w) => words.has(w)).length / Math.sqrt(text.length || 1);
    if (score > 0) hits.push({ eid, score });
  }
  hits.sort((a, b) => b.score - a.score || a.eid - b.eid);
  return {
    results: hits.slice(0, limit).map(({ eid, score }) => ({
      uid: g.uid[eid],
      markdown: `- ${g.string[eid]}`,
      path: g.title.get(g.page.get(eid)) ?? '',
      score: Math.round(score * 1000) / 1000,
    })),
  };
}

function answer(
  g: ColumnGraph,
  cache: Map<string, Buffer>,
  action: string,
  args: unknown[],
): [number, Buffer] {
  if (action === 'data.ai.semanticSearch') {
    try {
      return [200, envelope(semanticSearch(g, (args[0] ?? {}) as { query?: unknown }))];
    } catch (error) {
      return [400, failure('VALIDATION_ERROR', `${action}: ${(error as Error).message}`)];
    }
  }
  if (action !== 'data.q' && action !== 'q')
    return [404, failure('UNKNOWN_ACTION', `API action not found: ${action}`)];
  const [query, ...inputs] = args as [string, ...unknown[]];
  const key = answerKey(g, query, inputs);
  const cached = cache.get(key);
  if (cached) return [200, cached];
  const rows = answerQuery(g, query, inputs);
  if (!rows)
    return [400, failure('QUERY_ERROR', `The synthetic Local API does not know this query: ${query}`)];
  const body = rowsBody(rows);
  cache.set(key, body); // the graph never changes: an answer stays right
  return [200, body];
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startSyntheticLocalApi(options: SyntheticOptions): Promise<SyntheticLocalApi> {
  const pages = Array.isArray(options.content) ? options.content : generateGraph(options.content.generate);
  const graph = ColumnGraph.from(pages);
  const cache = new Map<string, Buffer>();
  const requests: string[] = [];
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const send = (status: number, body: Buffer) => {
      res.writeHead(status, {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Length': body.length,
      });
      res.end(body);
    };
    const text = await readBody(req);
    if (req.method !== 'POST' || req.url?.split('?')[0] !== `/api/${encodeURIComponent(options.graph)}`)
      return send(404, failure('NOT_FOUND', `No route ${req.method} ${req.url}`));
    if (req.headers.authorization !== `Bearer ${options.token}`)
      return send(401, failure('UNAUTHORIZED', 'Invalid token'));
    const { action, args } = JSON.parse(text) as { action: string; args?: unknown[] };
    requests.push(action);
    send(...answer(graph, cache, action, args ?? []));
  };
  const server = http.createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await writeFile(path.join(options.home, '.roam-local-api.json'), JSON.stringify({ port }));
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    graph,
    requests,
    clearRequests: () => void requests.splice(0),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
