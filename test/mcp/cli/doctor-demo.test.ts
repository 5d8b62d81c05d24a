/**
 * The demo's own setup passes `roam-mcp doctor` out of the box, through the built bin: its
 * `~/.roam-tools.json` asks for no wider level than each graph's token grants, so a newcomer's
 * first doctor run in the demo shows no warning and no problem.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startDemo, type Demo } from '../../../scripts/demo.ts';
import { previewDataDir } from '../../../src-main/preview/preview-data-dir.ts';
import type { DoctorReport } from '../../../src-mcp/doctor/index.ts';
import { binEnv, runBin } from '../../harness/mcp-bin.ts';

let demo: Demo;

beforeAll(async () => {
  demo = await startDemo();
}, 60_000);

afterAll(async () => {
  await demo?.close();
});

it("the demo's ~/.roam-tools.json: both graphs ok, no warning, no problem", async () => {
  const run = await runBin(['doctor', '--json'], {
    env: binEnv(demo.home, { ROAM_COMPANION_DATA_DIR: previewDataDir(demo.home) }),
    cwd: demo.home,
  });
  const report = JSON.parse(run.stdout) as DoctorReport;
  const graphs = report.checks.filter((check) => check.section === 'graphs');
  expect(graphs.map(({ name, status }) => ({ name, status }))).toEqual([
    { name: 'graph Work (demo-work)', status: 'ok' },
    { name: 'graph Personal (demo-personal)', status: 'ok' },
  ]);
  expect(report.checks.filter((check) => check.status === 'warn' || check.status === 'fail')).toEqual([]);
  expect(run.code).toBe(0);
});
