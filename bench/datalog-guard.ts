/**
 * What datalog_query's guard costs (src-mcp/roam/datalog-guard.ts): DataScript's time for an
 * agent's query as written and as guarded, on generated graphs with a hidden subtree, the same
 * database and process; and the rewrite itself. DataScript is Roam's engine, so the ratio is what
 * a Roam graph pays; the emulator's HTTP and the bin's own work are left out as the same for both.
 *
 * Run: node --import tsx bench/datalog-guard.ts [--blocks 20000,100000] [--runs 5]
 * (writes bench/results/datalog-guard.{json,md}).
 */
import datascript from 'datascript';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { guardQuery } from '../src-mcp/roam/datalog-guard.ts';
import { translateEdn } from '../test/emulator/edn-query.ts';
import { fastInitDb } from '../test/emulator/fast-init-db.ts';
import { generateGraph } from '../test/emulator/generate-graph.ts';
import { graphDatoms } from '../test/emulator/graph-loader.ts';
import { ROAM_SCHEMA } from '../test/emulator/roam-graph.ts';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const { values } = parseArgs({
  options: { blocks: { type: 'string', default: '20000,100000' }, runs: { type: 'string', default: '5' } },
});
const sizes = values.blocks.split(',').map(Number);
const runs = Number(values.runs);

const QUERIES: Record<string, string> = {
  'every text, filtered by a function':
    '[:find ?s :where [?b :block/string ?s] [(clojure.string/includes? ?s "e")]]',
  'count of blocks': '[:find (count ?b) . :where [?b :block/string _]]',
  'every title': '[:find ?t :where [?p :node/title ?t]]',
  'one page by title, its blocks':
    '[:find ?s :where [?p :node/title "Page 1"] [?b :block/page ?p] [?b :block/string ?s]]',
  'references and their titles': '[:find ?t (count ?b) :where [?b :block/refs ?r] [?r :node/title ?t]]',
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function time(db: datascript.DB, query: string): number {
  const edn = translateEdn(query);
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    datascript.q(edn, db);
    samples.push(performance.now() - start);
  }
  return median(samples);
}

const rows: Array<{ blocks: number; query: string; raw: number; guarded: number; rewriteUs: number }> = [];
for (const blocks of sizes) {
  const pages = generateGraph({ blocks, seed: 3 });
  pages[0]!.children = [
    ...(pages[0]!.children ?? []),
    { string: 'private #.rm-hide', children: ['hidden a', { string: 'hidden b', children: ['hidden c'] }] },
  ];
  const db = fastInitDb(graphDatoms('bench', pages), ROAM_SCHEMA);
  for (const [name, query] of Object.entries(QUERIES)) {
    const rewriteStart = performance.now();
    for (let i = 0; i < 100; i++) guardQuery(query, 0);
    const rewriteUs = ((performance.now() - rewriteStart) / 100) * 1000;
    time(db, query); // warm the JIT for both
    rows.push({
      blocks,
      query: name,
      raw: time(db, query),
      guarded: time(db, guardQuery(query, 0)),
      rewriteUs,
    });
  }
}

const md = [
  "# datalog_query: the guard's cost",
  '',
  `Measured ${new Date().toISOString()} by bench/datalog-guard.ts: DataScript, median of ${runs} runs each, same process and database.`,
  '',
  '| blocks | query | as written | guarded | ratio | rewrite |',
  '| ------ | ----- | ---------- | ------- | ----- | ------- |',
  ...rows.map(
    (r) =>
      `| ${r.blocks.toLocaleString('en')} | ${r.query} | ${r.raw.toFixed(1)} ms | ${r.guarded.toFixed(1)} ms | ${(r.guarded / r.raw).toFixed(2)}× | ${r.rewriteUs.toFixed(0)} µs |`,
  ),
  '',
];
await mkdir(path.join(root, 'bench/results'), { recursive: true });
await writeFile(path.join(root, 'bench/results/datalog-guard.json'), `${JSON.stringify(rows, null, 2)}\n`);
await writeFile(path.join(root, 'bench/results/datalog-guard.md'), md.join('\n'));
console.log(md.join('\n'));
