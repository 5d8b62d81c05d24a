// Tests drive the built artefacts (the roam-mcp bin, the demo server) as users run them,
// so build them once before any test file starts, with the fixtures that run as processes.
import { buildTargets } from '../scripts/build.mjs';
import { builtFromCurrentSources, markBuilt } from '../scripts/build-freshness.mjs';
import { ensureLtsNodes, LTS_NODES, ltsNodeSupported } from '../scripts/lts-node.mjs';
import { ensureRealClients } from '../scripts/real-clients.mjs';
import { DATA_DIR_ENV } from '../src-shared/node/data-dir.ts';
import { buildFixtureScripts } from './harness/fixture-bundles.ts';
import { removeDir, tempDir } from './harness/temp-dir.ts';

/** `npm run test:one` (scripts/test-one.mjs): no build and no Node downloads, for the inner loop. */
export const UNIT_ENV = 'ROAM_TEST_UNIT';

export default async function setup(): Promise<() => Promise<void>> {
  if (process.env[UNIT_ENV] !== '1') await buildEverything();
  // Anything that reaches for the machine's data folder (the tray core, the tray's MCP children,
  // which inherit this environment) gets one of this run's instead: tests never touch the real
  // journal or kept indexes. A test about the folder itself sets its own.
  const data = await tempDir('roam-companion-test-data-');
  process.env[DATA_DIR_ENV] ??= data;
  return () => removeDir(data);
}

async function buildEverything(): Promise<void> {
  // Node 22 and 24 run the server in the LTS passes and the Inspector and conformance tests
  // (Node ≥ 22): downloaded once, on linux-x64, while the build runs.
  const ltsNodes = ltsNodeSupported
    ? ensureLtsNodes(Object.keys(LTS_NODES) as Array<keyof typeof LTS_NODES>)
    : undefined;
  // The clients' own CLIs (test/clients/real-clients.test.ts), likewise once; never fails the run.
  await Promise.all([buildWhenStale(), buildFixtureScripts(), ltsNodes, ensureRealClients()]);
}

/** dist/ as the sources are now: built unless the last whole build started after every change. */
async function buildWhenStale(): Promise<void> {
  if (await builtFromCurrentSources()) return;
  const startedAt = Date.now();
  await buildTargets();
  await markBuilt(startedAt);
}
