/**
 * The figures of the "fast from the first call, lean at a million blocks" table, for
 * bench/RESULTS.md: each with the figure the issue started from, this run's, the target and
 * whether it is met. Wall times depend on the machine's load; CPU times (from /proc) stand beside
 * them as our side's own work.
 */
import type { EraRow } from './cold-start-eras.ts';
import type { IdleRss } from './idle-rss.ts';

export interface ScaleVariant {
  firstCallMs: number;
  firstCallCpuMs: number;
  warmOutsideMs: number;
  warmCpuMs: number;
  peakRssMb: number;
  newChatMs: number;
  newChatCpuMs: number;
  newChatPeakMb: number;
}

export interface ScaleSize {
  blocks: number;
  backend: string;
  default: ScaleVariant;
  semiSpace: ScaleVariant;
  warmInsideMs: number;
}

export interface IssueRow {
  figure: string;
  before: string;
  now: string;
  target: string;
  pass: boolean | undefined;
}

const SEMI = '--max-semi-space-size=1';
const k = (blocks: number) => (blocks >= 1_000_000 ? `${blocks / 1_000_000}M` : `${blocks / 1000}k`);
const both = (s: ScaleSize, pick: (v: ScaleVariant) => number, unit: string) =>
  `${pick(s.default)} ${unit} default / ${pick(s.semiSpace)} ${unit} ${SEMI}`;

function scaleRows(emulated: ScaleSize | undefined, synthetic: ScaleSize | undefined): IssueRow[] {
  const rows: IssueRow[] = [];
  if (emulated) {
    const e = emulated.default;
    rows.push(
      {
        figure: `first navigation call of a new chat, ${k(emulated.blocks)} blocks (${emulated.backend}; index kept by an earlier process)`,
        before: '5.2 s wall, 610 ms server CPU',
        now: `${e.newChatMs} ms wall, ${e.newChatCpuMs} ms CPU (first call with no kept index: ${e.firstCallMs} ms wall, ${e.firstCallCpuMs} ms CPU)`,
        target: '≤ 300 ms wall',
        pass: e.newChatMs <= 300,
      },
      {
        figure: `warm navigation call outside the staleness window, ${k(emulated.blocks)}`,
        before: '164 ms',
        now: `${e.warmOutsideMs} ms wall, ${e.warmCpuMs} ms CPU per call`,
        target: '≤ 100 ms',
        pass: e.warmOutsideMs <= 100,
      },
      {
        figure: `peak RSS after every navigation tool, ${k(emulated.blocks)}`,
        before: `109 MB (78.5 with ${SEMI})`,
        now: `${both(emulated, (v) => v.peakRssMb, 'MB')}; a new chat on the kept index: ${e.newChatPeakMb} MB`,
        target: '≤ 72 MB',
        pass: Math.min(e.peakRssMb, emulated.semiSpace.peakRssMb) <= 72,
      },
    );
  }
  if (synthetic) {
    const s = synthetic.default;
    rows.push(
      {
        figure: `peak RSS, ${k(synthetic.blocks)} blocks (${synthetic.backend} API)`,
        before: '226 MB (201 with the flag)',
        now: `${both(synthetic, (v) => v.peakRssMb, 'MB')}; a new chat on the kept index: ${s.newChatPeakMb} MB`,
        target: '≤ 120 MB',
        pass: Math.min(s.peakRssMb, synthetic.semiSpace.peakRssMb) <= 120,
      },
      {
        figure: `index build at ${k(synthetic.blocks)}, our side`,
        before: '1.9 s wall, 2.1 s CPU',
        now: `${both(synthetic, (v) => v.firstCallMs, 'ms')} wall; CPU ${both(synthetic, (v) => v.firstCallCpuMs, 'ms')}`,
        target: '≤ 1.5 s',
        pass: Math.min(s.firstCallMs, synthetic.semiSpace.firstCallMs) <= 1500,
      },
    );
  }
  return rows;
}

