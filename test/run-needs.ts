/**
 * What a run's test files need besides dist/ (test/global-setup.ts): the npm-shipped Node 22 and
 * 24, the clients' own CLIs, the bundled process fixtures. Read from the files themselves: a file
 * needs one when it, or a test or script module it imports (transitively), imports the module that
 * provides it. A pass on Node 22 or 24 needs those Nodes whatever its files.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const PROVIDERS = {
  ltsNodes: path.join(ROOT, 'scripts/lts-node.mjs'),
  realClients: path.join(ROOT, 'scripts/real-clients.mjs'),
  fixtures: path.join(ROOT, 'test/harness/fixture-bundles.ts'),
} as const;
export type Need = keyof typeof PROVIDERS;

/** Only test and script modules are followed: the product's sources provide none of them. */
const FOLLOWED = [path.join(ROOT, 'test') + path.sep, path.join(ROOT, 'scripts') + path.sep];
const RELATIVE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

/** The needs of these test files (absolute paths). */
export async function needsOf(files: readonly string[]): Promise<Set<Need>> {
  const providers = new Map(Object.entries(PROVIDERS).map(([need, file]) => [file, need as Need]));
  const needs = new Set<Need>();
  const seen = new Set<string>();
  const visit = async (file: string): Promise<void> => {
    if (seen.has(file)) return;
    seen.add(file);
    const need = providers.get(file);
    if (need) needs.add(need);
    if (!FOLLOWED.some((dir) => file.startsWith(dir))) return;
    const text = await readFile(file, 'utf8').catch(() => '');
    const imported = [...text.matchAll(RELATIVE_IMPORT)].map((m) => path.resolve(path.dirname(file), m[1]!));
    await Promise.all(imported.filter((f) => existsSync(f)).map(visit));
  };
  await Promise.all(files.map(visit));
  return needs;
}
