// Tests drive the built artefacts (the roam-mcp bin, the demo server) as users run them,
// so build them once before any test file starts.
import { buildTargets } from '../scripts/build.mjs';
import { ensureLtsNode, ltsNodeSupported } from '../scripts/lts-node.mjs';

export default async function setup(): Promise<void> {
  await buildTargets();
  // The Inspector and conformance tests need Node ≥ 22 (installed once, on linux-x64).
  if (ltsNodeSupported) ensureLtsNode('node24');
}
