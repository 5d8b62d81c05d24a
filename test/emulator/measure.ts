/**
 * `npx tsx test/emulator/measure.ts [blocks]`: how long the emulator takes to generate and load a
 * graph and to answer full-graph queries, wall-clock and CPU, with the machine's load average
 * (the numbers in docs/emulator.md come from here). Measured, never asserted.
 */
import { loadavg } from 'node:os';
import { getBacklinks, getPage, search } from './ai-actions.ts';
import { runQuery } from './edn-query.ts';
import { generateGraph } from './generate-graph.ts';
import { loadGraph } from './graph-loader.ts';

function timed<T>(label: string, work: () => T): T {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const result = work();
  const wall = performance.now() - start;
  const used = process.cpuUsage(cpu);
  const ms = (n: number) => `${Math.round(n)} ms`.padStart(9);
  process.stdout.write(`${label.padEnd(58)} wall ${ms(wall)}  cpu ${ms((used.user + used.system) / 1000)}\n`);
  return result;
}

const blocks = Number(process.argv[2] ?? 100_000);
process.stdout.write(
  `load average before: ${loadavg()
    .map((n) => n.toFixed(1))
    .join(' ')}\n`,
);
const pages = timed(`generateGraph({blocks: ${blocks}})`, () => generateGraph({ blocks, seed: 1 }));
const graph = timed('load into datascript (graph-loader)', () => loadGraph('measure', 'hosted', pages));
const counts = graph.counts();
process.stdout.write(`graph: ${counts.pages} pages, ${counts.blocks} blocks\n`);

const queries = [
  '[:find (count ?b) . :where [?b :block/refs ?p]]',
  '[:find ?b ?p :where [?b :block/refs ?p]]',
  '[:find ?s ?t :where [?b :block/refs ?p] [?b :block/uid ?s] [?p :block/uid ?t]]',
  '[:find ?t (count ?b) :where [?b :block/refs ?p] [?p :node/title ?t]]',
  '[:find (max ?t) . :where [?b :edit/time ?t]]',
];
for (const query of queries) timed(`q ${query.slice(0, 56)}`, () => runQuery(graph, [query]));
const hubs = runQuery(graph, [
  '[:find ?t (count ?b) :where [?b :block/refs ?p] [?p :node/title ?t]]',
]) as Array<[string, number]>;
const [hub, hubRefs] = hubs.sort((a, b) => b[1] - a[1])[0] ?? ['', 0];
timed(`data.ai.getBacklinks hub (${hubRefs} refs, limit 20)`, () => getBacklinks(graph, [{ title: hub }]));
timed('data.ai.getPage hub', () => getPage(graph, [{ title: hub }]));
timed('data.ai.search "graph review"', () => search(graph, [{ query: 'graph review' }]));
timed('data.block.create with a new [[page]]', () =>
  graph.createBlock({ 'page-title': hub, order: 'last' }, { string: 'measured [[Brand New Page]]' }),
);
process.stdout.write(`heap used: ${Math.round(process.memoryUsage().heapUsed / 1e6)} MB\n`);
process.stdout.write(
  `load average after: ${loadavg()
    .map((n) => n.toFixed(1))
    .join(' ')}\n`,
);
