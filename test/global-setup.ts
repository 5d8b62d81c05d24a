// Tests drive the built artefacts (the roam-mcp bin, the demo server) as users run them,
// so build them once before any test file starts.
import { buildTargets } from '../scripts/build.mjs';

export default async function setup(): Promise<void> {
  await buildTargets();
}
