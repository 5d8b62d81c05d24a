// Tests drive the built artefacts (the roam-mcp bin, the demo server) as users run them,
// so build them once before any test file starts, with what the run's files need besides
// (test/run-needs.ts): the fixtures that run as processes, Node 22 and 24, the real clients.
import type { TestProject } from 'vitest/node';
import { buildTargets } from '../scripts/build.mjs';
import { builtFromCurrentSources, markBuilt } from '../scripts/build-freshness.mjs';
import { ensureLtsNodes, LTS_NODES, ltsNodeSupported } from '../scripts/lts-node.mjs';
import { ensureRealClients } from '../scripts/real-clients.mjs';
import { PASSES } from '../scripts/test-passes.mjs';
import { DATA_DIR_ENV } from '../src-shared/node/data-dir.ts';
import { buildFixtureScripts } from './harness/fixture-bundles.ts';
import { removeDir, tempDir } from './harness/temp-dir.ts';
import { needsOf, type Need } from './run-needs.ts';

/** `npm run test:one` (scripts/test-one.mjs): no build and no Node downloads, for the inner loop. */
export const UNIT_ENV = 'ROAM_TEST_UNIT';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { vitest } = project;
  const needs = await needsOf(vitest.state.getPaths());
  if (vitest.projects.some((p) => (PASSES as readonly string[]).includes(p.name))) needs.add('ltsNodes');
  if (process.env[UNIT_ENV] !== '1') await buildEverything(needs);
  // The fixtures are bundled in a second: without them a launcher test fails, it proves nothing.
  else if (needs.has('fixtures')) await buildFixtureScripts();
  // Anything that reaches for the machine's data folder (the tray core, the tray's MCP children,
  // which inherit this environment) gets one of this run's instead: tests never touch the real
  // journal or kept indexes. A test about the folder itself sets its own.
  const data = await tempDir('roam-companion-test-data-');
  process.env[DATA_DIR_ENV] ??= data;
  return () => removeDir(data);
}

async function buildEverything(needs: ReadonlySet<Need>): Promise<void> {
  // Node 22 and 24 run the server in the LTS passes and the Inspector and conformance tests
  // (Node ≥ 22): downloaded once, on linux-x64, while the build runs.
  const ltsNodes =
    ltsNodeSupported && needs.has('ltsNodes')
      ? ensureLtsNodes(Object.keys(LTS_NODES) as Array<keyof typeof LTS_NODES>)
      : undefined;
  await Promise.all([
    buildWhenStale(),
    needs.has('fixtures') ? buildFixtureScripts() : undefined,
    ltsNodes,
    // The clients' own CLIs (test/clients/real-clients.test.ts), likewise once; never fails the run.
    needs.has('realClients') ? ensureRealClients() : undefined,
  ]);
}

/** dist/ as the sources are now: built unless the last whole build started after every change. */
async function buildWhenStale(): Promise<void> {
  if (await builtFromCurrentSources()) return;
  const startedAt = Date.now();
  await buildTargets();
  await markBuilt(startedAt);
}
