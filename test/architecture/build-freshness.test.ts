/**
 * A run builds dist/ only when an input changed since the last whole build (the inner loop), and
 * always when one did: an edit after the build, an edit during it, a missing stamp.
 */
import { mkdir, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { builtFromCurrentSources, markBuilt } from '../../scripts/build-freshness.mjs';
import { removeDir, tempDir } from '../harness/temp-dir.ts';

let root: string;
const at = (ms: number) => new Date(ms);

beforeEach(async () => {
  root = await tempDir('build-freshness-');
  await mkdir(path.join(root, 'src-mcp/tools'), { recursive: true });
  await writeFile(path.join(root, 'src-mcp/tools/a.ts'), 'export {};\n');
  await writeFile(path.join(root, 'package.json'), '{}\n');
  const past = at(Date.now() - 60_000);
  for (const file of ['src-mcp/tools/a.ts', 'src-mcp/tools', 'src-mcp', 'package.json']) {
    await utimes(path.join(root, file), past, past);
  }
});

afterEach(() => removeDir(root));

describe('build freshness', () => {
  it('is stale with no stamp, fresh after a build, stale after an edit', async () => {
    expect(await builtFromCurrentSources(root)).toBe(false);
    await markBuilt(Date.now(), root);
    expect(await builtFromCurrentSources(root)).toBe(true);
    const later = at(Date.now() + 5_000);
    await utimes(path.join(root, 'src-mcp/tools/a.ts'), later, later);
    expect(await builtFromCurrentSources(root)).toBe(false);
  });

  it('is stale when a source changed after the build had started', async () => {
    const started = Date.now() - 10_000;
    const during = at(started + 1_000);
    await utimes(path.join(root, 'package.json'), during, during);
    await markBuilt(started, root);
    expect(await builtFromCurrentSources(root)).toBe(false);
  });
});