/** Node 20 `initialize`: the SDK alone (no tools, no roam-mcp code) against the bare floor. */
export interface SdkBound {
  sdkOnlyMs: number;
  floorMs: number;
}

function startRows(eras: EraRow[], idle: IdleRss[], bound?: SdkBound): IssueRow[] {
  const rss = (name: string) => idle.find((r) => r.name === name)?.medianMb;
  const ours = rss('roam-mcp');
  const rows: IssueRow[] = [
    {
      figure: 'idle RSS after `initialize` + `tools/list`',
      before: '68 MB (official 0.12: 69 MB; bare Node: 41 MB)',
      now: idle.map((r) => `${r.name}: ${r.medianMb} MB`).join('; '),
      target: '≤ 55 MB',
      pass: ours === undefined ? undefined : ours <= 55,
    },
  ];
  const cell = (node: string, server: string, era: string) =>
    eras.find((r) => r.node === node && r.server === server && r.era === era);
  const nodes = [...new Set(eras.map((r) => r.node))];
  const initialize = eras.find((r) => r.era.startsWith('initialize'))?.era ?? '';
  const vsOfficial = nodes.flatMap((node) => {
    const [mine, theirs] = [cell(node, 'roam-mcp', initialize), cell(node, 'official Roam MCP', initialize)];
    return mine && theirs ? [{ node, mine: mine.medianMs, theirs: theirs.medianMs }] : [];
  });
  rows.push({
    figure: 'cold start to the `initialize` answer, vs the official server',
    before: '0.72–0.77× on Node 20/22/24 (Node 20: 314 vs 430 ms; Node 22: 243 vs 315 ms)',
    now: vsOfficial.length
      ? vsOfficial
          .map((c) => `Node ${c.node}: ${c.mine} vs ${c.theirs} ms = ${(c.mine / c.theirs).toFixed(2)}×`)
          .join('; ')
      : 'not measured (pass --official PATH)',
    target: '≤ 0.5×',
    pass: vsOfficial.length ? vsOfficial.every((c) => c.mine / c.theirs <= 0.5) : undefined,
  });
  const mine = eras.filter((r) => r.server === 'roam-mcp');
  rows.push({
    figure: 'cold start vs a bare Node answering the same request, both eras',
    before: '2.1–3.3×',
    now:
      mine.map((r) => `Node ${r.node} ${r.era.split(' ')[0]}: ${r.medianMs} ms = ${r.vsFloor}×`).join('; ') +
      (bound
        ? ` (the SDK alone, no tools and no roam-mcp code: ${bound.sdkOnlyMs} ms = ${(bound.sdkOnlyMs / bound.floorMs).toFixed(2)}× on Node 20)`
        : ''),
    target: '≤ 2×',
    pass: mine.length ? mine.every((r) => r.vsFloor <= 2) : undefined,
  });
  return rows;
}

export function issueRows(input: {
  scale: ScaleSize[];
  eras: EraRow[];
  idle: IdleRss[];
  worstOverhead?: { tool: string; medianMs: number };
  sdkBound?: SdkBound;
}): IssueRow[] {
  const emulated = [...input.scale].reverse().find((s) => s.backend === 'emulator');
  const synthetic = [...input.scale].reverse().find((s) => s.backend === 'synthetic');
  const w = input.worstOverhead;
  return [
    ...scaleRows(emulated, synthetic),
    ...startRows(input.eras, input.idle, input.sdkBound),
    {
      figure: 'per-call overhead, worst read tool',
      before: '1.82 ms',
      now: w ? `${w.medianMs} ms (${w.tool})` : 'not measured',
      target: '< 1 ms',
      pass: w ? w.medianMs < 1 : undefined,
    },
  ];
}

export function issueMarkdown(rows: IssueRow[]): string[] {
  const result = (pass: boolean | undefined) => (pass === undefined ? '—' : pass ? 'PASS' : 'FAIL');
  return [
    '| figure | before | now | target | result |',
    '|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.figure} | ${r.before} | ${r.now} | ${r.target} | ${result(r.pass)} |`),
  ];
}
