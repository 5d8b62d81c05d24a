/**
 * What the built renderer and preload bundles contain, read from their source maps (test/global-setup.ts
 * builds dist/ first): no zod, and from src-shared only the zod-free constants.ts, graph-identity.ts, toolsets.ts, sequence-diff.ts, word-diff.ts and person-text.ts
 * (docs/architecture.md, Layers).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

async function bundledSources(bundle: string): Promise<string[]> {
  const map = JSON.parse(await readFile(path.join(root, 'dist', `${bundle}.map`), 'utf8')) as {
    sources: string[];
  };
  return map.sources.map((source) =>
    path.relative(root, path.resolve(root, 'dist', path.dirname(bundle), source)),
  );
}

const zodFree = [
  'src-shared/constants.ts',
  'src-shared/graph-identity.ts',
  'src-shared/toolsets.ts',
  'src-shared/sequence-diff.ts',
  'src-shared/word-diff.ts',
  'src-shared/person-text.ts',
];

describe.each(['renderer/app.js', 'main/preload.cjs'])('dist/%s', (bundle) => {
  it('ships no zod and nothing from src-shared but the zod-free constants.ts, graph-identity.ts, toolsets.ts, sequence-diff.ts, word-diff.ts and person-text.ts', async () => {
    const sources = await bundledSources(bundle);
    expect(sources.length).toBeGreaterThan(0);
    expect(sources.filter((s) => s.includes('node_modules/zod/'))).toEqual([]);
    const shared = sources.filter((s) => s.startsWith('src-shared/'));
    expect(shared).toContain('src-shared/constants.ts');
    expect(shared.filter((s) => !zodFree.includes(s))).toEqual([]);
  });
});
