/**
 * V8's young generation for the server (docs/navigation.md, "Node's young generation"). With
 * node's defaults its semi-spaces grow to 16 MB each during start-up and the first tools/list
 * and stay resident while the chat sits idle. `--semi-space-growth-factor=1`, set from inside the
 * process (V8 reads it each time the young generation would grow), keeps them at their initial
 * 1 MB on every launch path (npx, `install`, the `.mcpb` bundle, the tray's child), like
 * `--max-semi-space-size=1` on node's command line. Only an index build lets them grow (factor 2,
 * V8's default): with 1 MB semi-spaces a 1M-block build costs about a third more CPU.
 */
import v8 from 'node:v8';

let builds = 0;

/** Leaves V8 alone when node was started with its own young-generation flags. */
function chosenByUser(): boolean {
  return /semi[-_]space/.test(`${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`);
}

function growthFactor(factor: 1 | 2): void {
  if (chosenByUser()) return;
  try {
    v8.setFlagsFromString(`--semi-space-growth-factor=${factor}`);
  } catch {
    // A node without the flag keeps its default.
  }
}

/** At the server's start, before the SDK and the catalogue load. */
export function keepYoungGenerationSmall(): void {
  growthFactor(1);
}

/** Runs an index build with V8's default growth; the last build to end sets it back to 1. */
export async function withGrowingYoungGeneration<T>(build: () => Promise<T>): Promise<T> {
  if (builds++ === 0) growthFactor(2);
  try {
    return await build();
  } finally {
    if (--builds === 0) growthFactor(1);
  }
}
